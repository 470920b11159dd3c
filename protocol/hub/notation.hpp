// Positions and moves as Hub writes them, for every rule set.
//
// Position strings: Hub numbers the squares as the 10x10 game does: the side that moves first is
// written `W`/`w` and starts on the highest-numbered squares, counted from the second player's
// back row. On boards where the first player is White this is plain PDN numbering. In English
// checkers (and pool), where Black moves first and PDN numbers from Black's side (Black on
// 1-12), Hub clients (pydraughts' HubEngine, which writes 8x8 positions as 33-character
// strings) turn the board round: string square h is PDN square 33 - h, and the first player,
// Black, is written `W`/`w`. The English start position is `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`.
//
// Move numbers (in `pos moves=`, `done`, `pv`) come in two conventions, the Hub parameter
// `notation`:
//   pydraughts (the default): as pydraughts 0.6.7's HubEngine numbers them - English in plain
//     PDN numbers (Black's first move 11-15) while the position string stays turned round;
//     Russian and Brazilian with the rows flipped (1 = a1, 4 = g1, 5 = b2 ... 32 = h8: c3-d4
//     is 10-14); Turkish with the rows flipped (1 = a1 ... 8 = h1, 9 = a2 ... 64 = h8); every
//     other rule set as the position string (international, Frisian, Breakthrough, Italian,
//     antidraughts, and those pydraughts does not play: pool, Czech, Spanish, Thai, Killer).
//   tsuru: the position string's own numbering for every rule set (Tsuru before 0.2): English
//     11-15 is 22-18, Russian c3-d4 is 22-18, Turkish b3-b4 is 42-34.
// Captures are `from x to x captured...` with every captured square, printed in ascending
// order of the convention's numbers; on input the captured squares may come in any order, the
// short form `from x to` is taken when it names one capture, and algebraic squares (`c3-d4`,
// Turkish `a2-a3`) are accepted too.
//
// A PDN FEN given instead of a Hub string (`B:W21-32:B1-12`) keeps its own, PDN, convention.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/expected.hpp"
#include "engine/rules/move.hpp"
#include "engine/rules/notation.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::hub {

// How moves are numbered (see above).
enum class MoveNumbers : std::uint8_t { Pydraughts, Tsuru };
std::string_view move_numbers_name(MoveNumbers n);
std::optional<MoveNumbers> parse_move_numbers(std::string_view name);
// "pydraughts tsuru", for the Hub enum parameter.
std::string_view move_numbers_names();

// Whether Hub turns the position string round for v (the first player is not White).
bool mirrored(Variant v);
// The number of a square in the position string.
int hub_number(Variant v, Square sq);
// The number of a square in moves, and back (-1 when the number names no square).
int move_number(Variant v, Square sq, MoveNumbers n);
Square move_square(Variant v, int number, MoveNumbers n);

// A Hub position string (side to move, then one of `w b W B e` per square in Hub order), or a
// PDN FEN when the text holds a `:`. Rejects a wrong length, an unknown character, a man on its
// promotion row and a position where the side not to move has no pieces.
Expected<Position> parse_position(Variant v, std::string_view text);
std::string format_position(Variant v, const Position& pos);

// A move in Hub notation: `32-28`, `28x19x23` (from, to, every captured square in any order),
// or `28x19` when that is unambiguous; or the same with algebraic squares (`c3-d4`, `a2-a3`).
Expected<Move, notation::MoveError> parse_move(Variant v, const Position& pos,
                                               std::string_view text,
                                               MoveNumbers n = MoveNumbers::Pydraughts);
// Hub long form, captured squares in ascending order of n's numbers.
std::string format_move(Variant v, const Move& m, MoveNumbers n = MoveNumbers::Pydraughts);

}  // namespace tsuru::hub
