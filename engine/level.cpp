#include "engine/level.hpp"

#include <algorithm>

namespace tsuru {

std::optional<Level> parse_level(std::string_view name) {
  if (name == "none") return Level::None;
  if (name == "beginner") return Level::Beginner;
  if (name == "medium") return Level::Medium;
  if (name == "hard") return Level::Hard;
  return std::nullopt;
}

std::string_view level_name(Level level) {
  switch (level) {
    case Level::None:
      return "none";
    case Level::Beginner:
      return "beginner";
    case Level::Medium:
      return "medium";
    case Level::Hard:
      return "hard";
  }
  return "none";
}

int medium_depth(Variant v) {
  return info(v).board.squares > 32 ? 6 : 8;
}

SearchLimits apply_level(Level level, int medium_plies, const SearchLimits& requested) {
  SearchLimits l = requested;
  switch (level) {
    case Level::None:
      break;
    case Level::Beginner:
      l = SearchLimits{};
      l.depth = kBeginnerDepth;
      break;
    case Level::Medium:
      l = SearchLimits{};
      l.depth = medium_plies;
      break;
    case Level::Hard:
      // The clock still counts if it is tighter than the level.
      l.depth = 0;
      l.nodes = 0;
      l.infinite = false;
      l.move_time = l.move_time > 0 ? std::min(l.move_time, kHardSeconds) : kHardSeconds;
      break;
  }
  return l;
}

}  // namespace tsuru
