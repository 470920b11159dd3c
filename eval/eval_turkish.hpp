// Static evaluation of Turkish draughts: the generic evaluator assumes dark-square diagonals,
// so the orthogonal game on all 64 squares has its own. Same units and view as eval.hpp
// (centi-men, side to move).
//
// Terms: material; men's advancement by rank; central men; mobility (quiet moves); locked men
// (no empty square ahead or beside); runaway men (no enemy piece in their file or the files
// beside it further up the board); endgame knowledge: one piece each is a draw by rule, equal
// kings-only endings are drawish, and otherwise the stronger side's kings close in.
#pragma once

#include <cstdlib>

#include "engine/rules/movegen.hpp"
#include "eval/weights.hpp"

namespace tsuru::eval {

namespace turkish_detail {
struct Tables {
  // ahead[side][bit]: squares in the man's file and the files beside it, further up the board.
  std::array<std::array<Bitboard, 64>, 2> ahead{};
  Bitboard centre = 0;
};
constexpr Tables make_tables() {
  Tables t{};
  for (Square b = 0; b < 64; ++b) {
    const int r = b / 8, c = b % 8;
    if (r >= 2 && r <= 5 && c >= 2 && c <= 5) t.centre |= bit(b);
    for (Square o = 0; o < 64; ++o) {
      const int ro = o / 8, co = o % 8;
      if (co - c > 1 || c - co > 1) continue;
      if (ro < r) t.ahead[0][static_cast<std::size_t>(b)] |= bit(o);  // White moves up
      if (ro > r) t.ahead[1][static_cast<std::size_t>(b)] |= bit(o);
    }
  }
  return t;
}
inline constexpr Tables kTables = make_tables();
}  // namespace turkish_detail

class TurkishEvaluator {
  using G = SquareBoard8;
  using Gen = MoveGen<TurkishRules>;
  static constexpr Weights W = weights<TurkishRules>();

  static constexpr int row(Square b) { return b / 8; }
  static constexpr int col(Square b) { return b % 8; }

  static constexpr const auto& T = turkish_detail::kTables;

  // Ranks a man of side s has advanced from its start rank (0 on the start rank).
  static int advanced(Side s, Square b) { return s == Side::White ? 6 - row(b) : row(b) - 1; }

  static Score side_terms(const Position& pos, Side s, Bitboard empty) {
    const Bitboard men = pos.men(s), enemies = pos.pieces(opponent(s));
    Score score = 0;
    int moves = 0;
    Bitboard open = 0;  // squares next to an empty one in a man's directions
    for (int d : Gen::forward(s)) {
      moves += popcount(OrthogonalLines::step(men, d) & empty);
      open |= OrthogonalLines::step(empty, OrthogonalLines::reverse(d));
    }
    score -= W.locked * popcount(men & ~open);
    score += W.centre * popcount(men & T.centre);
    for (Square m : squares_of(men)) {
      const int k = std::max(0, advanced(s, m));
      score += W.advance[static_cast<std::size_t>(std::min(k, 9))];
      if (!(T.ahead[static_cast<std::size_t>(index(s))][static_cast<std::size_t>(m)] & enemies)) {
        const Score bonus = W.runaway + W.runaway_step * k;
        score += pos.kings(opponent(s)) ? bonus / 2 : bonus;
      }
    }
    for (Square k : squares_of(pos.kings(s))) moves += popcount(Gen::king_moves(k, empty));
    return score + W.mobility * moves;
  }

 public:
  // One piece each is a draw by rule.
  static bool one_piece_each(const Position& pos) {
    return popcount(pos.pieces(Side::White)) == 1 && popcount(pos.pieces(Side::Black)) == 1;
  }

  static Score evaluate(const Position& pos) {
    const Bitboard empty = ~pos.occupied();
    const int wm = popcount(pos.men(Side::White)), bm = popcount(pos.men(Side::Black));
    const int wk = popcount(pos.kings(Side::White)), bk = popcount(pos.kings(Side::Black));
    if (one_piece_each(pos)) return 0;
    const Score material = W.man * (wm - bm) + W.king * (wk - bk);
    Score score = material;
    score += side_terms(pos, Side::White, empty) - side_terms(pos, Side::Black, empty);
    const int traded = 32 - (wm + bm + wk + bk);
    if (traded > 0) score += material * W.trade_bonus * traded / 100;
    if (wm == 0 && bm == 0) {
      if (wk == bk) {
        score /= 8;
      } else {
        // The stronger side's kings close in on the others (rook distance).
        const Side strong = wk > bk ? Side::White : Side::Black;
        int total = 0;
        for (Square a : squares_of(pos.kings(strong)))
          for (Square b : squares_of(pos.kings(opponent(strong))))
            total += std::min(std::abs(row(a) - row(b)), std::abs(col(a) - col(b)));
        const Score chase = W.king_chase * total;
        score += strong == Side::White ? -chase : chase;
      }
    }
    return pos.turn() == Side::White ? score : -score;
  }
};

}  // namespace tsuru::eval
