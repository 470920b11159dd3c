// Engines on the match command line: `hub:CMD` (a process speaking Hub on stdin/stdout; CMD
// runs under /bin/sh, so it may carry arguments) or `dxp:HOST:PORT` (a DXP engine listening
// there; the runner connects as initiator). Parameters for Hub engines: `name=value`.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "engine/rules/expected.hpp"

namespace tsuru::match {

struct EngineSpec {
  enum class Kind { Hub, Dxp };
  Kind kind = Kind::Hub;
  std::string command;  // Hub
  std::string host;     // DXP
  int port = 0;         // DXP
  std::string text;     // as given
};

Expected<EngineSpec> parse_engine_spec(std::string_view text);
// "name=value" -> {name, value}; an error message on a missing name or '='.
Expected<std::pair<std::string, std::string>> parse_param(std::string_view text);

}  // namespace tsuru::match
