// The pattern evaluation: learned weights over the features of pattern_features.hpp, the
// opening and endgame sets blended by the number of pieces on the board, then the classic
// evaluation's endgame knowledge (lone kings: eval.hpp, eval_variants.hpp) applied on top rather
// than learned; positions of kings only are the classic evaluation's. From the side to move's
// point of view.
//
// evaluate<R>(pos, weights) is what the search calls: null weights mean the classic hand-set
// evaluation (eval.hpp), which stays selectable for comparison (`eval-file` empty).
#pragma once

#include <algorithm>

#include "engine/rules/score.hpp"
#include "eval/eval.hpp"
#include "eval/pattern_features.hpp"
#include "eval/pattern_weights.hpp"

namespace tsuru::eval {

template <class R>
class PatternEvaluator {
  using G = typename R::Geometry;
  using L = PatternLayout<G>;

 public:
  // The blended score before endgame knowledge, side to move's view, in quarter centi-men.
  static int raw(const Position& pos, const PatternWeights& w) {
    const Side us = pos.turn(), them = opponent(us);
    const bool black = us == Side::Black;
    const Bitboard own = pos.men(us), other = pos.men(them);
    int open = 0, end = 0;
    const std::int16_t* table = w.region.data();
    for (int j = 0; j < L::kRegions; ++j) {
      const std::int16_t* e =
          table + (j * kRegionStates + region_state<G>(own, other, j, black)) * kPhases;
      open += e[0];
      end += e[1];
    }
    std::array<int, kLinearCount> x{};
    x[kMen] = popcount(own) - popcount(other);
    x[kKings] = popcount(pos.kings(us)) - popcount(pos.kings(them));
    x[kTempo] = tempo<G>(own, black) - tempo<G>(other, !black);
    x[kOwnBalance] = balance<G>(own);
    x[kOtherBalance] = balance<G>(other);
    for (std::size_t k = 0; k < kLinearCount; ++k) {
      open += w.linear[0][k] * x[k];
      end += w.linear[1][k] * x[k];
    }
    constexpr int n = kStartPieces<R>;
    const int pieces = std::min(popcount(pos.occupied()), n);
    return (open * pieces + end * (n - pieces)) / n;
  }

  static Score evaluate(const Position& pos, const PatternWeights& w) {
    // Kings only: the regions see men alone, so nothing was learned there that the classic
    // evaluation's king terms (mobility, the long diagonal, closing in) do not know better;
    // without them two English kings never trap a lone one.
    if (!(pos.occupied() & ~pos.kings())) return eval::evaluate<R>(pos);
    constexpr Score bound = kWinThreshold - 1;
    const Score score = std::clamp(raw(pos, w) / kWeightScale, -bound, bound);
    const bool black = pos.turn() == Side::Black;
    const Score white = EndgameOf<R>::apply(pos, black ? -score : score);
    return black ? -white : white;
  }
};

// The evaluation the search uses: the pattern weights when given, else the classic one.
template <class R>
Score evaluate(const Position& pos, const PatternWeights* weights) {
  if constexpr (kPatternRules<R>) {
    if (weights) return PatternEvaluator<R>::evaluate(pos, *weights);
  }
  return evaluate<R>(pos);
}

}  // namespace tsuru::eval
