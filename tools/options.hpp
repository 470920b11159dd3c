// Shared command-line helpers for the subcommands.
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "engine/position.hpp"
#include "engine/variant.hpp"
#include "tools/commands.hpp"

namespace tsuru::tools {

// Parses args into vm; prints help (returns false) on --help, an error (returns false) on bad
// options.
bool parse_options(const Args& args, const boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm);

std::string variant_help();
// Throws std::runtime_error with a clear message on an unknown name.
Variant variant_from_name(const std::string& name);
// The start position when text is empty; throws on a bad position.
Position position_from_text(Variant v, const std::string& text);

}  // namespace tsuru::tools
