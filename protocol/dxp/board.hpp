// DXP fields in terms of the engine: squares, positions and moves of a rule set.
// 10x10: squares 1-50 and 50-character positions, as every DXP program uses them.
// 8x8 (our dialect, README.md): squares 1-32 in standard numbering, 32-character positions,
// always a 'B' start with the side to move given ('Z' = Black, the first to move in English).
// The colours map directly: W = White, Z = Black (zwart); men w/z, kings W/Z, empty e.
#pragma once

#include <string>
#include <string_view>

#include "engine/expected.hpp"
#include "engine/position.hpp"
#include "engine/variant.hpp"
#include "protocol/dxp/message.hpp"

namespace tsuru::dxp {

// One of e w z W Z per square, in square-number order.
std::string position_string(Variant v, const Position& pos);
// The position named by a square string and a side to move; checked like any set-up position.
Expected<Position> parse_position(Variant v, Side to_move, std::string_view squares);

// The start position of a game request: 'A' is the rule set's own start, 'B' the given one.
Expected<Position> request_start(Variant v, const GameRequest& r);
// The request for a game from `start`: 'A' for the 10x10 start position, 'B' otherwise (and
// always on 8x8, where there is no agreed 'A').
GameRequest make_request(Variant v, const std::string& name, Side follower_side, int minutes,
                         int moves, const Position& start);

MoveMessage move_message(Variant v, const Move& m, int seconds);
// The legal move of pos that the message names; the error text suits a chat diagnostic
// ("illegal move 32-27", "square 51 is not on the board").
Expected<Move> find_move(Variant v, const Position& pos, const MoveMessage& m);
// The message's move as text: 32-28, or 28x19x23 (from, to, captured) for a capture.
std::string move_text(const MoveMessage& m);

}  // namespace tsuru::dxp
