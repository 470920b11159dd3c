// Static evaluation of the losing games (kEndgames Losing: the rule sets where the side that
// cannot move wins), on any diagonal board. Same units and view as eval.hpp
// (centi-men, side to move).
//
// The classic terms with their sign turned where the goal turns them: every piece of one's own
// is a liability (a man costs weights.man, a king - hard to get rid of and with many moves -
// weights.king), and so is every quiet move one has (weights.mobility each): the fewer pieces
// and the fewer moves, the closer a side is to being unable to move. The normal game's
// positional terms (advancement, guards, runaways) and its endgame knowledge (which material
// can force a win) assume the normal goal and are left out.
#pragma once

#include "eval/eval.hpp"

namespace tsuru::eval {

template <class R>
class LosingEvaluator {
  using E = Evaluator<R>;
  using G = typename R::Geometry;
  static constexpr Weights W = weights<R>();

 public:
  static Score evaluate(const Position& pos) {
    const Bitboard empty = G::kValid & ~pos.occupied();
    const int wm = popcount(pos.men(Side::White)), bm = popcount(pos.men(Side::Black));
    const int wk = popcount(pos.kings(Side::White)), bk = popcount(pos.kings(Side::Black));
    Score score = -(W.man * (wm - bm) + W.king * (wk - bk));
    score -=
        W.mobility * (E::mobility(pos, Side::White, empty) - E::mobility(pos, Side::Black, empty));
    return pos.turn() == Side::White ? score : -score;
  }
};

}  // namespace tsuru::eval
