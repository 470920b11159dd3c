#include "tools/match/shard.hpp"

#include <charconv>

namespace tsuru::match {

std::optional<Shard> parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  Shard s;
  const char* b = text.data();
  const char* e = b + text.size();
  const auto [p1, e1] = std::from_chars(b, b + slash, s.index);
  const auto [p2, e2] = std::from_chars(b + slash + 1, e, s.count);
  if (e1 != std::errc{} || p1 != b + slash || e2 != std::errc{} || p2 != e) return std::nullopt;
  if (s.count < 1 || s.count > 1'000'000 || s.index < 0 || s.index >= s.count) return std::nullopt;
  return s;
}

std::vector<int> shard_games(int games, Shard s) {
  const long long pairs = (static_cast<long long>(games) + 1) / 2;
  const long long first = pairs * s.index / s.count, last = pairs * (s.index + 1) / s.count;
  std::vector<int> out;
  for (long long p = first; p < last; ++p)
    for (long long g = 2 * p; g < 2 * p + 2 && g < games; ++g) out.push_back(static_cast<int>(g));
  return out;
}

}  // namespace tsuru::match
