// Match time controls: a fixed depth, a fixed time per move, or a clock (base time, optional
// increment, optional number of moves per period), and the clocks of one game under it.
// Clock convention (Hub): the increment is added before each move, so a side may use up to
// its time left plus the increment on the move.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/types.hpp"

namespace tsuru::match {

struct TimeControl {
  enum class Kind { Depth, MoveTime, Clock };
  Kind kind = Kind::MoveTime;
  int depth = 0;
  double move_time = 0;  // seconds
  double base = 0;       // seconds per period
  double increment = 0;  // seconds per move
  int moves = 0;         // moves per period; 0 = the whole game

  // "BASE", "BASE+INC", "MOVES/BASE" or "MOVES/BASE+INC", seconds; nullopt with a message.
  static std::optional<TimeControl> parse_clock(std::string_view text, std::string& error);
  static TimeControl fixed_depth(int depth);
  static TimeControl fixed_time(double seconds);
  // As written in the PDN TimeControl tag and in messages.
  std::string describe() const;
};

// What an engine is told before a move.
struct MoveLimits {
  int depth = 0;
  double move_time = 0;
  double time = 0;  // clock mode: seconds left before this move's increment
  double increment = 0;
  int moves_to_go = 0;  // clock mode with periods: moves left in this period
};

class GameClock {
 public:
  explicit GameClock(const TimeControl& tc);
  MoveLimits limits(Side s) const;
  // The most the side may spend on the move now (infinite for a fixed depth).
  double budget(Side s) const;
  // Charges a move that took `seconds`; false when the side overstepped its budget by more
  // than `margin` (lost on time).
  bool charge(Side s, double seconds, double margin);
  double left(Side s) const { return left_[static_cast<std::size_t>(index(s))]; }
  // All the clock has given the side so far: the base, every increment of its moves made and
  // the base of every new period (a clock: left + time used).
  double granted(Side s) const { return granted_[static_cast<std::size_t>(index(s))]; }

 private:
  TimeControl tc_;
  std::array<double, 2> left_{};
  std::array<double, 2> granted_{};
  std::array<int, 2> played_{};
};

}  // namespace tsuru::match
