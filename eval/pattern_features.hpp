// The features of the pattern evaluation, shared by the evaluation (pattern.hpp) and the trainer
// (tools/train/trainer.cpp), always from the side to move's point of view. The windows and their
// indices are in pattern_layout.hpp.
//
// Groups (one weight each per phase; weights in pattern_weights.hpp):
//   men windows    each region's men state (3^8), kings seen as empty squares;
//   wide windows   each wide window's men state (3^12), likewise (pattern_layout.hpp), where
//                  the weights have them;
//   king windows   each region that holds a king: its king state (5^8), a weight shared by all
//                  regions plus one of the region's own, added to the men window's;
//   king squares   each king, by its square (own kings and the other side's apart);
//   linear terms   men and kings (own minus other's), tempo (rows advanced by own men minus the
//                  other side's), each side's balance (men on the left half against the right,
//                  as an absolute difference), each side's king moves and kings with no move,
//                  and "the move" of king endings: with as many pieces on each side and kings on
//                  both, the parity of the pieces in the side to move's even columns (+1 odd,
//                  -1 even), so that the opposition can be learned.
// The phase is the number of pieces on the board: all of them weigh the opening set, none the
// endgame set, linearly between.
//
// Colour symmetry by construction: a position and its colour-reversed copy (board turned round,
// colours swapped, the other side to move) have the same features.
#pragma once

#include <algorithm>
#include <array>

#include "engine/rules/movegen.hpp"
#include "eval/pattern_layout.hpp"

namespace tsuru::eval {

inline constexpr int kPhases = 2;  // 0 = opening set, 1 = endgame set

enum Linear : int {
  kMen,
  kKings,
  kTempo,
  kOwnBalance,
  kOtherBalance,
  kOwnKingMoves,
  kOtherKingMoves,
  kOwnTrappedKings,
  kOtherTrappedKings,
  kMove,
  kLinearCount
};
// The linear terms of the first weights format (men only), the first of the list.
inline constexpr int kV1LinearCount = 5;

// Pieces at the start of the game: the phase's full opening weight.
template <class R>
inline constexpr int kStartPieces = 2 * R::kStartRows* R::Geometry::kPerRow;

// Calls, for each feature of pos: v.men(j, state) for every region; v.wide(j, state) for every
// wide window when v.wide_windows() is true; v.king_window(j, state) for
// every region holding a king; v.king_square(other, square) for every king (other = 0 for the
// side to move's, 1 for the other side's; the square as the side to move sees the board); and
// v.linear(term, value) for every linear term that is not zero.
template <class R, class V>
inline void visit_features(const Position& pos, V&& v) {
  using G = typename R::Geometry;
  using L = PatternLayout<G>;
  const Side us = pos.turn(), them = opponent(us);
  const bool black = us == Side::Black;
  const Sides s{pos.men(us), pos.men(them), pos.kings(us), pos.kings(them)};
  for (int j = 0; j < L::kRegions; ++j) v.men(j, region_state<G>(s.own_men, s.other_men, j, black));
  if constexpr (WideLayout<G>::kWindows > 0)
    if (v.wide_windows())
      for (int j = 0; j < WideLayout<G>::kWindows; ++j)
        v.wide(j, wide_state<G>(s.own_men, s.other_men, j, black));
  auto linear = [&](Linear k, int x) {
    if (x) v.linear(k, x);
  };
  linear(kMen, popcount(s.own_men) - popcount(s.other_men));
  linear(kTempo, tempo<G>(s.own_men, black) - tempo<G>(s.other_men, !black));
  // Left and right as the side to move sees them: turning the board swaps them, and the
  // absolute difference does not care.
  linear(kOwnBalance, balance<G>(s.own_men));
  linear(kOtherBalance, balance<G>(s.other_men));
  if (!(s.own_kings | s.other_kings)) return;

  linear(kKings, popcount(s.own_kings) - popcount(s.other_kings));
  for (int j = 0; j < L::kRegions; ++j)
    if (const int k = king_region_state<G>(s, j, black); k >= 0) v.king_window(j, k);
  const auto& square_of = L::kSquareOf[black];
  const Bitboard empty = G::kValid & ~pos.occupied();
  // A king with no empty neighbour has no move, flying or not; short kings' moves are their
  // empty neighbours, counted a direction at a time. Neighbours are diagonal, or orthogonal on
  // Turkish draughts' board.
  Bitboard free = 0;
  if constexpr (kDiagonalBoard<G>) {
    for (Direction d : movegen_detail::kAllDirections) free |= shift(empty, -G::step(d));
  } else {
    static_assert(R::kFlyingKings, "the square board's king moves are counted for flying kings");
    for (int d = 0; d < 4; ++d) free |= OrthogonalLines::step(empty, OrthogonalLines::reverse(d));
  }
  int moves[2] = {0, 0}, trapped[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    const Bitboard kings = side == 0 ? s.own_kings : s.other_kings;
    trapped[side] = popcount(kings & ~free);
    for (Square k : squares_of(kings)) {
      v.king_square(side, square_of[static_cast<std::size_t>(k)]);
      if constexpr (R::kFlyingKings) moves[side] += popcount(MoveGen<R>::king_moves(k, empty));
    }
    if constexpr (!R::kFlyingKings)
      for (Direction d : movegen_detail::kAllDirections)
        moves[side] += popcount(shift(kings, G::step(d)) & empty);
  }
  linear(kOwnKingMoves, moves[0]);
  linear(kOtherKingMoves, moves[1]);
  linear(kOwnTrappedKings, trapped[0]);
  linear(kOtherTrappedKings, trapped[1]);
  if (s.own_kings && s.other_kings &&
      popcount(s.own_men | s.own_kings) == popcount(s.other_men | s.other_kings)) {
    // With as many pieces on each side the odd columns hold as many pieces as the even ones,
    // modulo 2: one parity says it all.
    const Bitboard even = black ? G::kValid & ~L::kEvenColumns : L::kEvenColumns;
    linear(kMove, popcount(pos.occupied() & even) % 2 ? 1 : -1);
  }
}

// The share of the opening set in pos's score.
template <class R>
inline double opening_share(const Position& pos) {
  constexpr int n = kStartPieces<R>;
  return static_cast<double>(std::min(popcount(pos.occupied()), n)) / n;
}

// Every feature of a position, for the tests (the evaluation and the trainer visit them).
struct Features {
  int regions = 0;
  std::array<int, kMaxRegions> state{};
  std::array<int, kMaxRegions> king_state{};  // -1 where the region holds no king
  int wide = 0;
  std::array<int, kMaxWide> wide_state{};
  // kings_on[other][square]: kings on each square (0 or 1)
  std::array<std::array<int, kMaxSquares>, 2> kings_on{};
  std::array<int, kLinearCount> linear{};
  int pieces = 0;      // pieces on the board (the phase)
  int max_pieces = 1;  // at the start; the opening set weighs pieces / max_pieces
  friend bool operator==(const Features&, const Features&) = default;
};

template <class R>
Features features(const Position& pos) {
  Features f;
  f.regions = PatternLayout<typename R::Geometry>::kRegions;
  f.king_state.fill(-1);
  f.wide = WideLayout<typename R::Geometry>::kWindows;
  struct Collect {
    Features& f;
    static bool wide_windows() { return true; }
    void men(int j, int s) { f.state[static_cast<std::size_t>(j)] = s; }
    void wide(int j, int s) { f.wide_state[static_cast<std::size_t>(j)] = s; }
    void king_window(int j, int s) { f.king_state[static_cast<std::size_t>(j)] = s; }
    void king_square(int other, int sq) {
      ++f.kings_on[static_cast<std::size_t>(other)][static_cast<std::size_t>(sq)];
    }
    void linear(int k, int x) { f.linear[static_cast<std::size_t>(k)] = x; }
  };
  visit_features<R>(pos, Collect{f});
  f.max_pieces = kStartPieces<R>;
  f.pieces = std::min(popcount(pos.occupied()), kStartPieces<R>);
  return f;
}

}  // namespace tsuru::eval
