// Positions and moves as Hub writes them, for every rule set.
//
// Hub numbers the squares as the 10x10 game does: the side that moves first is written `W`/`w`
// and starts on the highest-numbered squares, counted from the second player's back row. On
// boards where the first player is White (international) this is plain PDN numbering. In
// English checkers, where Black moves first and PDN numbers from Black's side (Black on 1-12),
// Hub clients (pydraughts' HubEngine, which writes 8x8 positions as 33-character strings) turn
// the board round: Hub square h is PDN square 33 - h, and the first player, Black, is written
// `W`/`w`. The English start position is therefore `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`, and
// the opening move 11-15 is `22-18` in Hub.
//
// A PDN FEN given instead of a Hub string (`B:W21-32:B1-12`) keeps its own, PDN, convention.
#pragma once

#include <string>
#include <string_view>

#include "engine/expected.hpp"
#include "engine/move.hpp"
#include "engine/position.hpp"
#include "engine/variant.hpp"
#include "protocol/notation.hpp"

namespace tsuru::hub {

// Whether Hub turns the board round for v (the first player is not White).
bool mirrored(Variant v);
// The Hub number of a square of the board.
int hub_number(Variant v, Square sq);

// A Hub position string (side to move, then one of `w b W B e` per square in Hub order), or a
// PDN FEN when the text holds a `:`. Rejects a wrong length, an unknown character, a man on its
// promotion row and a position where the side not to move has no pieces.
Expected<Position> parse_position(Variant v, std::string_view text);
std::string format_position(Variant v, const Position& pos);

// A move in Hub notation: `32-28`, `28x19x23` (from, to, every captured square in any order),
// or `28x19` when that is unambiguous. Only digits, `-` and `x` are accepted.
Expected<Move, notation::MoveError> parse_move(Variant v, const Position& pos,
                                               std::string_view text);
// Hub long form, captured squares in ascending Hub order.
std::string format_move(Variant v, const Move& m);

}  // namespace tsuru::hub
