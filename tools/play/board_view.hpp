// The console board diagram: the board seen from one side, algebraic coordinates on the frame,
// men and kings as letters and every empty playable square showing its number, so a player
// can type moves in either notation without a separate chart.
#pragma once

#include <string>

#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::play {

// The diagram with `bottom`'s pieces nearest the viewer: b/w are men, B/W kings.
std::string render_board(Variant v, const Position& pos, Side bottom);

}  // namespace tsuru::play
