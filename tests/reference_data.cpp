#include "tests/reference_data.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tsuru::test {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

std::vector<std::vector<std::string>> read_tsv(const std::string& file) {
  std::ifstream in(data_path(file));
  if (!in) throw std::runtime_error("cannot open " + data_path(file));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {  // the column names
      header = false;
      continue;
    }
    rows.push_back(split(line, '\t'));
  }
  return rows;
}

}  // namespace

std::string data_path(const std::string& file) {
  return std::string(TSURU_TEST_DATA) + "/" + file;
}

std::vector<PerftRow> perft_rows() {
  std::vector<PerftRow> rows;
  for (const auto& f : read_tsv("perft.tsv")) {
    if (f.size() < 6) continue;
    std::uint64_t nodes = 0;
    try {
      nodes = std::stoull(f[4]);
    } catch (const std::out_of_range&) {
      continue;  // beyond 64 bits (English kept d29): out of reach anyway
    }
    rows.push_back({f[0], f[1], f[2], std::stoi(f[3]), nodes, f.size() > 6 ? f[6] : ""});
  }
  return rows;
}

std::vector<MoveListRow> movelist_rows() {
  std::vector<MoveListRow> rows;
  for (const auto& f : read_tsv("movelists.tsv")) {
    if (f.size() < 4) continue;
    rows.push_back({f[0], f[1], split(f[2], ' '), split(f[3], ' '), f.size() > 4 ? f[4] : ""});
  }
  return rows;
}

}  // namespace tsuru::test
