// Game pairs and the SPRT on them. A match plays every opening twice, each engine moving first
// once: games 2p + 1 and 2p + 2 (1-based, in schedule order) are pair p. The two games of a pair
// share their opening, so their results are not independent (a lopsided opening is usually won
// by whoever has the good side, once each way); counting pairs, not games, takes that in.
//
// The pentanomial tally counts the complete pairs by engine 1's points in them: 0, 1/2, 1, 3/2
// or 2. The SPRT is the generalised SPRT of fishtest on that tally (normal approximation), each
// pair one sample x in {0, 1/4, 1/2, 3/4, 1} (its points over 2):
//   LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var),
// N the pairs, s the mean and var the variance of x, s0 and s1 the scores of elo0 and elo1;
// H1 is accepted once LLR >= ln((1 - beta) / alpha), H0 once LLR <= ln(beta / (1 - alpha)).
// With independent games a pair's variance is half a game's and N half the games, so this is
// the game-by-game test's LLR; correlated pairs have less variance and decide sooner.
//
// A prior is added to the sample, as the test on single games did (half a win, half a draw,
// half a loss): the same one and a half games, as 0.75 pair spread over the five outcomes as
// two independent games of one third win, draw and loss each would fall (1 : 2 : 3 : 2 : 1).
// Early in a match nearly every pair can end alike, and the sample's own spread is then far
// too small (ten drawn pairs would give var 0); the prior keeps var above zero, and over
// hundreds of pairs its weight vanishes.
#pragma once

#include <array>
#include <vector>

#include "tools/match/stats.hpp"

namespace tsuru::match {

struct PairTally {
  // counts[k]: the pairs in which engine 1 scored k half-points (k = 0..4).
  std::array<int, 5> counts{};
  int pairs() const;
};

// Engine 1's result in one game: +1 a win, 0 a draw, -1 a loss; number is 1-based.
struct GameScore {
  int number = 0;
  int result = 0;
};

// The complete pairs among `games` (a game whose partner is missing counts in no pair).
PairTally tally_pairs(std::vector<GameScore> games);

// 0 with no pair; the prior above is added otherwise.
double sprt_llr(const PairTally& t, const SprtParams& p);
SprtDecision sprt_decision(const PairTally& t, const SprtParams& p);

}  // namespace tsuru::match
