// Opening start positions for an initiator's games, read from a text file: one opening a line,
// either a position (PDN FEN or Hub string) or the moves that lead to it from the start
// ("09-13 21-17 05-09"; move numbers like "1." are skipped). Blank lines and lines starting
// with '#' are ignored. Tab-separated lines (such as the 3-move ballot deck) give the first
// field that is an opening; a first line with none is taken as a column header.
#pragma once

#include <string_view>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::dxp {

Expected<std::vector<Position>> parse_openings(Variant v, std::string_view text);
// The position after `moves` (space-separated, any notation form) from the start position.
Expected<Position> play_moves(Variant v, std::string_view moves);

}  // namespace tsuru::dxp
