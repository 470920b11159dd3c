#include "tools/match/time_use.hpp"

#include <algorithm>

namespace tsuru::match {

TimeUseSummary summarize(const std::vector<TimeUse>& games, int long_game_moves) {
  TimeUseSummary s;
  for (const TimeUse& g : games) {
    ++s.games;
    s.moves += g.moves;
    s.seconds += g.seconds;
    s.longest = std::max(s.longest, g.longest);
    if (g.lost_on_time) ++s.time_losses;
    if (g.moves >= long_game_moves && g.granted > 0) {
      ++s.long_games;
      s.unused += std::max(g.left, 0.0) / g.granted;
    }
  }
  return s;
}

}  // namespace tsuru::match
