// DXP fields in terms of the engine: squares, positions and moves of a rule set, in one of two
// layouts (docs/dxp.md).
// 10x10: squares 1-50 and 50-character positions, as every DXP program uses them; both layouts
// agree.
// 8x8 and Turkish have no established DXP layout. The default follows pydraughts 0.6.7, the
// only DXP client that plays them (its transcripts are in tests/data/pydraughts/):
//   English    moves in plain PDN numbers; the position turned round with the colours swapped
//              (letter i is PDN square 33 - i; 'w' is Black, the first to move, 'z' White);
//   Russian,   moves with the rows flipped (1 = a1, 4 = g1, 5 = b2 ... 32 = h8); the position
//   Brazilian  in Tsuru's numbering (1 = b8, 29 = a1), colours as they are;
//   Turkish    64-letter positions (1 = a8, 64 = h1); moves with the rows flipped (1 = a1 ...
//              8 = h1, 9 = a2 ... 64 = h8);
//   the others as in Tsuru's numbering.
// The Tsuru layout (the dialect before pydraughts was followed) writes every rule set in
// Tsuru's own numbering (docs/notation.md), colours as they are.
// The side to move and the follower's colour are the rule set's own colours in both layouts:
// W = White, Z = Black (zwart); men w/z, kings W/Z, empty e.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/expected.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"
#include "protocol/dxp/message.hpp"

namespace tsuru::dxp {

enum class Layout { Pydraughts, Tsuru };

std::optional<Layout> parse_layout(std::string_view name);  // "pydraughts" or "tsuru"
std::string_view layout_name(Layout l);

// A rule set as it is written on the wire. A Variant alone means the default layout.
struct Dialect {
  Dialect(Variant v, Layout l = Layout::Pydraughts) : variant(v), layout(l) {}  // NOLINT
  Variant variant;
  Layout layout;
};

// The DXP number of a square, and the square of a DXP number (-1 when it is not on the board).
int wire_number(const Dialect& d, Square sq);
Square wire_square(const Dialect& d, int n);

// One of e w z W Z per square, in the dialect's order.
std::string position_string(const Dialect& d, const Position& pos);
// The position named by a square string and a side to move; checked like any set-up position.
Expected<Position> parse_position(const Dialect& d, Side to_move, std::string_view squares);

// The start position of a game request: 'A' is the rule set's own start, 'B' the given one.
Expected<Position> request_start(const Dialect& d, const GameRequest& r);
// The request for a game from `start`: 'A' for the 10x10 start position, 'B' otherwise (and
// always on 8x8, where there is no agreed 'A').
GameRequest make_request(const Dialect& d, const std::string& name, Side follower_side, int minutes,
                         int moves, const Position& start);

MoveMessage move_message(const Dialect& d, const Move& m, int seconds);
// The legal move of pos that the message names; the error text suits a chat diagnostic
// ("illegal move 32-27", "square 51 is not on the board").
Expected<Move> find_move(const Dialect& d, const Position& pos, const MoveMessage& m);
// The message's move as text: 32-28, or 28x19x23 (from, to, captured) for a capture.
std::string move_text(const MoveMessage& m);

}  // namespace tsuru::dxp
