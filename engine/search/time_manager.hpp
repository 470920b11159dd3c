// How long to think. Returns a soft budget (no new iteration starts after it) and a hard
// deadline (the search is abandoned at once), both in seconds from the request. A clock is never
// overdrawn: the hard deadline always leaves a safety margin of the remaining time.
#pragma once

#include "engine/search/limits.hpp"

namespace tsuru {

struct TimePlan {
  double soft = 0;  // 0 = none
  double hard = 0;  // 0 = none
};

TimePlan plan_time(const SearchLimits& limits);

}  // namespace tsuru
