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
  static constexpr bool kEnglish = std::is_same_v<R, EnglishRules>;
  static constexpr bool kInternational = std::is_same_v<R, InternationalRules>;

  // ProbCut (search.hpp): from kProbCutMinDepth, a quiet non-PV node is first searched to
  // probcut_depth(depth) against beta + probcut_margin(depth); if that holds, it fails high.
  // International: from depth 6, 4 plies shallower, 0.8 man (+49.3 ± 38.7 Elo, SPRT H1 in 156
  // games). English: from depth 3, at 40 % of the depth, 0.1 man a ply (+33.1 ± 20.9, H1 in 442
  // games; the international form had failed there, H0 in 301).
  static constexpr bool kProbCut = kEnglish || kInternational;
  static constexpr int kProbCutMinDepth = kEnglish ? 3 : 6;
  static constexpr int probcut_depth(int depth) { return kEnglish ? depth * 2 / 5 : depth - 4; }
  static constexpr Score probcut_margin(int depth) { return kEnglish ? 10 * depth : 80; }
  // No ProbCut with this many pieces or fewer on the board (pruning.hpp).
  static constexpr int kProbCutMaxEndingPieces = kEnglish ? 6 : 0;

  // Quiescence answers a capture threat (search.hpp's qsearch_moves with threats off): a quiet
  // position whose opponent could capture gets its quiet replies searched one ply instead of its
  // static value. Off: H0 in international (636 games, -12 Elo), undecided in English
  // (+3.9 in 1,235 games on the razoring search; docs/search-tests.md, eighth round).
  static constexpr bool kThreatReplies = false;

  // Singular extension at PV nodes (search.hpp): from kSingularMinDepth, when the table move's
  // entry is a lower bound or exact and at most kSingularDepthSlack plies shallower, the other
  // moves are searched at half depth against its score - singular_margin(depth); if every one
  // fails low, the table move is searched a ply deeper. English: +22.9 (+7.8..+38.0) Elo, SPRT
  // H1 in 730 games at 0.1 s a move; international off (-1.1 in 322; docs/search-tests.md).
  static constexpr bool kSingular = kEnglish;
  // Not with this many pieces or fewer (pruning.hpp): two kings against one, searched to 12
  // plies a move, were no longer won before the 40-move rule with it (tests/test_search.cpp).
  static constexpr int kSingularMaxEndingPieces = 6;
  static constexpr int kSingularMinDepth = 8;
  static constexpr int kSingularDepthSlack = 3;
  static constexpr Score singular_margin(int depth) { return 2 * depth; }

  // Sacrifices in quiescence (search.hpp): at a quiet leaf with no king on the board, once on a
  // line, the moves that offer the opponent a capture are played out through the captures;
  // the leaf's value is the best of its static value and theirs (a shot seen one ply early).
  static constexpr bool kSacrifices = false;

  // Late-move pruning (search.hpp): at a non-PV node of depth at most kLateMoveMaxDepth, the
  // quiet moves after the first late_move_count(depth) are not searched once a move has kept
  // the side from a forced loss. Off: H0 in international (358 games, -29 Elo).
  static constexpr bool kLateMovePruning = false;
  static constexpr int kLateMoveMaxDepth = 3;
  static constexpr std::size_t late_move_count(int depth) {
    return 3 + static_cast<std::size_t>(depth * depth);
  }

  // Razoring (search.hpp): a quiet non-PV node of depth at most kRazorMaxDepth whose static
  // value is razor_margin(depth) or more below alpha fails low with that value, unsearched.
  // English: +11.5 (+1.4..+21.7) Elo, SPRT H1 in 1,329 games at 0.1 s a move
  // (docs/search-tests.md, seventh round); international off (-14 in 122 games, undecided).
  static constexpr bool kRazoring = kEnglish;
  // Not with this many pieces or fewer (pruning.hpp): two kings against one, searched to 12
  // plies a move, were no longer won before the 40-move rule with it (tests/test_search.cpp).
  static constexpr int kRazorMaxEndingPieces = 6;
  static constexpr int kRazorMaxDepth = 2;
  static constexpr Score razor_margin(int depth) { return 40 + 60 * depth; }

  // Reverse futility pruning (search.hpp), razoring's mirror: a quiet non-PV node of depth at
  // most kReverseFutilityMaxDepth whose static value clears beta by
  // reverse_futility_margin(depth) fails high with that value, unsearched. Off: English -1.3
  // (-13.9..+11.3) Elo in 792 games on top of razoring, no decision (docs/search-tests.md).
  static constexpr bool kReverseFutility = false;
  // Not with this many pieces or fewer (pruning.hpp), as for razoring.
  static constexpr int kReverseFutilityMaxEndingPieces = 6;
  static constexpr int kReverseFutilityMaxDepth = 2;
  static constexpr Score reverse_futility_margin(int depth) { return 40 + 60 * depth; }

  // Continuation history (search.hpp): a quiet move is ordered by its cut-offs in answer to
  // the opponent's last move (by the square that move arrived on) as well as by its plain
  // history. Off: not matched yet.
  static constexpr bool kContinuationHistory = false;

  // The reductions by table (kReductionTable): at non-PV nodes from depth 3 one ply from the
  // second move on, two from the fifth at depth 5, three from the thirteenth at depth 9; at PV
  // nodes a ply less, from the fourth move. Never to or past the horizon. On in English
  // (docs/search-tests.md, fifth round); off in international (+4 Elo in 160 games, undecided).
  static constexpr bool kReductionTable = kEnglish;
  static constexpr int table_reduction(int depth, std::size_t i, bool pv_node) {
    if (depth < 3 || i < 1) return 0;
    int r = 1 + (depth >= 5 && i >= 4 ? 1 : 0) + (depth >= 9 && i >= 12 ? 1 : 0);
    if (pv_node) r = i >= 3 ? r - 1 : 0;
    return std::min(r, depth - 2);
  }

  // Not with this many pieces or fewer (pruning.hpp): two kings against one, searched to 12
  // plies a move, were no longer won before the 40-move rule with it (tests/test_search.cpp);
  // the plain rule applies there.
  static constexpr int kReductionTableMaxEndingPieces = 6;
  // The plain reductions: one ply from the fourth move at depth 3, two from the ninth at depth
  // 6; at PV nodes a ply less.
  static constexpr int plain_reduction(int depth, std::size_t i, bool pv_node) {
    if (depth < 3 || i < 3) return 0;
    const int r = 1 + (depth >= 6 && i >= 8 ? 1 : 0);
    return pv_node ? r - 1 : r;
  }
  // Late-move reduction of the i-th move tried (i >= 1) at a node of this depth with `pieces`
  // on the board: a quiet move that is not a killer (the caller checks that) is first searched
  // this many plies shallower.
  static constexpr int reduction(int depth, std::size_t i, bool pv_node, int pieces) {
    if constexpr (kReductionTable)
      if (pieces > kReductionTableMaxEndingPieces) return table_reduction(depth, i, pv_node);
    return plain_reduction(depth, i, pv_node);
  }
};

}  // namespace tsuru
