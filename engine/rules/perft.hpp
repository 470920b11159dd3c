// perft: the number of legal move sequences of a given length, the standard check of a move
// generator against published numbers (tests/data/perft.tsv).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/rules/movegen.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru {

struct PerftOptions {
  bool bulk = true;              // count the moves at the last ply instead of playing them
  bool keep_duplicates = false;  // count every capture path (the reference's `kept` rows)
};

template <class R, bool Bulk, bool Keep>
std::uint64_t perft(const Position& pos, int depth);

namespace perft_detail {
// The moves did not fit a FixedMoveList: the same node with a list that grows.
template <class R, bool Bulk, bool Keep>
[[gnu::noinline]] std::uint64_t perft_spilled(const Position& pos, int depth) {
  MoveList moves;
  MoveGen<R>::template generate<Keep>(pos, moves);
  std::uint64_t nodes = 0;
  for (const Move& m : moves) nodes += perft<R, Bulk, Keep>(pos.after(m), depth - 1);
  return nodes;
}
}  // namespace perft_detail

template <class R, bool Bulk, bool Keep>
std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if constexpr (Bulk) {
    if (depth == 1) return MoveGen<R>::template count<Keep>(pos);
  }
  FixedMoveList moves;
  MoveGen<R>::template generate<Keep>(pos, moves);
  if (moves.overflowed()) [[unlikely]]
    return perft_detail::perft_spilled<R, Bulk, Keep>(pos, depth);
  std::uint64_t nodes = 0;
  for (const Move& m : moves) {
    Position child = pos;
    child.play<false>(m);
    nodes += perft<R, Bulk, Keep>(child, depth - 1);
  }
  return nodes;
}

std::uint64_t perft(Variant v, const Position& pos, int depth, const PerftOptions& options = {});

// The node count of every depth 1..depth in one traversal (with bulk counting): what perft(d)
// gives for each d, for the price of the deepest.
std::vector<std::uint64_t> perft_levels(Variant v, const Position& pos, int depth,
                                        bool keep_duplicates = false);

// Per-rule-set entry points behind the two above. They are defined in perft_rules.hpp and
// instantiated in one translation unit per hot rule set (perft_english.cpp,
// perft_international.cpp; perft_variants.cpp for the others): GCC limits how much a
// translation unit may grow by inlining, and thirteen rule sets in one unit would stop the
// English and international generators from being inlined into their perft.
template <class R>
std::uint64_t perft_rules(const Position& pos, int depth, const PerftOptions& options);
template <class R>
std::vector<std::uint64_t> perft_levels_rules(const Position& pos, int depth, bool keep);

}  // namespace tsuru
