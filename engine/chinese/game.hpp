// A Chinese checkers game in progress: the start, the moves, the positions, and the result.
// The seed's rules have no draw; Tsuru's choices (docs/chinese.md): a position repeated three
// times (same pieces, same side to move) is a draw, and so is a side to move without a legal
// move (never seen in play; the rules give no other answer). A move cap is not a rule of the
// game: the match runner adjudicates it and says so.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "engine/chinese/position.hpp"

namespace tsuru::chinese {

enum class Outcome : std::uint8_t { Ongoing, RedWins, BlueWins, Draw };
enum class Reason : std::uint8_t { None, AllHome, Repetition, NoMoves };

struct Result {
  Outcome outcome = Outcome::Ongoing;
  Reason reason = Reason::None;
};

std::string_view describe(Outcome o);
std::string_view describe(Reason r);

class Game {
 public:
  explicit Game(const Position& start = Position::start()) : positions_{start} {}

  const Position& position() const { return positions_.back(); }
  const Position& start() const { return positions_.front(); }
  std::span<const Position> positions() const { return positions_; }
  std::span<const Move> moves() const { return moves_; }

  // Plays m if it is legal and the game is not over; returns whether it was played.
  bool play(Move m);
  bool undo();
  // How many times the current position has occurred.
  int repetitions() const;
  Result result() const;

 private:
  std::vector<Position> positions_;
  std::vector<Move> moves_;
};

}  // namespace tsuru::chinese
