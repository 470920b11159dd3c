#include "tools/options.hpp"

#include <iostream>
#include <stdexcept>

#include "book/data_dir.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "eval/pattern_weights.hpp"

namespace tsuru::tools {

const char* const kEvalFileHelp =
    "evaluation: default (the rule set's default), builtin (the trained weights compiled in), a "
    "weights file (tsuru train; a bare name is also looked for in the data directory's weights/), "
    "or empty for the classic hand-set evaluation";

const char* const kEgdbDirHelp =
    "endgame database directory (docs/egdb.md): default = the data directory's egdb/ "
    "($TSURU_DATA, else ~/.local/share/tsuru, else the installed share/tsuru), empty = none";

std::string checked_eval_file(Variant v, const std::string& value) {
  const std::string file = data::weights_file(value);
  const auto loaded = eval::load_evaluation(v, file);
  if (!loaded) throw std::runtime_error("--eval-file: " + loaded.error());
  return file;
}

bool parse_options(const Args& args, const boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm,
                   const boost::program_options::positional_options_description* positional) {
  namespace po = boost::program_options;
  try {
    po::command_line_parser parser(args);
    parser.options(desc);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      std::cout << desc << '\n';
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "error: " << e.what() << "\n\n" << desc << '\n';
    return false;
  }
  return true;
}

std::string variant_help() {
  return "rule set: " + std::string(variant_names()) +
         " (aliases: " + std::string(variant_aliases()) + ")";
}

Variant variant_from_name(const std::string& name) {
  if (auto v = parse_variant(name)) return *v;
  throw std::runtime_error("unknown variant '" + name +
                           "'; expected one of: " + std::string(variant_names()));
}

Position position_from_text(Variant v, const std::string& text) {
  if (text.empty() || text == "start") return start_position(v);
  auto pos = notation::parse_position(v, text);
  if (!pos) throw std::runtime_error("bad position: " + pos.error());
  return *pos;
}

}  // namespace tsuru::tools
