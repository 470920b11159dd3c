// How long to think (docs/time.md). plan_time gives a move's budgets in seconds from the
// request: a hard deadline (the search is abandoned at once), a soft one (no new iteration
// starts after it) and, for a clock, the optimum: the time the move should take, from which
// TimeManager derives the soft limit as the search goes (earlier when the best move stays the
// same, later when it changes or the score drops). A clock is never overdrawn: the hard
// deadline leaves the increment, the I/O margin and a safety share of the clock in reserve.
#pragma once

#include "engine/rules/score.hpp"
#include "engine/search/limits.hpp"

namespace tsuru {

struct TimePlan {
  double soft = 0;     // 0 = none
  double hard = 0;     // 0 = none
  double optimum = 0;  // a clock search's target time, the base of TimeManager; 0 = no clock rule
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

// The dynamic soft limit of a clock search, fed by the main searcher after each completed
// iteration (SearchControl::iteration_done). Pure: no clock of its own, so that it can be tested
// without a search. With no plan (optimum 0) it gives no limit.
//
// The budget is the optimum, times kChangeFactor when the last iteration's best move differs
// from the one before, times kDropFactor when its score fell more than kDropMargin below the
// previous iteration's, never above the hard deadline. No iteration starts past kSoftShare of
// the budget (it would not finish). Once the best move has stayed the same for
// kStableIterations iterations in a row and the last score did not drop, none starts past
// kStableShare of the optimum either.
inline constexpr int kStableIterations = 4;
inline constexpr double kStableShare = 0.3;
inline constexpr double kChangeFactor = 2.0;
inline constexpr double kDropFactor = 1.5;
inline constexpr Score kDropMargin = 25;  // centi-men

class TimeManager {
 public:
  // The budgets of the move (seconds from the clock's start); the iterations seen so far are
  // kept: a ponder search's count once it is hit.
  void plan(double optimum, double hard) {
    optimum_ = optimum;
    hard_ = hard;
  }
  // Forgets the plan and the iterations (a new search).
  void reset() { *this = TimeManager{}; }

  // A completed iteration: whether its best move differs from the previous iteration's, and
  // its score. Returns the new soft limit.
  double on_iteration(bool best_move_changed, Score score);

  bool active() const { return optimum_ > 0; }
  // Seconds from the clock's start after which no iteration should start; 0 with no plan.
  double soft_limit() const;
  // The optimum with the extensions of the last iteration, at most the hard deadline.
  double budget() const;
  // Iterations in a row whose best move was the one before's.
  int stable_iterations() const { return stable_; }

 private:
  double optimum_ = 0;
  double hard_ = 0;
  int iterations_ = 0;
  int stable_ = 0;
  bool changed_ = false;
  bool dropped_ = false;
  Score previous_ = 0;
};

}  // namespace tsuru
