// Definitions of the per-rule-set perft entry points (declared in perft.hpp), included only by
// the translation units that instantiate them.
#pragma once

#include "engine/rules/perft.hpp"

namespace tsuru {

template <class R>
std::uint64_t perft_rules(const Position& pos, int depth, const PerftOptions& options) {
  if (options.bulk)
    return options.keep_duplicates ? perft<R, true, true>(pos, depth)
                                   : perft<R, true, false>(pos, depth);
  return options.keep_duplicates ? perft<R, false, true>(pos, depth)
                                 : perft<R, false, false>(pos, depth);
}

namespace perft_detail {
// Adds the nodes at each depth below pos to counts[0..depth-1].
template <class R, bool Keep>
void levels(const Position& pos, int depth, std::uint64_t* counts) {
  if (depth == 1) {
    counts[0] += MoveGen<R>::template count<Keep>(pos);
    return;
  }
  MoveList moves;  // (not a hot path: perft_levels is for tests and the tool)
  MoveGen<R>::template generate<Keep>(pos, moves);
  counts[0] += moves.size();
  for (const Move& m : moves) {
    Position child = pos;
    child.play<false>(m);
    levels<R, Keep>(child, depth - 1, counts + 1);
  }
}
}  // namespace perft_detail

template <class R>
std::vector<std::uint64_t> perft_levels_rules(const Position& pos, int depth, bool keep) {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(depth > 0 ? depth : 0), 0);
  if (depth <= 0) return counts;
  if (keep)
    perft_detail::levels<R, true>(pos, depth, counts.data());
  else
    perft_detail::levels<R, false>(pos, depth, counts.data());
  return counts;
}

#define TSURU_INSTANTIATE_PERFT(R) \
  template std::uint64_t perft_rules<R>(const Position&, int, const PerftOptions&);
#define TSURU_INSTANTIATE_PERFT_LEVELS(R) \
  template std::vector<std::uint64_t> perft_levels_rules<R>(const Position&, int, bool);

}  // namespace tsuru
