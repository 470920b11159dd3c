// What each engine did with its clock in a match (docs/time.md): the referee records every
// side's moves and seconds per game (TimeUse), and a clock match ends with a table of them per
// engine (runner.hpp print_time_use): moves, mean and longest seconds per move, mean seconds
// per game, the mean share of the clock left unused at the end of long games, losses on time.
#pragma once

#include <vector>

namespace tsuru::match {

// One side of one game, as the referee timed it (the time between sending the request and
// reading the move, I/O included).
struct TimeUse {
  int moves = 0;       // moves charged to the clock
  double seconds = 0;  // their time, all together
  double longest = 0;  // the longest of them
  double granted = 0;  // base, increments and period bases the clock gave (GameClock::granted)
  double left = 0;     // on the clock at the end (negative: overstepped)
  bool lost_on_time = false;  // overstepped the clock, or gave no answer within it
};

// A game of at least this many moves of the engine's own is a long game: the share of the clock
// it left unused is averaged over these.
inline constexpr int kLongGameMoves = 60;

struct TimeUseSummary {
  int games = 0;
  int moves = 0;
  double seconds = 0;
  double longest = 0;
  int long_games = 0;
  double unused = 0;  // the sum over long games of max(left, 0) / granted
  int time_losses = 0;

  double per_move() const { return moves > 0 ? seconds / moves : 0; }
  double per_game() const { return games > 0 ? seconds / games : 0; }
  // The mean share of the clock left unused at the end of long games; 0 with none.
  double unused_share() const { return long_games > 0 ? unused / long_games : 0; }
};

// Sums one engine's games.
TimeUseSummary summarize(const std::vector<TimeUse>& games, int long_game_moves = kLongGameMoves);

}  // namespace tsuru::match
