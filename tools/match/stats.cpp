#include "tools/match/stats.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace tsuru::match {
namespace {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95% quantile of the normal law
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

double Tally::score() const {
  const int n = games();
  return n == 0 ? 0.5 : (wins + 0.5 * draws) / n;
}

double Tally::variance() const {
  const int n = games();
  if (n == 0) return 0;
  const double s = score();
  return (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
}

double elo_of_score(double score) {
  if (score <= 0) return -kInf;
  if (score >= 1) return kInf;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double score_of_elo(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

EloEstimate estimate_elo(const Tally& t) {
  EloEstimate e;
  const double s = t.score();
  e.elo = elo_of_score(s);
  const int n = t.games();
  const double se = n > 0 ? std::sqrt(t.variance() / n) : kInf;
  e.lower = elo_of_score(s - kZ95 * se);
  e.upper = elo_of_score(s + kZ95 * se);
  e.margin = std::isinf(e.lower) || std::isinf(e.upper) ? kInf : (e.upper - e.lower) / 2;
  return e;
}

double SprtParams::lower_bound() const {
  return std::log(beta / (1 - alpha));
}

double SprtParams::upper_bound() const {
  return std::log((1 - beta) / alpha);
}

std::optional<std::string> split_numbers(std::string_view text, std::vector<double>& out) {
  out.clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    double x = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), x);
    if (item.empty() || ec != std::errc{} || ptr != item.data() + item.size())
      return std::string(item);
    out.push_back(x);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return std::nullopt;
}

std::optional<SprtParams> parse_sprt(std::string_view text, std::string& error) {
  std::vector<double> values;
  if (const auto bad = split_numbers(text, values)) {
    error = "bad number '" + *bad + "' in --sprt (expected elo0,elo1,alpha,beta)";
    return std::nullopt;
  }
  if (values.size() != 4) {
    error = "--sprt needs four numbers: elo0,elo1,alpha,beta";
    return std::nullopt;
  }
  SprtParams p{values[0], values[1], values[2], values[3]};
  if (!(p.elo0 < p.elo1)) {
    error = "--sprt needs elo0 < elo1";
    return std::nullopt;
  }
  if (!(p.alpha > 0 && p.alpha < 0.5 && p.beta > 0 && p.beta < 0.5)) {
    error = "--sprt needs 0 < alpha, beta < 0.5";
    return std::nullopt;
  }
  return p;
}

std::string format_number(double x, int decimals) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (std::isnan(x)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  std::string out = buf;
  if (out == "-0.0" || out == "-0.00" || out == "-0") out.erase(0, 1);
  return out;
}

}  // namespace tsuru::match
