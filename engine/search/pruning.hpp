// The guards of the search's selective rules, as pure functions of what a node knows, so that
// each guard has its test (tests/test_pruning.cpp). The numbers come from SearchParams<R>.
//
// Every rule here leaves alone: a node whose side to move must capture (all its moves are
// captures, which are never reduced, and ProbCut does not start), a window at a forced win or
// loss, and the positions the endgame databases cover (the search returns their value before
// it reaches these rules).
#pragma once

#include <cstddef>

#include "engine/rules/move.hpp"
#include "engine/rules/score.hpp"
#include "engine/search/search_params.hpp"

namespace tsuru {

template <class R>
struct Pruning {
  using P = SearchParams<R>;

  // ProbCut at a node of this depth with `moves` legal moves, `capture` when they are captures,
  // and `pieces` on the board: not in the endings, where a shallow search misjudges the long
  // manoeuvres that win with kings.
  static constexpr bool probcut(bool pv_node, bool capture, int depth, std::size_t moves,
                                int pieces, Score beta) {
    return P::kProbCut && !pv_node && !capture && depth >= P::kProbCutMinDepth && moves > 1 &&
           pieces > P::kProbCutMaxEndingPieces && beta > -kWinThreshold &&
           beta < kWinThreshold - P::probcut_margin(depth);
  }

  // Whether a PV node of this depth tries the singular extension of its table move, given
  // the entry's depth, bound (lower or exact: `lower`) and score; moves, capture and pieces as
  // for ProbCut. Not near a forced result, where the margin would cross the win scores, and
  // not in the endings, where it keeps a won king ending from being pressed home in time.
  static constexpr bool singular(bool pv_node, bool capture, int depth, std::size_t moves,
                                 int pieces, bool has_tt_move, bool lower, int tt_depth,
                                 Score tt_score) {
    return P::kSingular && pieces > P::kSingularMaxEndingPieces &&
           singular_node(pv_node, capture, depth, moves, has_tt_move, lower, tt_depth, tt_score);
  }
  // The same, whether or not the rule set switches the extension on.
  static constexpr bool singular_node(bool pv_node, bool capture, int depth, std::size_t moves,
                                      bool has_tt_move, bool lower, int tt_depth, Score tt_score) {
    return pv_node && !capture && depth >= P::kSingularMinDepth && moves > 1 && has_tt_move &&
           lower && tt_depth >= depth - P::kSingularDepthSlack &&
           tt_score > -kWinThreshold + P::singular_margin(depth) && tt_score < kWinThreshold;
  }

  // Whether a node of this depth may fail low on its static value (razoring) against alpha;
  // moves, capture and pieces as for ProbCut. Not near a forced result, and not in the
  // endings, where the static value of a won king ending is far below what pressing it home
  // needs.
  static constexpr bool razor(bool pv_node, bool capture, int depth, std::size_t moves, int pieces,
                              Score alpha) {
    return P::kRazoring && pieces > P::kRazorMaxEndingPieces &&
           razor_node(pv_node, capture, depth, moves, alpha);
  }
  // The same, whether or not the rule set switches it on.
  static constexpr bool razor_node(bool pv_node, bool capture, int depth, std::size_t moves,
                                   Score alpha) {
    return shallow_quiet_node(pv_node, capture, depth, P::kRazorMaxDepth, moves) &&
           alpha > -kWinThreshold + P::razor_margin(depth) && alpha < kWinThreshold;
  }

  // Whether a node of this depth may fail high on its static value (reverse futility pruning)
  // against beta; moves, capture and pieces as for razoring. Not near a forced result, nor in
  // the endings.
  static constexpr bool reverse_futility(bool pv_node, bool capture, int depth, std::size_t moves,
                                         int pieces, Score beta) {
    return P::kReverseFutility && pieces > P::kReverseFutilityMaxEndingPieces &&
           reverse_futility_node(pv_node, capture, depth, moves, beta);
  }
  // The same, whether or not the rule set switches it on.
  static constexpr bool reverse_futility_node(bool pv_node, bool capture, int depth,
                                              std::size_t moves, Score beta) {
    return shallow_quiet_node(pv_node, capture, depth, P::kReverseFutilityMaxDepth, moves) &&
           beta > -kWinThreshold && beta < kWinThreshold - P::reverse_futility_margin(depth);
  }

  // What razoring and reverse futility pruning both ask of a node before its static value: not
  // on the PV, no capture pending, more than one move, and a depth from 1 to max_depth.
  static constexpr bool shallow_quiet_node(bool pv_node, bool capture, int depth, int max_depth,
                                           std::size_t moves) {
    return !pv_node && !capture && depth >= 1 && depth <= max_depth && moves > 1;
  }

  // Whether move m, the i-th tried (from 0) at a node of this depth, is left out by late-move
  // pruning; best: the best score so far. Captures, crowning moves and killers are searched,
  // and so is every move while the side has found nothing better than a forced loss.
  static constexpr bool late_move_pruned(const Move& m, bool killer, int depth, std::size_t i,
                                         bool pv_node, Score best) {
    return P::kLateMovePruning && late_move_node(m, killer, depth, i, pv_node, best);
  }
  // The same, whether or not the rule set switches it on.
  static constexpr bool late_move_node(const Move& m, bool killer, int depth, std::size_t i,
                                       bool pv_node, Score best) {
    return !pv_node && !m.is_capture() && !m.crowns && !killer && depth >= 1 &&
           depth <= P::kLateMoveMaxDepth && i >= P::late_move_count(depth) && best > -kWinThreshold;
  }

  // The late-move reduction of move m, the i-th tried (from 0) at a node of this depth with
  // `pieces` on the board; killer: m is one of the node's killer moves. Captures and crowning
  // moves are searched in full.
  static constexpr int reduction(const Move& m, bool killer, int depth, std::size_t i, bool pv_node,
                                 int pieces) {
    if (m.is_capture() || m.crowns || killer) return 0;
    return P::reduction(depth, i, pv_node, pieces);
  }
};

}  // namespace tsuru
