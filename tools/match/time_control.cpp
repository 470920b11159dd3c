#include "tools/match/time_control.hpp"

#include <charconv>
#include <cstdio>
#include <limits>

namespace tsuru::match {
namespace {

std::optional<double> parse_seconds(std::string_view s) {
  double x = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || !(x >= 0))
    return std::nullopt;
  return x;
}

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

}  // namespace

std::optional<TimeControl> TimeControl::parse_clock(std::string_view text, std::string& error) {
  TimeControl tc;
  tc.kind = Kind::Clock;
  const std::string_view original = text;
  error = "bad --tc '" + std::string(original) + "': expected BASE+INC or MOVES/BASE+INC (seconds)";
  if (const std::size_t slash = text.find('/'); slash != std::string_view::npos) {
    const std::string_view m = text.substr(0, slash);
    const auto [ptr, ec] = std::from_chars(m.data(), m.data() + m.size(), tc.moves);
    if (m.empty() || ec != std::errc{} || ptr != m.data() + m.size() || tc.moves <= 0)
      return std::nullopt;
    text.remove_prefix(slash + 1);
  }
  std::string_view inc;
  if (const std::size_t plus = text.find('+'); plus != std::string_view::npos) {
    inc = text.substr(plus + 1);
    text = text.substr(0, plus);
    const auto i = parse_seconds(inc);
    if (!i) return std::nullopt;
    tc.increment = *i;
  }
  const auto b = parse_seconds(text);
  if (!b) return std::nullopt;
  tc.base = *b;
  if (tc.base <= 0 && tc.increment <= 0) {
    error = "bad --tc '" + std::string(original) + "': no time at all";
    return std::nullopt;
  }
  error.clear();
  return tc;
}

TimeControl TimeControl::fixed_depth(int depth) {
  TimeControl tc;
  tc.kind = Kind::Depth;
  tc.depth = depth;
  return tc;
}

TimeControl TimeControl::fixed_time(double seconds) {
  TimeControl tc;
  tc.kind = Kind::MoveTime;
  tc.move_time = seconds;
  return tc;
}

std::string TimeControl::describe() const {
  switch (kind) {
    case Kind::Depth:
      return "depth " + std::to_string(depth);
    case Kind::MoveTime:
      return number(move_time) + "s/move";
    case Kind::Clock:
      break;
  }
  std::string out = moves > 0 ? std::to_string(moves) + "/" : "";
  out += number(base);
  if (increment > 0) out += "+" + number(increment);
  return out;
}

GameClock::GameClock(const TimeControl& tc) : tc_(tc) {
  left_ = {tc.base, tc.base};
  granted_ = left_;
}

MoveLimits GameClock::limits(Side s) const {
  MoveLimits l;
  const auto i = static_cast<std::size_t>(index(s));
  switch (tc_.kind) {
    case TimeControl::Kind::Depth:
      l.depth = tc_.depth;
      break;
    case TimeControl::Kind::MoveTime:
      l.move_time = tc_.move_time;
      break;
    case TimeControl::Kind::Clock:
      l.time = std::max(0.0, left_[i]);
      l.increment = tc_.increment;
      if (tc_.moves > 0) l.moves_to_go = tc_.moves - played_[i] % tc_.moves;
      break;
  }
  return l;
}

double GameClock::budget(Side s) const {
  switch (tc_.kind) {
    case TimeControl::Kind::Depth:
      return std::numeric_limits<double>::infinity();
    case TimeControl::Kind::MoveTime:
      return tc_.move_time;
    case TimeControl::Kind::Clock:
      break;
  }
  return std::max(0.0, left_[static_cast<std::size_t>(index(s))]) + tc_.increment;
}

bool GameClock::charge(Side s, double seconds, double margin) {
  const bool in_time = seconds <= budget(s) + margin;
  if (tc_.kind == TimeControl::Kind::Clock) {
    const auto i = static_cast<std::size_t>(index(s));
    left_[i] += tc_.increment - seconds;
    granted_[i] += tc_.increment;
    ++played_[i];
    if (tc_.moves > 0 && played_[i] % tc_.moves == 0) {
      left_[i] += tc_.base;
      granted_[i] += tc_.base;
    }
  }
  return in_time;
}

}  // namespace tsuru::match
