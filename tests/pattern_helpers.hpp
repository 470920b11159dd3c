// Helpers of the pattern-evaluation and trainer tests: random positions, colour-reversed
// copies, random weights.
#pragma once

#include <unistd.h>
#include <filesystem>
#include <random>
#include <string>

#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"
#include "eval/pattern_weights.hpp"

namespace tsuru::test {

// A position with each square empty, a man or (rarely) a king of either side, drawn from rng;
// men never stand on the row they would be crowned on.
inline Position random_position(Variant v, std::mt19937_64& rng, double density = 0.5) {
  const BoardShape& b = info(v).board;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Bitboard white = 0, black = 0, kings = 0;
  for (int n = 1; n <= b.squares; ++n) {
    const Square sq = b.square(n);
    const Bitboard bb = bit(sq);
    if (u(rng) > density) continue;
    const bool is_white = u(rng) < 0.5;
    const bool king = u(rng) < 0.08 || (b.promotion_row[is_white ? 0 : 1] & bb);
    (is_white ? white : black) |= bb;
    if (king) kings |= bb;
  }
  return Position::from_bitboards(white, black, kings, u(rng) < 0.5 ? Side::White : Side::Black);
}

// The board turned round (square n becomes squares + 1 - n), colours swapped, the other side to
// move.
inline Position colour_reversed(Variant v, const Position& p) {
  const BoardShape& b = info(v).board;
  auto turn = [&](Bitboard x) {
    Bitboard out = 0;
    for (int n = 1; n <= b.squares; ++n)
      if (x & bit(b.square(n))) out |= bit(b.square(b.squares + 1 - n));
    return out;
  };
  return Position::from_bitboards(turn(p.pieces(Side::Black)), turn(p.pieces(Side::White)),
                                  turn(p.kings()), opponent(p.turn()));
}

// Random weights in every group (the per-region king windows and the wide windows too when asked
// for), men worth 100.
inline eval::PatternWeights random_weights(Variant v, std::uint64_t seed, bool king_regions = false,
                                           bool wide = false) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(-200, 200);
  eval::PatternWeights w = eval::PatternWeights::zero(v, king_regions, wide);
  for (auto* group : {&w.region, &w.wide, &w.king_shared, &w.king_region, &w.king_square})
    for (auto& x : *group) x = static_cast<std::int16_t>(d(rng));
  for (auto& phase : w.linear)
    for (auto& x : phase) x = static_cast<std::int16_t>(d(rng));
  w.linear[0][eval::kMen] = w.linear[1][eval::kMen] = 400;
  return w;
}

inline std::string pattern_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("tsuru_" + name + "_" + std::to_string(::getpid())))
      .string();
}

}  // namespace tsuru::test
