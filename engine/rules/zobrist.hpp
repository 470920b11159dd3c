// Zobrist keys: one random 64-bit value per (side, man/king, bit) plus one for the side to move.
// Generated at compile time from a fixed seed so keys (and the opening book) are stable.
#pragma once

#include <array>

#include "engine/rules/types.hpp"

namespace tsuru::zobrist {

namespace detail {
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
struct Tables {
  std::array<std::array<Key, 64>, 4> piece{};  // [side * 2 + is_king][bit]
  Key black_to_move = 0;
  // Frisian king runs: [side][count - 1][bit of the king] (drawn after the others, so adding
  // them left every other key unchanged).
  std::array<std::array<std::array<Key, 64>, 3>, 2> king_run{};
};
constexpr Tables make_tables() {
  Tables t{};
  std::uint64_t state = 0x7473757275ULL;  // "tsuru"
  for (auto& row : t.piece)
    for (auto& k : row) k = splitmix64(state);
  t.black_to_move = splitmix64(state);
  for (auto& side : t.king_run)
    for (auto& row : side)
      for (auto& k : row) k = splitmix64(state);
  return t;
}
inline constexpr Tables kTables = make_tables();
}  // namespace detail

constexpr Key piece(Side s, bool king, Square sq) {
  return detail::kTables
      .piece[static_cast<std::size_t>(index(s) * 2 + (king ? 1 : 0))][static_cast<std::size_t>(sq)];
}
constexpr Key black_to_move() {
  return detail::kTables.black_to_move;
}
// The king of side s has made `count` (1..3) quiet moves in a row and stands on sq.
constexpr Key king_run(Side s, int count, Square sq) {
  return count <= 0 ? 0
                    : detail::kTables.king_run[static_cast<std::size_t>(index(
                          s))][static_cast<std::size_t>(count - 1)][static_cast<std::size_t>(sq)];
}

}  // namespace tsuru::zobrist
