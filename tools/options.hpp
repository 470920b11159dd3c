// Shared command-line helpers for the subcommands.
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"
#include "tools/commands.hpp"

namespace tsuru::tools {

// Parses args into vm, with `positional` (when given) naming the option that arguments without
// a name stand for; prints help (returns false) on --help, an error and the options (returns
// false) on bad options.
bool parse_options(
    const Args& args, const boost::program_options::options_description& desc,
    boost::program_options::variables_map& vm,
    const boost::program_options::positional_options_description* positional = nullptr);

std::string variant_help();
// Throws std::runtime_error with a clear message on an unknown name.
Variant variant_from_name(const std::string& name);
// The help text of --eval-file.
extern const char* const kEvalFileHelp;
// The help text of --egdb-dir.
extern const char* const kEgdbDirHelp;
// Checks an --eval-file value for rule set v (empty = classic, builtin = the compiled-in
// weights, else a weights file of v); throws std::runtime_error with the reason when it cannot
// be used.
std::string checked_eval_file(Variant v, const std::string& value);
// The start position when text is empty; throws on a bad position.
Position position_from_text(Variant v, const std::string& text);

}  // namespace tsuru::tools
