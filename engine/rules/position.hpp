// A board position: pieces of each side, kings, side to move and its Zobrist key.
// Positions are small and copied on every move (copy-make); the key is updated incrementally.
// Position knows no geometry: the rule set gives meaning to its bits.
//
// Frisian rules limit a king to three quiet moves in a row, which makes the legal moves depend
// on history. A position created with king-run tracking (only Frisian ones are) carries, per
// side, the king that has been moving and how many quiet moves it made; the count is part of
// the position (equality and key). Every other position leaves it at zero: one predictable
// branch in play().
#pragma once

#include "engine/rules/move.hpp"
#include "engine/rules/zobrist.hpp"

namespace tsuru {

// The king of one side that made `count` non-capturing moves in a row (count 0: none).
struct KingRun {
  Square square = 0;
  int count = 0;
  friend bool operator==(const KingRun&, const KingRun&) = default;
};

class Position {
 public:
  Position() = default;
  // track_king_runs: count each side's consecutive quiet king moves (Frisian).
  static Position from_bitboards(Bitboard white, Bitboard black, Bitboard kings, Side turn,
                                 bool track_king_runs = false);
  // The same without the hash key (left 0), for code that never reads keys and plays moves
  // with after<false> (the endgame database generator: several positions per index).
  static Position unkeyed(Bitboard white, Bitboard black, Bitboard kings, Side turn);

  Bitboard pieces(Side s) const { return side_[index(s)]; }
  Bitboard men(Side s) const { return side_[index(s)] & ~kings_; }
  Bitboard kings(Side s) const { return side_[index(s)] & kings_; }
  Bitboard kings() const { return kings_; }
  Bitboard occupied() const { return side_[0] | side_[1]; }
  Side turn() const { return turn_; }
  Key key() const { return key_; }
  bool tracks_king_runs() const { return track_runs_; }
  KingRun king_run(Side s) const { return {run_square_[index(s)], run_count_[index(s)]}; }
  // Sets a side's run (a set-up position, or tests); ignored unless runs are tracked.
  void set_king_run(Side s, KingRun run);

  // The key computed from scratch; equals key() at all times (tested).
  Key compute_key() const;

  // Play a legal move in place. UpdateKey=false skips the hash (perft, the endgame generator).
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
    // Captured pieces go first: where they leave at once (Thai, Turkish), a capture may end on
    // the square of a piece it took earlier in the same move.
    side_[index(them)] &= ~m.captured;
    kings_ &= ~m.captured;
    side_[us] ^= from ^ to;
    if (was_king)
      kings_ ^= from ^ to;
    else if (m.crowns)
      kings_ |= to;
    turn_ = them;
    if (track_runs_) [[unlikely]]
      update_king_runs<UpdateKey>(m, was_king);
  }

  // The same pieces with the other side to move (a null move): what the opponent threatens.
  Position passed() const {
    Position p = *this;
    p.turn_ = opponent(turn_);
    p.key_ ^= zobrist::black_to_move();
    return p;
  }

  template <bool UpdateKey = true>
  Position after(const Move& m) const {
    Position p = *this;
    p.template play<UpdateKey>(m);
    return p;
  }

  // Same pieces, side to move and king runs (the key follows from these).
  friend bool operator==(const Position& a, const Position& b) {
    return a.side_[0] == b.side_[0] && a.side_[1] == b.side_[1] && a.kings_ == b.kings_ &&
           a.turn_ == b.turn_ && a.run_count_[0] == b.run_count_[0] &&
           a.run_count_[1] == b.run_count_[1] && a.run_square_[0] == b.run_square_[0] &&
           a.run_square_[1] == b.run_square_[1];
  }

 private:
  // After m (the board updated and the turn passed): a quiet king move extends its side's run
  // (or starts one for another king); a man move or any capture ends it; a side whose run king
  // was captured, or that has no man left (the limit applies only while it has men), has none.
  // Out of line and cold, so that play() stays as lean as before where runs are not tracked.
  template <bool UpdateKey>
  [[gnu::cold]] void update_king_runs(const Move& m, bool was_king);

  Bitboard side_[2] = {0, 0};
  Bitboard kings_ = 0;
  Key key_ = 0;
  Side turn_ = Side::White;
  bool track_runs_ = false;
  std::uint8_t run_square_[2] = {0, 0};
  std::uint8_t run_count_[2] = {0, 0};
};

// Copy-make copies a Position per node: the king runs live in what was padding.
static_assert(sizeof(Position) <= 40);

}  // namespace tsuru
