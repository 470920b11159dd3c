// The pattern evaluation: learned weights over the features of pattern_features.hpp, the
// opening and endgame sets blended by the number of pieces on the board, then the classic
// evaluation's endgame knowledge (lone kings: eval.hpp, eval_variants.hpp; none in the losing
// games) applied on top rather than learned; positions of kings only are the classic
// evaluation's unless the weights were trained on them. From the side to move's point of view.
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
  // Sums the weights of the features visited (pattern_features.hpp), per phase.
  struct Sum {
    const PatternWeights& w;
    int open = 0, end = 0;
    void add(const std::int16_t* e) {
      open += e[0];
      end += e[1];
    }
    bool wide_windows() const { return !w.wide.empty(); }
    void wide(int j, int s) {
      add(w.wide.data() +
          (static_cast<std::size_t>(j) * kWideStates + static_cast<std::size_t>(s)) * kPhases);
    }
    void men(int j, int s) {
      add(w.region.data() +
          (static_cast<std::size_t>(j) * kRegionStates + static_cast<std::size_t>(s)) * kPhases);
    }
    void king_window(int j, int s) {
      add(w.king_shared.data() + static_cast<std::size_t>(s) * kPhases);
      if (!w.king_region.empty())
        add(w.king_region.data() +
            (static_cast<std::size_t>(j) * kKingStates + static_cast<std::size_t>(s)) * kPhases);
    }
    void king_square(int other, int sq) {
      add(w.king_square.data() + (static_cast<std::size_t>(other * w.squares + sq)) * kPhases);
    }
    void linear(int k, int x) {
      open += w.linear[0][static_cast<std::size_t>(k)] * x;
      end += w.linear[1][static_cast<std::size_t>(k)] * x;
    }
  };

 public:
  // The blended score before endgame knowledge, side to move's view, in quarter centi-men.
  static int raw(const Position& pos, const PatternWeights& w) {
    Sum sum{w};
    visit_features<R>(pos, sum);
    constexpr int n = kStartPieces<R>;
    const int pieces = std::min(popcount(pos.occupied()), n);
    return (sum.open * pieces + sum.end * (n - pieces)) / n;
  }

  static Score evaluate(const Position& pos, const PatternWeights& w) {
    // Kings only: weights that were not trained there (the first format's, men windows only)
    // know nothing the classic evaluation's king terms (mobility, the long diagonal, closing
    // in) do not know better. The endgame knowledge below pulls the stronger side in either way.
    if (!w.kings_only && !(pos.occupied() & ~pos.kings())) return eval::evaluate<R>(pos);
    constexpr Score bound = kWinThreshold - 1;
    // A correction to the classic evaluation: added to its score, endgame knowledge included.
    if (w.on_classic)
      return std::clamp(eval::evaluate<R>(pos) + raw(pos, w) / kWeightScale, -bound, bound);
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
