// Evaluation of the diagonal rule sets whose endgames differ from the FMJD ones the generic
// evaluator knows (eval.hpp scores up to two pieces against a lone flying king as a draw, and
// three while the lone king stands on the long diagonal, which holds on 10x10 only). The trait's
// kEndgames (engine/rules/rules.hpp) chooses:
//   - Flying8, 8x8 flying kings (Brazilian, Russian, pool, Czech, Spanish): two pieces cannot
//     catch a lone king, three can unless it holds the long diagonal (and the stronger side has
//     no piece on it);
//   - OnePieceDraws: Thai and Killer kings are easier to catch: two kings take a lone one
//     (mindsports); Frisian: two kings against one is won only sometimes (hence its seven-move
//     limit).
// Everything else is the generic evaluator's terms, with the rule set's weights.
#pragma once

#include "eval/eval.hpp"

namespace tsuru::eval {

// DrawishUpTo: the most pieces that cannot beat a lone king; Fortress: three pieces cannot
// either while the lone king holds the long diagonal.
template <class R, int DrawishUpTo, bool Fortress>
class LoneKingEvaluator {
  using E = Evaluator<R>;
  using G = typename R::Geometry;

 public:
  // Endgame knowledge applied to a White-view score.
  static Score endgame(const Position& pos, Score score) {
    const int wm = popcount(pos.men(Side::White)), bm = popcount(pos.men(Side::Black));
    const int wk = popcount(pos.kings(Side::White)), bk = popcount(pos.kings(Side::Black));
    for (Side weak : {Side::White, Side::Black}) {
      if (pos.pieces(weak) != pos.kings(weak) || popcount(pos.pieces(weak)) != 1) continue;
      const Side strong = opponent(weak);
      const int n = popcount(pos.pieces(strong));
      if (n <= DrawishUpTo) return score / 16;
      if (Fortress && n == 3 && (pos.pieces(weak) & G::kLongDiagonal) &&
          !(pos.pieces(strong) & G::kLongDiagonal))
        return score / 16;
    }
    if (wm == 0 && bm == 0) {
      if (wk == bk) return score / 8;
      score += E::king_chase(pos, wk > bk ? Side::White : Side::Black);
    }
    return score;
  }

  // As Evaluator<R>::evaluate, with this endgame knowledge.
  static Score evaluate(const Position& pos) {
    const Score score = endgame(pos, E::base(pos));
    return pos.turn() == Side::White ? score : -score;
  }
};

}  // namespace tsuru::eval
