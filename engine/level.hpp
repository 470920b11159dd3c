// The three levels of the seeds' computer opponent (docs/hub.md), as presets over search limits:
//   beginner: 40% of moves uniformly random among the legal moves, the others a 2-ply search;
//   medium:   a fixed-depth search, 8 plies on 32-square boards (English), 6 on larger ones
//             (international, Turkish);
//   hard:     a timed search, never more than 1.5 s of wall clock per move.
// Level none leaves the caller's limits alone.
#pragma once

#include <optional>
#include <string_view>

#include "engine/rules/variant.hpp"
#include "engine/search/limits.hpp"

namespace tsuru {

enum class Level : std::uint8_t { None, Beginner, Medium, Hard };

inline constexpr double kBeginnerRandomShare = 0.4;
inline constexpr int kBeginnerDepth = 2;
inline constexpr double kHardSeconds = 1.5;

std::optional<Level> parse_level(std::string_view name);
std::string_view level_name(Level level);
// Depth of the medium level for a rule set.
int medium_depth(Variant v);
// The limits a level imposes on a move search (play mode), its medium level searching
// medium_plies; the same for every game Tsuru plays (Chinese checkers too).
SearchLimits apply_level(Level level, int medium_plies, const SearchLimits& requested);
// ... for a draughts rule set: medium_depth(v).
inline SearchLimits apply_level(Level level, Variant v, const SearchLimits& requested) {
  return apply_level(level, medium_depth(v), requested);
}

}  // namespace tsuru
