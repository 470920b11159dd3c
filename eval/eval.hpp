// Static evaluation, templated on the rule set, from the side to move's point of view.
//
// Terms (weights in weights.hpp): material; men's advancement; central men; back-row guards;
// mobility; locked men; runaway men (no enemy piece can reach the path to the crowning row);
// kings on the long diagonal; and endgame knowledge against a lone king (no other piece on its
// side), as the trait's kEndgames states (engine/rules/rules.hpp): with short kings (ShortKings),
// one piece against it scores as a draw; with flying kings on 10x10 (Flying10), one or two pieces
// against it, or three when the lone king stands on the long diagonal, score as a draw, and
// three against it off the long diagonal keep a quarter of their score (the 16-move limit
// leaves them little time). Kings alone in equal numbers score as a draw; in other king endings
// the stronger side is pulled towards the defending kings so the win is converted. The other
// kinds of kEndgames have their evaluators in the headers included at the end; evaluate<R>
// (at the end) picks the trait's.
#pragma once

#include <array>
#include <concepts>
#include <cstdlib>
#include <type_traits>

#include "engine/rules/movegen.hpp"
#include "eval/weights.hpp"

namespace tsuru::eval {

template <class G>
struct Tables {
  // rows_ahead[side][k]: the squares k rows in front of side's own back row.
  std::array<std::array<Bitboard, 10>, 2> rows_ahead{};
  Bitboard centre = 0;
  // cone[side][bit]: squares from which an enemy piece could stop a man on `bit` crowning.
  std::array<std::array<Bitboard, 64>, 2> cone{};
  std::array<std::int8_t, 64> row{}, col{};
};

template <class G>
constexpr Tables<G> make_tables() {
  Tables<G> t{};
  for (int sq = 0; sq < G::kSquares; ++sq) {
    const Square b = G::square_bit(sq);
    const int r = G::row_of_square(sq), c = G::col_of_square(sq);
    t.row[static_cast<std::size_t>(b)] = static_cast<std::int8_t>(r);
    t.col[static_cast<std::size_t>(b)] = static_cast<std::int8_t>(c);
    // White's back row is the bottom row (G::kRows - 1), Black's the top row.
    t.rows_ahead[0][static_cast<std::size_t>(G::kRows - 1 - r)] |= bit(b);
    t.rows_ahead[1][static_cast<std::size_t>(r)] |= bit(b);
    if (r >= G::kRows / 2 - 1 && r <= G::kRows / 2 && c >= 2 && c <= G::kCols - 3)
      t.centre |= bit(b);
  }
  for (int sq = 0; sq < G::kSquares; ++sq) {
    const Square b = G::square_bit(sq);
    const int r = G::row_of_square(sq), c = G::col_of_square(sq);
    for (int other = 0; other < G::kSquares; ++other) {
      const int r2 = G::row_of_square(other), c2 = G::col_of_square(other);
      const int dc = c2 > c ? c2 - c : c - c2;
      // White moves up (towards row 0): the cone lies in rows above, widening by one each row,
      // plus one column of slack for pieces that step into it.
      if (r2 < r && dc <= r - r2 + 1)
        t.cone[0][static_cast<std::size_t>(b)] |= bit(G::square_bit(other));
      if (r2 > r && dc <= r2 - r + 1)
        t.cone[1][static_cast<std::size_t>(b)] |= bit(G::square_bit(other));
    }
  }
  return t;
}

template <class G>
inline constexpr Tables<G> kTables = make_tables<G>();

template <class R>
class Evaluator {
  using G = typename R::Geometry;
  static constexpr Weights W = weights<R>();
  static constexpr const Tables<G>& T = kTables<G>;

 public:
  // Quiet moves available to side s (men forward, kings anywhere).
  static int mobility(const Position& pos, Side s, Bitboard empty) {
    int n = 0;
    for (Direction d : MoveGen<R>::forward(s)) n += popcount(shift(pos.men(s), G::step(d)) & empty);
    if constexpr (R::kFlyingKings) {
      for (Square k : squares_of(pos.kings(s))) n += popcount(MoveGen<R>::king_moves(k, empty));
    } else {
      for (Direction d : movegen_detail::kAllDirections)
        n += popcount(shift(pos.kings(s), G::step(d)) & empty);
    }
    return n;
  }

  // Positional terms of one side (material excluded).
  static Score side_terms(const Position& pos, Side s, Bitboard empty) {
    const int i = index(s);
    const Side o = opponent(s);
    const Bitboard men = pos.men(s), kings = pos.kings(s);
    Score score = 0;
    for (std::size_t k = 1; k + 1 < static_cast<std::size_t>(G::kRows); ++k)
      score += W.advance[k] * popcount(men & T.rows_ahead[static_cast<std::size_t>(i)][k]);
    score += W.centre * popcount(men & T.centre);
    // Back-row guards matter while the opponent still has men to crown.
    if (pos.men(o))
      score += W.back_guard * popcount(men & T.rows_ahead[static_cast<std::size_t>(i)][0]);
    // Locked men: no empty square ahead of them.
    Bitboard free_ahead = 0;
    for (Direction d : MoveGen<R>::forward(s)) free_ahead |= shift(empty, -G::step(d));
    score -= W.locked * popcount(men & ~free_ahead);
    // Runaway men.
    const Bitboard enemies = pos.pieces(o);
    for (Square m : squares_of(men)) {
      if (T.cone[static_cast<std::size_t>(i)][static_cast<std::size_t>(m)] & enemies) continue;
      const int row = T.row[static_cast<std::size_t>(m)];
      const int advanced = s == Side::White ? G::kRows - 1 - row : row;
      const Score bonus = W.runaway + W.runaway_step * advanced;
      score += pos.kings(o) ? bonus / 2 : bonus;
    }
    if constexpr (R::kFlyingKings) {
      score += W.king_diagonal * popcount(kings & G::kLongDiagonal);
    } else {
      score += W.king_diagonal * popcount(kings & T.centre);
    }
    return score;
  }

  static int distance(Square a, Square b) {
    const int dr =
        std::abs(T.row[static_cast<std::size_t>(a)] - T.row[static_cast<std::size_t>(b)]);
    const int dc =
        std::abs(T.col[static_cast<std::size_t>(a)] - T.col[static_cast<std::size_t>(b)]);
    return dr > dc ? dr : dc;
  }

  // A drawn ending keeps only a hint of who is better, to break ties.
  static Score drawn(Score score) { return score / 100; }

  // Endgame knowledge applied to a White-view score.
  static Score endgame(const Position& pos, Score score) {
    const int wm = popcount(pos.men(Side::White)), bm = popcount(pos.men(Side::Black));
    const int wk = popcount(pos.kings(Side::White)), bk = popcount(pos.kings(Side::Black));
    // Material that cannot win against a lone king (any pieces, men or kings, count). Flying
    // kings: up to two pieces score as a draw, and three too while the lone king stands on the
    // long diagonal (wherever the stronger side's pieces are); three against a lone king off it
    // keep a quarter of their score. Short kings: one piece against a lone king scores as a draw.
    for (Side weak : {Side::White, Side::Black}) {
      const bool lone = weak == Side::White ? (wm == 0 && wk == 1) : (bm == 0 && bk == 1);
      if (!lone) continue;
      const int strong_pieces = weak == Side::White ? bm + bk : wm + wk;
      if constexpr (R::kEndgames == Endgames::Flying10) {
        const bool holds_diagonal = (pos.kings(weak) & G::kLongDiagonal) != 0;
        if (strong_pieces <= 2 || (strong_pieces == 3 && holds_diagonal)) return drawn(score);
        if (strong_pieces == 3) return score / 4;
      } else {
        if (strong_pieces <= 1) return drawn(score);
      }
    }
    // Kings only: equal numbers are a draw; otherwise the stronger side closes in.
    if (wm == 0 && bm == 0) {
      if (wk == bk) return drawn(score);
      score += king_chase(pos, wk > bk ? Side::White : Side::Black);
    }
    return score;
  }

  // Kings only, the stronger side ahead: the White-view reward for closing in (the sum of the
  // distances between its kings and the other side's, as a penalty).
  static Score king_chase(const Position& pos, Side strong) {
    int total = 0;
    for (Square a : squares_of(pos.kings(strong)))
      for (Square b : squares_of(pos.kings(opponent(strong)))) total += distance(a, b);
    const Score chase = W.king_chase * total;
    return strong == Side::White ? -chase : chase;
  }

  // The White-view score before endgame knowledge: material, each side's terms, mobility, and
  // the trading bonus.
  static Score base(const Position& pos) {
    const Bitboard empty = G::kValid & ~pos.occupied();
    const int wm = popcount(pos.men(Side::White)), bm = popcount(pos.men(Side::Black));
    const int wk = popcount(pos.kings(Side::White)), bk = popcount(pos.kings(Side::Black));
    const Score material = W.man * (wm - bm) + W.king * (wk - bk);
    Score score = material;
    score += side_terms(pos, Side::White, empty) - side_terms(pos, Side::Black, empty);
    score += W.mobility * (mobility(pos, Side::White, empty) - mobility(pos, Side::Black, empty));
    // When ahead, trading pieces brings the win closer.
    const int traded = 2 * R::kStartRows * G::kPerRow - (wm + bm + wk + bk);
    if (traded > 0) score += material * W.trade_bonus * traded / 100;
    return score;
  }

  // The score from the side to move's point of view.
  static Score evaluate(const Position& pos) {
    const Score score = endgame(pos, base(pos));
    return pos.turn() == Side::White ? score : -score;
  }
};

}  // namespace tsuru::eval

// Turkish draughts has its own evaluator (orthogonal moves on all 64 squares).
#include "eval/eval_turkish.hpp"  // IWYU pragma: export
// The diagonal rule sets whose lone-king endgames differ from the FMJD ones.
#include "eval/eval_variants.hpp"  // IWYU pragma: export
// The losing games: the side that cannot move wins, so material and mobility count against.
#include "eval/eval_antidraughts.hpp"  // IWYU pragma: export

namespace tsuru::eval {

// Checks a trait's kEndgames against its rules: a trait without one does not compile, and one
// taken over from a trait of another board (an 8x8 rule set derived from international) fails
// here rather than scoring its endgames as 10x10 ones.
template <class R>
constexpr bool endgames_fit_rules() {
  using G = typename R::Geometry;
  switch (R::kEndgames) {
    case Endgames::Flying10:
      return std::is_same_v<G, Board10> && R::kFlyingKings && !R::kNoMoveWins;
    case Endgames::ShortKings:
      return !std::is_same_v<G, SquareBoard8> && !R::kFlyingKings && !R::kNoMoveWins;
    case Endgames::Flying8:
      return std::is_same_v<G, Board8> && R::kFlyingKings && !R::kNoMoveWins;
    case Endgames::OnePieceDraws:
      return !std::is_same_v<G, SquareBoard8> && R::kFlyingKings && !R::kNoMoveWins;
    case Endgames::Turkish:
      return std::is_same_v<G, SquareBoard8> && !R::kNoMoveWins;
    case Endgames::Losing:
      return R::kNoMoveWins && !std::is_same_v<G, SquareBoard8>;
  }
  return false;
}

template <class R>
concept StatesEndgames = requires {
  { R::kEndgames } -> std::convertible_to<Endgames>;
};

// The static evaluation of rule set R, chosen by what its trait states.
template <class R>
Score evaluate(const Position& pos) {
  static_assert(StatesEndgames<R>,
                "the rule set's trait must state kEndgames (engine/rules/rules.hpp, docs/rules.md "
                "\"Adding a rule set\")");
  static_assert(
      endgames_fit_rules<R>(),
      "the trait's kEndgames does not fit its board, kings or goal (engine/rules/rules.hpp)");
  if constexpr (R::kEndgames == Endgames::Losing) {
    return LosingEvaluator<R>::evaluate(pos);
  } else if constexpr (R::kEndgames == Endgames::Turkish) {
    return TurkishEvaluator::evaluate(pos);
  } else if constexpr (R::kEndgames == Endgames::Flying8) {
    return LoneKingEvaluator<R, 2, true>::evaluate(pos);
  } else if constexpr (R::kEndgames == Endgames::OnePieceDraws) {
    return LoneKingEvaluator<R, 1, false>::evaluate(pos);
  } else {
    return Evaluator<R>::evaluate(pos);
  }
}

// The endgame knowledge of each rule set (applied to a White-view score), for the pattern
// evaluation (pattern.hpp), which keeps it rather than learning it. The losing games have none
// to keep: which material wins assumes the normal goal (eval_antidraughts.hpp). Turkish keeps
// its one rule that holds with men on the board: one piece each is a draw.
template <class R>
struct EndgameOf {
  static Score apply([[maybe_unused]] const Position& pos, Score white) {
    if constexpr (R::kEndgames == Endgames::Losing)
      return white;
    else if constexpr (R::kEndgames == Endgames::Turkish)
      return TurkishEvaluator::one_piece_each(pos) ? 0 : white;
    else if constexpr (R::kEndgames == Endgames::Flying8)
      return LoneKingEvaluator<R, 2, true>::endgame(pos, white);
    else if constexpr (R::kEndgames == Endgames::OnePieceDraws)
      return LoneKingEvaluator<R, 1, false>::endgame(pos, white);
    else
      return Evaluator<R>::endgame(pos, white);
  }
};

}  // namespace tsuru::eval
