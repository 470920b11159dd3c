// Text for Chinese checkers (docs/notation.md, "Chinese checkers"): point numbers 1..121 row by
// row from the top of the star as Red sees it; positions as `R:R112,...:B1,...` (side to move,
// then each side's points, like the draughts FEN); moves `a-b` for a step and `axbxc` with
// every landing for a jump chain. Input also takes the short `a-b` / `axb` naming the start and
// the end of any move (the start and the end always name one move).
#pragma once

#include <string>
#include <string_view>

#include "engine/chinese/position.hpp"
#include "engine/rules/expected.hpp"

namespace tsuru::chinese {

std::string format_point(int p);  // p + 1
std::string format_move(const Position& pos, Move m);
// A legal move of pos, or why the text names none.
Expected<Move> parse_move(const Position& pos, std::string_view text);

std::string format_fen(const Position& pos);
// Also accepts "start" (or an empty string) for the start position.
Expected<Position> parse_fen(std::string_view text);

}  // namespace tsuru::chinese
