// A board position: pieces of each side, kings, side to move and its Zobrist key.
// Positions are small and copied on every move (copy-make); the key is updated incrementally.
// Position knows no geometry: the rule set gives meaning to its bits.
#pragma once

#include "engine/move.hpp"
#include "engine/zobrist.hpp"

namespace tsuru {

class Position {
 public:
  Position() = default;
  static Position from_bitboards(Bitboard white, Bitboard black, Bitboard kings, Side turn);

  Bitboard pieces(Side s) const { return side_[index(s)]; }
  Bitboard men(Side s) const { return side_[index(s)] & ~kings_; }
  Bitboard kings(Side s) const { return side_[index(s)] & kings_; }
  Bitboard kings() const { return kings_; }
  Bitboard occupied() const { return side_[0] | side_[1]; }
  Side turn() const { return turn_; }
  Key key() const { return key_; }

  // The key computed from scratch; equals key() at all times (tested).
  Key compute_key() const;

  // Play a legal move in place. UpdateKey=false skips the hash (perft only).
  template <bool UpdateKey = true>
  void play(const Move& m) {
    const int us = index(turn_);
    const Side them = opponent(turn_);
    const Bitboard from = bit(m.from), to = bit(m.to);
    const bool was_king = (kings_ & from) != 0;
    if constexpr (UpdateKey) {
      key_ ^= zobrist::piece(turn_, was_king, m.from) ^
              zobrist::piece(turn_, was_king || m.crowns, m.to) ^ zobrist::black_to_move();
      for (Square sq : squares_of(m.captured)) key_ ^= zobrist::piece(them, has(kings_, sq), sq);
    }
    side_[us] ^= from ^ to;
    if (was_king)
      kings_ ^= from ^ to;
    else if (m.crowns)
      kings_ |= to;
    side_[index(them)] &= ~m.captured;
    kings_ &= ~m.captured;
    turn_ = them;
  }

  Position after(const Move& m) const {
    Position p = *this;
    p.play(m);
    return p;
  }

  // Same pieces and side to move (the key follows from these).
  friend bool operator==(const Position& a, const Position& b) {
    return a.side_[0] == b.side_[0] && a.side_[1] == b.side_[1] && a.kings_ == b.kings_ &&
           a.turn_ == b.turn_;
  }

 private:
  Bitboard side_[2] = {0, 0};
  Bitboard kings_ = 0;
  Key key_ = 0;
  Side turn_ = Side::White;
};

}  // namespace tsuru
