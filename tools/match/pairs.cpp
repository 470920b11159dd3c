#include "tools/match/pairs.hpp"

#include <algorithm>
#include <numeric>

namespace tsuru::match {

int PairTally::pairs() const {
  return std::accumulate(counts.begin(), counts.end(), 0);
}

PairTally tally_pairs(std::vector<GameScore> games) {
  std::sort(games.begin(), games.end(),
            [](const GameScore& a, const GameScore& b) { return a.number < b.number; });
  PairTally t;
  for (std::size_t i = 0; i + 1 < games.size(); ++i) {
    const GameScore& a = games[i];
    const GameScore& b = games[i + 1];
    // Games 2p + 1 and 2p + 2 (1-based) are pair p.
    if (a.number % 2 != 1 || b.number != a.number + 1) continue;
    ++t.counts[static_cast<std::size_t>(a.result + b.result + 2)];
    ++i;
  }
  return t;
}

double sprt_llr(const PairTally& t, const SprtParams& p) {
  if (t.pairs() == 0) return 0;
  // The prior (pairs.hpp): 0.75 pair as 1 : 2 : 3 : 2 : 1.
  constexpr std::array<double, 5> kPrior = {0.75 / 9, 1.5 / 9, 2.25 / 9, 1.5 / 9, 0.75 / 9};
  double n = 0, sum = 0;
  for (std::size_t k = 0; k < 5; ++k) {
    const double w = t.counts[k] + kPrior[k];
    n += w;
    sum += w * (static_cast<double>(k) / 4);
  }
  const double s = sum / n;
  double var = 0;
  for (std::size_t k = 0; k < 5; ++k) {
    const double d = static_cast<double>(k) / 4 - s;
    var += (t.counts[k] + kPrior[k]) * d * d;
  }
  var /= n;
  const double s0 = score_of_elo(p.elo0), s1 = score_of_elo(p.elo1);
  return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
}

SprtDecision sprt_decision(const PairTally& t, const SprtParams& p) {
  const double llr = sprt_llr(t, p);
  if (llr >= p.upper_bound()) return SprtDecision::AcceptH1;
  if (llr <= p.lower_bound()) return SprtDecision::AcceptH0;
  return SprtDecision::Continue;
}

}  // namespace tsuru::match
