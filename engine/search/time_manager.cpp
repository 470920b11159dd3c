#include "engine/search/time_manager.hpp"

#include <algorithm>

namespace tsuru {

namespace {
// Time lost between the request and our answer outside the search (I/O, thread start-up).
double margin_for(double budget) {
  return std::min(0.05, budget * 0.1);
}
}  // namespace

TimePlan plan_time(const SearchLimits& l) {
  TimePlan plan;
  if (l.infinite) return plan;
  if (l.move_time > 0) {
    // A fixed time per move: use it all (an unfinished iteration still gives its best move).
    plan.hard = l.move_time - margin_for(l.move_time);
    plan.soft = plan.hard;
  }
  if (l.has_clock()) {
    // Hub adds the increment to the clock before the move, so `time` is all we may spend.
    const double left = l.time;
    const double reserve = std::min(0.5, left * 0.05) + margin_for(left);
    const double usable = std::max(left - reserve, left * 0.2);
    const int moves = l.moves_to_go > 0 ? std::min(l.moves_to_go, 40) : 30;
    const double base = std::max(0.0, left - l.increment);
    double target = base / moves + l.increment * 0.8;
    target = std::min(target, usable);
    const double hard = std::min(usable, std::max(target * 4, target));
    const double soft = target * 0.6;
    plan.soft = plan.soft > 0 ? std::min(plan.soft, soft) : soft;
    plan.hard = plan.hard > 0 ? std::min(plan.hard, hard) : hard;
  }
  return plan;
}

}  // namespace tsuru
