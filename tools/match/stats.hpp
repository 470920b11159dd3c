// Match statistics from the first engine's point of view: score, Elo difference with a 95%
// confidence interval, and the sequential probability ratio test that may stop a match early.
//
// Elo: the logistic model, score s = 1 / (1 + 10^(-elo/400)). The interval comes from the
// normal approximation of the mean game score (each game scores 1, 1/2 or 0), whose per-game
// variance is the sample variance of the three outcomes; its ends are mapped back to Elo.
// SPRT: its parameters and decisions here; the test itself counts game pairs (pairs.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
// The comma-separated numbers of a command-line value ("0,10,0.05,0.05") into out; the first
// item that is no number, or nullopt when every one is.
std::optional<std::string> split_numbers(std::string_view text, std::vector<double>& out);

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };

// Numbers as the final line prints them: one decimal, "inf" / "-inf" when unbounded.
std::string format_number(double x, int decimals = 1);

}  // namespace tsuru::match
