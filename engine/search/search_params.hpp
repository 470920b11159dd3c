// Search settings that differ between rule sets. Each is switched on only for the rule sets
// where an SPRT match showed a gain (docs/search-tests.md); elsewhere the search is as before.
#pragma once

#include <algorithm>
#include <type_traits>

#include "engine/rules/rules.hpp"
#include "engine/rules/score.hpp"

namespace tsuru {

template <class R>
struct SearchParams {
  // ProbCut (search.hpp): international +49.3 ± 38.7 Elo (SPRT H1 in 156 games); English
  // +15.0 ± 24.1 (H0 in 301 games), so English searches without it.
  static constexpr bool kProbCut = std::is_same_v<R, InternationalRules>;
  // From this depth, a quiet non-PV node is first searched to probcut_depth(depth) against
  // beta + probcut_margin(depth).
  static constexpr int kProbCutMinDepth = 6;
  static constexpr int probcut_depth(int depth) { return depth - 4; }
  static constexpr Score probcut_margin(int /*depth*/) { return 80; }

  // Quiescence answers a capture threat (search.hpp's threat_replies): a quiet position whose
  // opponent could capture gets its quiet replies searched one ply instead of its static value.
  static constexpr bool kThreatReplies = false;

  // Counter moves: the quiet move that last refuted the opponent's previous move is tried right
  // after the killers.
  static constexpr bool kCounterMoves = false;

  // Late-move reduction of the i-th move tried (i >= 1) at a node of this depth: a quiet move
  // that is not a killer (the caller checks that) is first searched this many plies shallower.
  static constexpr int reduction(int depth, std::size_t i, bool pv_node) {
    if (depth < 3 || i < 3) return 0;
    const int r = 1 + (depth >= 6 && i >= 8 ? 1 : 0);
    return pv_node ? r - 1 : r;
  }
};

}  // namespace tsuru
