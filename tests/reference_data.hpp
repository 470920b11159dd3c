// Loads the reference tables in tests/data (published tables, each row with its source:
// tests/data/README.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tsuru::test {

struct PerftRow {
  std::string variant;
  std::string duplicates;  // removed | kept | same
  std::string fen;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::string source;
};

struct MoveListRow {
  std::string variant;
  std::string fen;
  std::vector<std::string> moves;  // Hub long form
  std::vector<std::string> paths;  // PDN paths through landing squares
  std::string source;
};

std::vector<PerftRow> perft_rows();
std::vector<MoveListRow> movelist_rows();
std::string data_path(const std::string& file);

}  // namespace tsuru::test
