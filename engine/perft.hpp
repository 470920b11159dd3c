// perft: the number of legal move sequences of a given length, the standard check of a move
// generator against published numbers (tests/data/perft.tsv).
#pragma once

#include <cstdint>

#include "engine/movegen.hpp"
#include "engine/variant.hpp"

namespace tsuru {

struct PerftOptions {
  bool bulk = true;              // count the moves at the last ply instead of playing them
  bool keep_duplicates = false;  // count every capture path (the reference's `kept` rows)
};

template <class R, bool Bulk, bool Keep>
std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if constexpr (Bulk) {
    if (depth == 1) return MoveGen<R>::template count<Keep>(pos);
  }
  MoveList moves;
  MoveGen<R>::template generate<Keep>(pos, moves);
  std::uint64_t nodes = 0;
  for (const Move& m : moves) {
    Position child = pos;
    child.play<false>(m);
    nodes += perft<R, Bulk, Keep>(child, depth - 1);
  }
  return nodes;
}

std::uint64_t perft(Variant v, const Position& pos, int depth, const PerftOptions& options = {});

}  // namespace tsuru
