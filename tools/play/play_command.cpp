// tsuru play: options, then the console session on stdin/stdout.
#include <iostream>
#include <random>
#include <stdexcept>

#include <boost/program_options.hpp>

#include "tools/chinese_commands.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"
#include "tools/play/console.hpp"

namespace tsuru::tools {
namespace {

// "first"/"second", or a colour name of the rule set.
Side side_from_name(Variant v, const std::string& name) {
  const Side first = info(v).first_to_move;
  if (name == "first") return first;
  if (name == "second") return opponent(first);
  if (name == "white") return Side::White;
  if (name == "black") return Side::Black;
  throw std::runtime_error("unknown colour '" + name + "'; expected first, second, white or black");
}

}  // namespace

int run_play(const Args& args) {
  if (wants_chinese(args)) return run_chinese_play(args);
  namespace po = boost::program_options;
  std::string variant_name = "english";
  std::string level_text = "medium";
  std::string colour = "first";
  std::string fen;
  std::uint64_t seed = 0;
  std::string eval_file = EngineOptions{}.eval_file;
  std::string egdb_dir = EngineOptions{}.egdb_dir;
  play::PlaySettings settings;
  po::options_description desc("tsuru play: play against the engine in the terminal");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "level", po::value(&level_text)->default_value(level_text),
      "engine level: beginner, medium or hard")(
      "colour", po::value(&colour)->default_value(colour),
      "your side: first or second player (or white / black); the board is shown from it")(
      "color", po::value(&colour), "same as --colour")(
      "fen", po::value(&fen), "start from this position (PDN FEN or Hub string)")(
      "eval-file", po::value(&eval_file)->default_value(eval_file), kEvalFileHelp)(
      "seed", po::value(&seed), "seed of the engine's random choices (default: a fresh one)")(
      "egdb-dir", po::value(&egdb_dir)->default_value(egdb_dir), kEgdbDirHelp)(
      "egdb-resign", po::value(&settings.egdb_resign)->default_value(settings.egdb_resign),
      "the engine resigns a position the endgame databases say is lost")(
      "egdb-draw", po::value(&settings.egdb_draws)->default_value(settings.egdb_draws),
      "the engine offers and accepts draws by the endgame databases' value where they cover the "
      "position (otherwise by a short search)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;

  settings.variant = variant_from_name(variant_name);
  settings.egdb_dir = egdb_dir;
  const auto level = parse_level(level_text);
  if (!level || *level == Level::None)
    throw std::runtime_error("unknown level '" + level_text +
                             "'; expected beginner, medium or hard");
  settings.level = *level;
  settings.human = side_from_name(settings.variant, colour);
  settings.start = position_from_text(settings.variant, fen);
  settings.eval_file = checked_eval_file(settings.variant, eval_file);
  settings.seed = vm.count("seed") ? seed : std::random_device{}();
  play::Console console(settings, std::cin, std::cout);
  return console.run();
}

}  // namespace tsuru::tools
