#include "engine/search/time_manager.hpp"

#include <algorithm>
#include <cmath>

namespace tsuru {

double io_margin(double budget) {
  return std::min(0.05, budget * 0.1);
}

int moves_left(GamePhase phase) {
  double share = 1;  // unknown: as many moves left as at the start
  if (phase.start_pieces > 0)
    share = std::clamp(static_cast<double>(phase.pieces) / phase.start_pieces, 0.0, 1.0);
  return static_cast<int>(
      std::lround(kEndingMovesLeft + (kOpeningMovesLeft - kEndingMovesLeft) * share));
}

TimePlan plan_time(const SearchLimits& l, GamePhase phase) {
  TimePlan plan;
  if (l.infinite) return plan;
  if (l.move_time > 0) {
    // A fixed time per move: use it all (an unfinished iteration still gives its best move).
    plan.hard = l.move_time - io_margin(l.move_time);
    plan.soft = plan.hard;
  }
  if (l.has_clock()) {
    // Hub adds the increment to the clock before the move, so `time` is all we may spend; DXP
    // has no increment.
    const double left = l.time;
    const double increment = std::clamp(l.increment, 0.0, left);
    const double reserve =
        increment + io_margin(left) + std::min(kReserveCap, left * kReserveShare);
    const double cap = std::max(left - reserve, left * kFloorShare);
    int moves = moves_left(phase);
    if (l.moves_to_go > 0) moves = std::min(moves, l.moves_to_go);
    const double optimum =
        std::min(cap, std::max(0.0, left - reserve) / std::max(moves, 1) + increment);
    const double hard = std::min(cap, optimum * kHardFactor);
    const double soft = optimum * kSoftShare;
    // With a fixed move time as well, the tighter of the two counts and the soft limit stays
    // fixed: the move time's semantics (use it to the full) do not change.
    if (plan.hard > 0) {
      plan.soft = std::min(plan.soft, soft);
      plan.hard = std::min(plan.hard, hard);
    } else {
      plan.soft = soft;
      plan.hard = hard;
      plan.optimum = optimum;
    }
  }
  return plan;
}

double TimeManager::on_iteration(bool best_move_changed, Score score) {
  const bool first = iterations_++ == 0;
  changed_ = !first && best_move_changed;
  dropped_ = !first && score < previous_ - kDropMargin;
  stable_ = (first || changed_) ? 0 : stable_ + 1;
  previous_ = score;
  return soft_limit();
}

double TimeManager::budget() const {
  double b = optimum_;
  if (changed_) b *= kChangeFactor;
  if (dropped_) b *= kDropFactor;
  return hard_ > 0 ? std::min(b, hard_) : b;
}

double TimeManager::soft_limit() const {
  if (!active()) return 0;
  double soft = budget() * kSoftShare;
  if (stable_ >= kStableIterations && !dropped_) soft = std::min(soft, optimum_ * kStableShare);
  return soft;
}

}  // namespace tsuru
