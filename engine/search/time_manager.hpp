// How long to think (docs/time.md). plan_time gives a move's budgets in seconds from the
// request: a hard deadline (the search is abandoned at once), a soft one (no new iteration
// starts after it) and, for a clock, the optimum: the time the move should take. A clock is
// never overdrawn: the hard deadline leaves the increment, the I/O margin and a safety share of
// the clock in reserve.
#pragma once

#include "engine/search/limits.hpp"

namespace tsuru {

struct TimePlan {
  double soft = 0;     // 0 = none
  double hard = 0;     // 0 = none
  double optimum = 0;  // a clock search's target time; 0 = no clock
};

// How far the game has gone, for the moves-left estimate: the pieces on the board now and in the
// rule set's start position. start_pieces 0: unknown, taken as the start.
struct GamePhase {
  int pieces = 0;
  int start_pieces = 0;
};

// The moves the side to move is expected still to make: kOpeningMovesLeft on a full board down
// to kEndingMovesLeft on a bare one, in proportion to the pieces left.
inline constexpr int kOpeningMovesLeft = 50;
inline constexpr int kEndingMovesLeft = 20;
int moves_left(GamePhase phase);

// Time lost between the request and the answer outside the search (I/O, thread start-up).
double io_margin(double budget);

// A clock search's rule. reserve = increment + io_margin + min(kReserveCap, kReserveShare *
// time) stays on the clock; cap = max(time - reserve, kFloorShare * time) is the most one move
// may take (the floor only when the clock holds less than the reserve: a move must be made);
// optimum = min(cap, (time - reserve) / n + increment) with n = moves_left, or moves_to_go when
// that is fewer; hard = min(cap, kHardFactor * optimum); soft = kSoftShare * optimum.
inline constexpr double kReserveShare = 0.05;
inline constexpr double kReserveCap = 0.5;
inline constexpr double kFloorShare = 0.2;
inline constexpr double kHardFactor = 4;
inline constexpr double kSoftShare = 0.6;

TimePlan plan_time(const SearchLimits& limits, GamePhase phase = {});

}  // namespace tsuru
