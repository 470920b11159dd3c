// Small text utilities the command-line tests share: counting a substring, reading a file whole.
#pragma once

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>

namespace tsuru::test {

// How many times `what` occurs in `text` (overlapping occurrences counted).
inline std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The whole content of a file ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace tsuru::test
