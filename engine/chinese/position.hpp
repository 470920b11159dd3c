// A two-player Chinese checkers position (Red and Blue pieces, side to move) with its Zobrist
// key, the moves (steps and jump chains) and their generation, and the win rule.
//
// Move generation: a step goes to an adjacent empty point; a jump chain is found by a flood over
// landing points from the piece's point (with the piece lifted, so it is neither a stepping
// stone nor an obstacle): each round jumps from the newest landings over an adjacent piece of
// either colour to the empty point beyond, never onto a point already reached (the start
// counts). Every landing is one move, however many paths lead there; a chain that could end
// where it began is no move, as the start is never a landing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chinese/board.hpp"

namespace tsuru::chinese {

using Key = std::uint64_t;

struct Move {
  std::uint8_t from = 0;
  std::uint8_t to = 0;
  bool jump = false;
  friend bool operator==(const Move&, const Move&) = default;
};

// At most one move per (piece, empty point): 10 pieces x 111 empty points.
inline constexpr std::size_t kMaxMoves = kPieces * (kPoints - 2 * kPieces);

class MoveList {
 public:
  void push(Move m) { moves_[size_++] = m; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](std::size_t i) const { return moves_[i]; }
  Move& operator[](std::size_t i) { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  Move* begin() { return moves_.data(); }
  Move* end() { return moves_.data() + size_; }

 private:
  std::array<Move, kMaxMoves> moves_;
  std::size_t size_ = 0;
};

namespace zobrist {
struct Tables {
  std::array<std::array<Key, kPoints>, 2> piece{};
  Key blue_to_move = 0;
};
constexpr Tables make_tables() {
  Tables t{};
  std::uint64_t state = 0x6368696e657365ULL;  // "chinese"
  auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (auto& side : t.piece)
    for (auto& k : side) k = next();
  t.blue_to_move = next();
  return t;
}
inline constexpr Tables kTables = make_tables();
}  // namespace zobrist

class Position {
 public:
  // The empty board, Red to move.
  Position() = default;
  static Position start();
  // Pieces as given (each side 0..10 pieces, no point twice); key computed.
  static Position from_sets(Bits red, Bits blue, Side to_move);

  Bits pieces(Side s) const { return pieces_[index(s)]; }
  Bits occupied() const { return pieces_[0] | pieces_[1]; }
  Side side_to_move() const { return side_; }
  Key key() const { return key_; }

  // Copy-make: the position after a legal move of the side to move.
  Position after(Move m) const;
  void play(Move m);

  // All ten of s's pieces on the ten points of s's goal.
  bool has_won(Side s) const {
    return (pieces_[index(s)] & kGeometry.goal[index(s)]) == kGeometry.goal[index(s)];
  }
  // Either side has won: the game is over.
  bool decided() const { return has_won(Side::Red) || has_won(Side::Blue); }

  friend bool operator==(const Position& a, const Position& b) {
    return a.pieces_[0] == b.pieces_[0] && a.pieces_[1] == b.pieces_[1] && a.side_ == b.side_;
  }

 private:
  Bits pieces_[2]{};
  Side side_ = Side::Red;
  Key key_ = 0;
};

// The points a piece on `from` reaches by jump chains (from excluded), given the occupied points
// (from included or not: the piece is lifted).
Bits jump_landings(Bits occupied, int from);
// The legal moves of the side to move, steps and jumps of each piece in point order. A decided
// position has none (the game is over).
void generate(const Position& pos, MoveList& moves);
MoveList legal_moves(const Position& pos);
// The landings of a legal move after its start, in order: the one point of a step, or the
// landings of a shortest jump chain (the first found, directions in Geometry order).
std::vector<int> path(const Position& pos, Move m);

// Leaves of the move tree `depth` plies deep (a decided position is a leaf).
std::uint64_t perft(const Position& pos, int depth);

}  // namespace tsuru::chinese
