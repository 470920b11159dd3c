// Static evaluation of antidraughts, where the side that cannot move wins. Same units and view
// as eval.hpp (centi-men, side to move).
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

template <>
inline Score evaluate<AntidraughtsRules>(const Position& pos) {
  using E = Evaluator<AntidraughtsRules>;
  constexpr Weights W = weights<AntidraughtsRules>();
  const Bitboard empty = Board10::kValid & ~pos.occupied();
  const int wm = popcount(pos.men(Side::White)), bm = popcount(pos.men(Side::Black));
  const int wk = popcount(pos.kings(Side::White)), bk = popcount(pos.kings(Side::Black));
  Score score = -(W.man * (wm - bm) + W.king * (wk - bk));
  score -=
      W.mobility * (E::mobility(pos, Side::White, empty) - E::mobility(pos, Side::Black, empty));
  return pos.turn() == Side::White ? score : -score;
}

}  // namespace tsuru::eval
