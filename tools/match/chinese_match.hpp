// `tsuru match --variant chinese`: two levels of the Chinese checkers engine against each other,
// in-process (no Hub or DXP engine speaks this game). Each opening (a few random plies from the
// start, drawn by the seed) is played twice, each level taking Red once. A game ends by the
// rules (all ten home; threefold repetition, Tsuru's draw rule) or at the move cap, which is an
// adjudicated draw and reported as such: it is the runner's, not a rule of the game.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "engine/chinese/engine.hpp"

namespace tsuru::match {

struct ChineseMatchConfig {
  Level level[2] = {Level::Hard, Level::Medium};
  SearchLimits limits[2];  // under Level::None
  int games = 2;
  int max_moves = 300;    // plies of both sides; 0 = no cap
  int opening_plies = 2;  // random plies before the engines play
  std::uint64_t seed = 1;
};

struct ChineseMatchResult {
  int wins = 0, draws = 0, losses = 0;  // the first engine's
  int capped = 0;                       // draws adjudicated at the move cap
  int repetitions = 0;                  // draws by threefold repetition
  int failures = 0;  // games lost by an engine that gave no legal move (a bug if ever > 0)
  long long plies = 0;
};

ChineseMatchResult run_chinese_match(const ChineseMatchConfig& config, std::ostream& out);

}  // namespace tsuru::match
