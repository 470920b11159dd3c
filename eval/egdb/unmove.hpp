// Quiet moves undone, for the generator's retrograde steps (generator.hpp): the placements of
// the mover's pieces (White's) one quiet move before a position. A king moved back along a
// diagonal (any number of empty squares where kings fly), a man one square back; for the rule
// sets with other lines (Thai, Turkish) a piece moved back against each of its trait's move
// directions.
#pragma once

#include <bit>
#include <cstddef>

#include "engine/rules/movegen.hpp"
#include "engine/rules/movegen_lines.hpp"
#include "eval/egdb/index.hpp"

namespace tsuru::egdb {

// The undone moves of the diagonal rule sets: mark(men, kings) for each placement of the
// mover's pieces one quiet move earlier.
template <class R, class Mark>
void unmove_diagonals(const Layout& layout, SquareSet mover_men, SquareSet mover_kings,
                      Bitboard occupied, const Mark& mark) {
  using G = typename R::Geometry;
  for (Square q_sq : squares_of(mover_kings)) {
    const Square b = layout.bit_of[static_cast<std::size_t>(q_sq)];
    for (Direction d :
         {Direction::UpLeft, Direction::UpRight, Direction::DownLeft, Direction::DownRight}) {
      for (Bitboard ray = G::ray(d, b); ray;) {
        const Square t = G::step(d) > 0 ? lsb(ray) : msb(ray);
        if (occupied & bit(t)) break;
        const SquareSet from = SquareSet{1} << layout.square_of[static_cast<std::size_t>(t)];
        mark(mover_men, (mover_kings & ~(SquareSet{1} << q_sq)) | from);
        if (!R::kFlyingKings) break;
        ray &= ~bit(t);
      }
    }
  }
  for (Square q_sq : squares_of(mover_men)) {
    const Square b = layout.bit_of[static_cast<std::size_t>(q_sq)];
    for (Direction d : {Direction::DownLeft, Direction::DownRight}) {
      const Bitboard ray = G::ray(d, b);
      if (!ray) continue;
      const Square t = lsb(ray);
      if (occupied & bit(t)) continue;
      const SquareSet from = SquareSet{1} << layout.square_of[static_cast<std::size_t>(t)];
      mark((mover_men & ~(SquareSet{1} << q_sq)) | from, mover_kings);
    }
  }
}

// The same for the line rule sets: a piece came from the other way along each direction it
// moves in (the mover is White: kManMoves[White] for its men).
template <class R, class Mark>
void unmove_lines(const Layout& layout, SquareSet mover_men, SquareSet mover_kings,
                  Bitboard occupied, const Mark& mark) {
  using L = typename R::Lines;
  const auto back = [&](unsigned directions, Square q_sq, bool slides, auto&& place) {
    const Square b = layout.bit_of[static_cast<std::size_t>(q_sq)];
    for (unsigned set = directions; set; set &= set - 1) {
      const int d = L::reverse(std::countr_zero(set));
      for (Bitboard ray = L::ray(d, b); ray;) {
        const Square t = L::nearest(ray, d);
        if (occupied & bit(t)) break;
        place(SquareSet{1} << layout.square_of[static_cast<std::size_t>(t)]);
        if (!slides) break;
        ray &= ~bit(t);
      }
    }
  };
  for (Square q_sq : squares_of(mover_kings))
    back(R::kKingMoves, q_sq, R::kFlyingKings,
         [&](SquareSet from) { mark(mover_men, (mover_kings & ~(SquareSet{1} << q_sq)) | from); });
  for (Square q_sq : squares_of(mover_men))
    back(R::kManMoves[static_cast<std::size_t>(index(Side::White))], q_sq, false,
         [&](SquareSet from) { mark((mover_men & ~(SquareSet{1} << q_sq)) | from, mover_kings); });
}

}  // namespace tsuru::egdb
