#include "engine/position.hpp"

namespace tsuru {

Position Position::from_bitboards(Bitboard white, Bitboard black, Bitboard kings, Side turn) {
  Position p;
  p.side_[index(Side::White)] = white;
  p.side_[index(Side::Black)] = black;
  p.kings_ = kings & (white | black);
  p.turn_ = turn;
  p.key_ = p.compute_key();
  return p;
}

Key Position::compute_key() const {
  Key k = turn_ == Side::Black ? zobrist::black_to_move() : 0;
  for (Side s : {Side::White, Side::Black})
    for (Square sq : squares_of(side_[index(s)])) k ^= zobrist::piece(s, has(kings_, sq), sq);
  return k;
}

}  // namespace tsuru
