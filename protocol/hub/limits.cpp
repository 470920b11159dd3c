#include "protocol/hub/limits.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace tsuru::hub {
namespace {

constexpr double kMaxSeconds = 1e7;  // about four months: anything above is a typo
constexpr double kMinClock = 0.001;

template <class T>
bool parse_number(const std::string& text, T& out) {
  T value{};
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || r.ec != std::errc{} || r.ptr != text.data() + text.size()) return false;
  out = value;
  return true;
}

bool parse_seconds(const std::string& text, double& out, bool allow_negative) {
  double value = 0;
  if (!parse_number(text, value) || !std::isfinite(value)) return false;
  if (value > kMaxSeconds || value < (allow_negative ? -kMaxSeconds : 0.0)) return false;
  out = value;
  return true;
}

}  // namespace

std::optional<std::string> read_level(const Message& level, SearchLimits& limits) {
  SearchLimits l = limits;
  if (const std::string* v = level.value("depth")) {
    if (!parse_number(*v, l.depth) || l.depth < 0 || l.depth > 1000) return "bad value";
  }
  if (const std::string* v = level.value("nodes")) {
    if (!parse_number(*v, l.nodes)) return "bad value";
  }
  if (const std::string* v = level.value("move-time")) {
    if (!parse_seconds(*v, l.move_time, false)) return "bad value";
  }
  if (const std::string* t = level.value("time")) {
    double time = 0, inc = 0;
    int moves = 0;
    if (!parse_seconds(*t, time, true)) return "bad value";
    if (const std::string* v = level.value("inc"); v && !parse_seconds(*v, inc, false))
      return "bad value";
    if (const std::string* v = level.value("moves");
        v && (!parse_number(*v, moves) || moves < 0 || moves > 10000))
      return "bad value";
    l.time = std::max(time + inc, kMinClock);
    l.increment = inc;
    l.moves_to_go = moves;
  }
  if (level.has("infinite")) l.infinite = true;
  // A name given as a flag where a value is needed (`depth` alone) is malformed too.
  for (const char* key : {"depth", "nodes", "move-time", "time", "inc", "moves"})
    if (level.has(key) && !level.value(key)) return "bad value";
  limits = l;
  return std::nullopt;
}

}  // namespace tsuru::hub
