// Tsuru's version: CMake's project version, and `git describe` of the sources it was built from
// (empty when they were not a git checkout). The definitions are generated at build time from
// cmake/version.cpp.in.
#pragma once

#include <string>
#include <string_view>

namespace tsuru {

std::string_view version();       // "0.1.0"
std::string_view git_describe();  // "abc1234", "abc1234-dirty", "v0.1.0-3-gabc1234" or ""

// What `tsuru --version` prints: "tsuru 0.1.0 (abc1234)", or "tsuru 0.1.0" without git.
inline std::string version_line() {
  std::string line = "tsuru " + std::string(version());
  if (!git_describe().empty()) line += " (" + std::string(git_describe()) + ")";
  return line;
}

}  // namespace tsuru
