// Text forms of positions and moves, parsed and printed in one place:
//   PDN FEN        W:W31-50:B1-20   (K prefix for kings, ranges on input, W/B lists in any order)
//   Hub position   W + one char per square (w b W B e): 51 chars on 10x10, 33 on 8x8
//   numeric moves  32-28, 28x19x23 (Hub long form: from x to x every captured square),
//                  28x19 (short, when unambiguous), 11x18x27 (PDN path through landing squares)
//   algebraic      c3-d4, c3xe5 (docs/notation.md; a1 is the first player's near-left
//                  square in English and pool, White's bottom-left elsewhere)
//   Turkish        every square is used and has no number: FEN Wa2,b2,..., moves a3-a4,
//                  captures a4xa6xa8 or a4:a6:a8 (Hub long form: from x to x captured squares)
//   light a1       Italian and Spanish number from a8 (1) to h1 (32)
// Bad input yields an error message, never undefined behaviour.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/rules/expected.hpp"
#include "engine/rules/move.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::notation {

// Squares.
std::string square_number(Variant v, Square sq);     // "32"
std::string square_algebraic(Variant v, Square sq);  // "c3"
// The name FEN and moves use: the number, or the algebraic name on boards whose squares have no
// numbers (Turkish).
std::string square_name(Variant v, Square sq);
// Parses "32" or "c3"; nullopt when the text names no playable square of the board.
std::optional<Square> parse_square(Variant v, std::string_view text);

// pydraughts (Hub moves and DXP) numbers the Russian, Brazilian and Turkish boards from White's
// near-left square up, row by row (1 = a1): docs/notation.md.
bool pydraughts_flips_rows(Variant v);
// Square number n of a board numbered row by row from the top, counted from the bottom instead
// (each row keeps its left-to-right order); the map is its own inverse.
int flip_rows(Variant v, int n);

// Positions.
Expected<Position> parse_fen(Variant v, std::string_view text);
std::string format_fen(Variant v, const Position& pos);
Expected<Position> parse_hub_position(Variant v, std::string_view text);
std::string format_hub_position(Variant v, const Position& pos);
// A Hub position string or a PDN FEN, whichever the text is.
Expected<Position> parse_position(Variant v, std::string_view text);
// Checks that apply to every parsed position: no man on its own promotion row, and the side
// that just moved still has a piece.
std::optional<std::string> check_position(Variant v, const Position& pos);

// Moves.
std::string format_move(Variant v, const Move& m);  // Hub long form: 32-28, 28x19x23
// PDN game-score form: 32-28, 28x19; the landing squares are added when from and to alone are
// ambiguous (11x18x27).
std::string format_move_pdn(Variant v, const Position& pos, const Move& m);
// Algebraic form with the landing squares of a capture: c3-d4, c3xe5xg7.
std::string format_move_algebraic(Variant v, const Position& pos, const Move& m);

struct MoveError {
  enum class Kind { Malformed, Illegal, Ambiguous } kind;
  std::string message;
};
// Parses any of the move forms above and returns the legal move it names in pos.
Expected<Move, MoveError> parse_move(Variant v, const Position& pos, std::string_view text);

}  // namespace tsuru::notation
