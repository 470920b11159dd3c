// The guards of the search's selective rules (engine/search/pruning.hpp) and the threat test of
// the quiescence search: each rule leaves alone captures, crowning moves, killers, PV nodes
// where it says so, and windows at a forced result.
#include <catch2/catch.hpp>

#include "engine/rules/movegen.hpp"
#include "engine/rules/rules.hpp"
#include "engine/search/pruning.hpp"
#include "tests/engine_helpers.hpp"

using namespace tsuru;

namespace {

template <class R>
void check_probcut_guards() {
  using G = Pruning<R>;
  const int d = SearchParams<R>::kProbCutMinDepth + 2;
  // Where the rule set has ProbCut, a quiet non-PV node of enough depth tries it.
  CHECK(G::probcut(false, false, d, 10, 20, 0) == SearchParams<R>::kProbCut);
  CHECK(G::probcut(false, false, d, 10, 20, -150) == SearchParams<R>::kProbCut);
  CHECK_FALSE(G::probcut(true, false, d, 10, 20, 0));  // PV node
  CHECK_FALSE(G::probcut(false, true, d, 10, 20, 0));  // a capture pending: all moves are captures
  CHECK_FALSE(G::probcut(false, false, d, 1, 20, 0));  // a single move
  CHECK_FALSE(G::probcut(false, false, SearchParams<R>::kProbCutMinDepth - 1, 10, 20, 0));
  // In the endings it leaves alone: where the rule set has such a limit, none at it.
  const int ending = SearchParams<R>::kProbCutMaxEndingPieces;
  if (ending > 0) {
    CHECK_FALSE(G::probcut(false, false, d, 10, ending, 0));
    CHECK(G::probcut(false, false, d, 10, ending + 1, 0) == SearchParams<R>::kProbCut);
  }
  // Near a forced result the margin would cross the win scores.
  CHECK_FALSE(G::probcut(false, false, d, 10, 20, win_in(30)));
  CHECK_FALSE(G::probcut(false, false, d, 10, 20, loss_in(30)));
  CHECK_FALSE(
      G::probcut(false, false, d, 10, 20, kWinThreshold - SearchParams<R>::probcut_margin(d)));
}

template <class R>
void check_reduction_guards() {
  using G = Pruning<R>;
  const Move quiet(10, 14, 0, false);
  const Move capture(10, 19, bit(14), false);
  const Move crowning(5, 1, 0, true);
  const int kMany = 20;  // pieces on the board: a middlegame
  // A late quiet move at a deep non-PV node is searched shallower.
  CHECK(G::reduction(quiet, false, 10, 12, false, kMany) >= 1);
  CHECK(G::reduction(quiet, false, 10, 12, true, kMany) <=
        G::reduction(quiet, false, 10, 12, false, kMany));
  CHECK(G::reduction(quiet, false, 10, 0, false, kMany) == 0);  // the first move: the table's
  CHECK(G::reduction(capture, false, 10, 12, false, kMany) == 0);
  CHECK(G::reduction(crowning, false, 10, 12, false, kMany) == 0);
  CHECK(G::reduction(quiet, true, 10, 12, false, kMany) == 0);  // a killer
  CHECK(G::reduction(quiet, false, 2, 12, false, kMany) == 0);  // too shallow to reduce
  // Never past the horizon: the reduced search keeps at least a ply above quiescence.
  for (int depth = 1; depth < 40; ++depth)
    for (std::size_t i = 0; i < 40; ++i) {
      INFO("depth " << depth << " move " << i);
      CHECK(depth - 1 - G::reduction(quiet, false, depth, i, false, kMany) >= 0);
    }
  // The table (whether or not the rule set uses it): more reduction for later moves and deeper
  // nodes, less at PV nodes, none for the first move, and always a ply above the horizon.
  using P = SearchParams<R>;
  for (int depth = 1; depth < 40; ++depth)
    for (std::size_t i = 0; i < 40; ++i) {
      INFO("depth " << depth << " move " << i);
      const int r = P::table_reduction(depth, i, false);
      CHECK(r >= 0);
      CHECK(depth - 1 - r >= 1 - (depth < 3 ? 1 : 0));
      CHECK(P::table_reduction(depth, i, true) <= r);
      CHECK(P::table_reduction(depth, i + 1, false) >= r);
      CHECK(P::table_reduction(depth + 1, i, false) >= r);
      if (i == 0) CHECK(r == 0);
    }
  CHECK(P::table_reduction(3, 1, false) == 1);
  CHECK(P::table_reduction(3, 1, true) == 0);
  CHECK(P::table_reduction(10, 20, false) == 3);
  // The rule set's rule in the middlegame; in the endings the table is not used: the plain rule.
  for (int depth = 1; depth < 40; ++depth)
    for (std::size_t i = 0; i < 40; ++i)
      for (bool pv : {false, true}) {
        INFO("depth " << depth << " move " << i << " pv " << pv);
        CHECK(P::reduction(depth, i, pv, kMany) == (P::kReductionTable
                                                        ? P::table_reduction(depth, i, pv)
                                                        : P::plain_reduction(depth, i, pv)));
        CHECK(P::reduction(depth, i, pv, P::kReductionTableMaxEndingPieces) ==
              P::plain_reduction(depth, i, pv));
      }
}

template <class R>
void check_singular_guards() {
  using G = Pruning<R>;
  using P = SearchParams<R>;
  const int d = P::kSingularMinDepth + 2;
  const int tt_depth = d - P::kSingularDepthSlack;
  // The search tries it only where the rule set switches it on.
  CHECK(G::singular(true, false, d, 10, 24, true, true, d, 0) == P::kSingular);
  // Not in the endings.
  CHECK_FALSE(G::singular(true, false, d, 10, P::kSingularMaxEndingPieces, true, true, d, 0));
  CHECK(G::singular(true, false, d, 10, P::kSingularMaxEndingPieces + 1, true, true, d, 0) ==
        P::kSingular);
  // A PV node with a deep enough lower-bound table move tries it.
  CHECK(G::singular_node(true, false, d, 10, true, true, tt_depth, 0));
  CHECK(G::singular_node(true, false, d, 10, true, true, d, -150));
  CHECK_FALSE(G::singular_node(false, false, d, 10, true, true, d, 0));  // not at non-PV nodes
  CHECK_FALSE(G::singular_node(true, true, d, 10, true, true, d, 0));    // a capture pending
  CHECK_FALSE(G::singular_node(true, false, d, 1, true, true, d, 0));    // a single move
  CHECK_FALSE(G::singular_node(true, false, P::kSingularMinDepth - 1, 10, true, true, d, 0));
  CHECK_FALSE(G::singular_node(true, false, d, 10, false, true, d, 0));            // no table move
  CHECK_FALSE(G::singular_node(true, false, d, 10, true, false, d, 0));            // an upper bound
  CHECK_FALSE(G::singular_node(true, false, d, 10, true, true, tt_depth - 1, 0));  // too shallow
  // Near a forced result.
  CHECK_FALSE(G::singular_node(true, false, d, 10, true, true, d, win_in(30)));
  CHECK_FALSE(G::singular_node(true, false, d, 10, true, true, d, loss_in(30)));
}

template <class R>
void check_late_move_guards() {
  using G = Pruning<R>;
  using P = SearchParams<R>;
  const Move quiet(10, 14, 0, false);
  const Move capture(10, 19, bit(14), false);
  const Move crowning(5, 1, 0, true);
  const std::size_t late = P::late_move_count(1);
  // The search prunes only where the rule set switches it on.
  CHECK(G::late_move_pruned(quiet, false, 1, late, false, 0) == P::kLateMovePruning);
  // A late quiet move at a shallow non-PV node is left out...
  CHECK(G::late_move_node(quiet, false, 1, late, false, 0));
  CHECK(G::late_move_node(quiet, false, 1, late + 5, false, -150));
  // ...but not the moves before it, at PV nodes, captures, crowning moves or killers.
  CHECK_FALSE(G::late_move_node(quiet, false, 1, late - 1, false, 0));
  CHECK_FALSE(G::late_move_node(quiet, false, 1, late, true, 0));
  CHECK_FALSE(G::late_move_node(capture, false, 1, late, false, 0));
  CHECK_FALSE(G::late_move_node(crowning, false, 1, late, false, 0));
  CHECK_FALSE(G::late_move_node(quiet, true, 1, late, false, 0));
  // Not deeper than its limit, nor at the horizon.
  CHECK_FALSE(G::late_move_node(quiet, false, P::kLateMoveMaxDepth + 1, 60, false, 0));
  CHECK_FALSE(G::late_move_node(quiet, false, 0, 60, false, 0));
  // Not while every move searched so far loses by force, or before any was searched.
  CHECK_FALSE(G::late_move_node(quiet, false, 1, late, false, loss_in(20)));
  CHECK_FALSE(G::late_move_node(quiet, false, 1, late, false, -kInfinity));
  // Deeper nodes search more moves before pruning.
  for (int depth = 2; depth <= P::kLateMoveMaxDepth; ++depth)
    CHECK(P::late_move_count(depth) > P::late_move_count(depth - 1));
}

// The guards razoring and reverse futility pruning share. rule: the switched form (with the
// pieces on the board), node: the same whether or not it is switched on; away: the sign of the
// bounds tried (-1: razoring's alpha, whose limit is near the losses; +1: reverse futility
// pruning's beta, near the wins).
template <class Rule, class Node, class Margin>
void check_static_value_guards(bool on, Rule rule, Node node, int max_depth, int ending_pieces,
                               Margin margin, int away) {
  const auto bound = [&](int s) { return static_cast<Score>(away * s); };
  // The search cuts only where the rule set switches the rule on, and not in the endings.
  CHECK(rule(false, false, 1, 10, 24, 0) == on);
  CHECK_FALSE(rule(false, false, 1, 10, ending_pieces, 0));
  CHECK(rule(false, false, 1, 10, ending_pieces + 1, 0) == on);
  // A quiet shallow non-PV node may be cut on its static value...
  for (int depth = 1; depth <= max_depth; ++depth) {
    CHECK(node(false, false, depth, 10, 0));
    CHECK(node(false, false, depth, 10, bound(300)));
    CHECK(margin(depth) > 0);
  }
  // ...but not a PV node, a node with a capture pending or a single move, a deeper node or
  // the horizon.
  CHECK_FALSE(node(true, false, 1, 10, 0));
  CHECK_FALSE(node(false, true, 1, 10, 0));
  CHECK_FALSE(node(false, false, 1, 1, 0));
  CHECK_FALSE(node(false, false, max_depth + 1, 10, 0));
  CHECK_FALSE(node(false, false, 0, 10, 0));
  // Not near a forced result, where the value and the margin would cross the win scores.
  CHECK_FALSE(node(false, false, 1, 10, loss_in(30)));
  CHECK_FALSE(node(false, false, 1, 10, win_in(30)));
  CHECK_FALSE(node(false, false, 1, 10, bound(kWinThreshold - margin(1))));
}

template <class R>
void check_razor_guards() {
  using G = Pruning<R>;
  using P = SearchParams<R>;
  check_static_value_guards(P::kRazoring, &G::razor, &G::razor_node, P::kRazorMaxDepth,
                            P::kRazorMaxEndingPieces, &P::razor_margin, -1);
}

template <class R>
void check_reverse_futility_guards() {
  using G = Pruning<R>;
  using P = SearchParams<R>;
  check_static_value_guards(P::kReverseFutility, &G::reverse_futility, &G::reverse_futility_node,
                            P::kReverseFutilityMaxDepth, P::kReverseFutilityMaxEndingPieces,
                            &P::reverse_futility_margin, 1);
}

}  // namespace

TEST_CASE("reverse futility pruning's guards", "[search][pruning]") {
  check_reverse_futility_guards<EnglishRules>();
  check_reverse_futility_guards<InternationalRules>();
}

TEST_CASE("razoring's guards", "[search][pruning]") {
  check_razor_guards<EnglishRules>();
  check_razor_guards<InternationalRules>();
}

TEST_CASE("late-move pruning's guards", "[search][pruning]") {
  check_late_move_guards<EnglishRules>();
  check_late_move_guards<InternationalRules>();
}

TEST_CASE("singular extension's guards", "[search][pruning]") {
  check_singular_guards<EnglishRules>();
  check_singular_guards<InternationalRules>();
}

TEST_CASE("ProbCut's guards", "[search][pruning]") {
  check_probcut_guards<EnglishRules>();
  check_probcut_guards<InternationalRules>();
}

TEST_CASE("late-move reductions' guards", "[search][pruning]") {
  check_reduction_guards<EnglishRules>();
  check_reduction_guards<InternationalRules>();
  // English reduces by the table (an SPRT in docs/search-tests.md), international by the plain
  // rule.
  CHECK(SearchParams<EnglishRules>::kReductionTable);
  CHECK_FALSE(SearchParams<InternationalRules>::kReductionTable);
}

TEST_CASE("a passed position shows what the opponent threatens", "[search][pruning]") {
  // White to move with no capture (13 is occupied, 18 is empty); Black threatens 17x26.
  const Position p = test::fen(Variant::English, "W:W22:B13,17");
  REQUIRE_FALSE(MoveGen<EnglishRules>::has_capture(p));
  const Position q = p.passed();
  CHECK(q.turn() == Side::Black);
  CHECK(q.key() == q.compute_key());
  CHECK(q.pieces(Side::White) == p.pieces(Side::White));
  CHECK(q.pieces(Side::Black) == p.pieces(Side::Black));
  CHECK(MoveGen<EnglishRules>::has_capture(q));
  CHECK(q.passed() == p);
  CHECK(q.passed().key() == p.key());
  // No threat: the men are apart.
  CHECK_FALSE(MoveGen<EnglishRules>::has_capture(test::fen(Variant::English, "W:W30:B5").passed()));
}
