#include "tools/bench_positions.hpp"

#include "engine/legal.hpp"
#include "protocol/notation.hpp"

namespace tsuru::tools {

const std::vector<std::string>& bench_positions(Variant v) {
  static const std::vector<std::string> english = {
      "B:W21-32:B1-12",
      "B:W19,20,21,25,26,28,31,32:B1,2,3,8,10,11,12,14",
      "B:W9,17,19,20,24,31:B3,10,11,12,15,18",
  };
  static const std::vector<std::string> international = {
      "W:W31-50:B1-20",
      "W:W21,26,29,32,33,35,36,37,38,43,44,45,48:B1,2,3,4,5,7,8,11,13,14,15,18,19",
      "W:W16,18,26,31,34,35,40,42:B1,3,7,8,9,14,25",
  };
  if (v == Variant::English) return english;
  if (v == Variant::International) return international;
  // The other rule sets: their start position.
  static const std::vector<std::vector<std::string>> starts = [] {
    std::vector<std::vector<std::string>> s(all_variants().size());
    for (Variant x : all_variants())
      s[static_cast<std::size_t>(x)] = {notation::format_fen(x, start_position(x))};
    return s;
  }();
  return starts[static_cast<std::size_t>(v)];
}

int bench_depth(Variant v) {
  if (v == Variant::English) return 14;
  if (v == Variant::International) return 10;
  return info(v).board.squares == 32 ? 12 : 9;
}

}  // namespace tsuru::tools
