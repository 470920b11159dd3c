// The clocks of a DXP game, kept by each program for both sides (the time field of MOVE is
// informational). A GAMEREQ gives each player `minutes` for the game and a move limit `moves`
// (0 = none); the game ends at the limit, so the time covers exactly those moves and the time
// manager is told how many are left. A side's turn runs from the moment the other side's move
// arrived (or the game started) until its own move is sent.
#pragma once

#include "engine/rules/types.hpp"
#include "engine/search/limits.hpp"

namespace tsuru::dxp {

class GameClock {
 public:
  GameClock() = default;
  GameClock(int minutes, int moves);

  bool timed() const { return initial_ > 0; }
  // Seconds left on s's clock, not counting a turn in progress.
  double remaining(Side s) const { return left_[index(s)]; }
  // Seconds left on s's clock at `now`, counting the turn in progress if it is s's.
  double remaining(Side s, Clock::time_point now) const;
  int moves_made(Side s) const { return made_[index(s)]; }
  // Moves s still has to make within its time; 0 when the game has no move limit.
  int moves_to_go(Side s) const;

  // s is to move from `now` on.
  void start_turn(Side s, Clock::time_point now);
  // The side to move made its move at `now`: returns the seconds it took and charges them.
  double end_turn(Clock::time_point now);
  // After a take-back: the turn in progress is charged without counting a move; s is to move.
  void restart_turn(Side s, Clock::time_point now);
  // Seconds the turn in progress has lasted.
  double elapsed(Clock::time_point now) const;
  bool running() const { return running_; }
  Side turn() const { return turn_; }

 private:
  double initial_ = 0;
  int moves_ = 0;
  double left_[2] = {0, 0};
  int made_[2] = {0, 0};
  Side turn_ = Side::White;
  bool running_ = false;
  Clock::time_point started_{};
};

}  // namespace tsuru::dxp
