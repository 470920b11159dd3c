// Match statistics from the first engine's point of view: score, Elo difference with a 95%
// confidence interval, and the sequential probability ratio test that may stop a match early.
//
// Elo: the logistic model, score s = 1 / (1 + 10^(-elo/400)). The interval comes from the
// normal approximation of the mean game score (each game scores 1, 1/2 or 0), whose per-game
// variance is the sample variance of the three outcomes; its ends are mapped back to Elo.
// SPRT: the generalised SPRT of fishtest on the trinomial outcome (normal approximation):
//   LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var), s0 and s1 the scores of elo0 and elo1;
//   stop when LLR >= ln((1 - beta) / alpha) (H1: elo1) or LLR <= ln(beta / (1 - alpha)) (H0).
//   s and var are taken from the sample with half a win, half a draw and half a loss added (a
//   prior). Early in a match nearly every game can have the same result, and the sample's own
//   spread is then far too small: without the prior, 10 draws and a loss gave LLR -3.09 at
//   (0, 50), an H0 after eleven games; with it -1.76. The prior also keeps var above zero
//   when every game has had the same result. Over hundreds of games its weight vanishes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tsuru::match {

struct Tally {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  double score() const;     // 0..1; 0.5 with no games
  double variance() const;  // per-game variance of the score
};

// Elo difference of a score in (0, 1); +-infinity at 1 and 0.
double elo_of_score(double score);
double score_of_elo(double elo);

struct EloEstimate {
  double elo = 0;
  double lower = 0, upper = 0;  // the 95% interval
  double margin = 0;            // (upper - lower) / 2, printed as elo +- margin
};
EloEstimate estimate_elo(const Tally& t);

struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  double lower_bound() const;  // ln(beta / (1 - alpha))
  double upper_bound() const;  // ln((1 - beta) / alpha)
};
// "elo0,elo1,alpha,beta"; an error message on bad input.
std::optional<SprtParams> parse_sprt(std::string_view text, std::string& error);

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };
// Half a win, a draw and a loss are added to the sample (the prior above).
double sprt_llr(const Tally& t, const SprtParams& p);
SprtDecision sprt_decision(const Tally& t, const SprtParams& p);

// Numbers as the final line prints them: one decimal, "inf" / "-inf" when unbounded.
std::string format_number(double x, int decimals = 1);

}  // namespace tsuru::match
