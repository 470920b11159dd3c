// `level` lines: the limits of the next searches. Every form of docs/hub.md, combinable:
//   depth=N  nodes=N  move-time=S  [moves=M] time=S [inc=S]  infinite
// Seconds are real numbers. Unknown keys (lidraughts sends handicap= and ply=) are ignored.
// Successive level lines add up; `pos` starts again from no limits.
//
// Clock mode: Hub adds the increment before the move, so the engine may spend up to time + inc;
// SearchLimits::time receives that sum. pydraughts subtracts the increment from its clock before
// sending it, so `time` is negative when the clock is below one increment: accepted, and a clock
// at or below zero still gives the search a millisecond to answer. `moves` and `inc` count only
// together with `time` in the same line.
#pragma once

#include <optional>
#include <string>

#include "engine/search/limits.hpp"
#include "protocol/hub/line.hpp"

namespace tsuru::hub {

// Adds a level line to limits. On a value that is not a number in range ("bad value") the
// limits are left unchanged.
std::optional<std::string> read_level(const Message& level, SearchLimits& limits);

}  // namespace tsuru::hub
