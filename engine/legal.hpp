// Run-time entry points to move generation for code that holds a Variant, not a rules trait
// (protocols, tools, notation). Hot loops (search, perft) use MoveGen<R> directly.
#pragma once

#include <vector>

#include "engine/move.hpp"
#include "engine/position.hpp"
#include "engine/variant.hpp"

namespace tsuru {

MoveList legal_moves(Variant v, const Position& pos);
bool has_capture(Variant v, const Position& pos);

// One way of playing a move: the squares where the piece stops or turns, ending with `to`.
// A move with several capture paths appears once per path.
struct MovePath {
  Move move;
  std::vector<Square> landings;
};
std::vector<MovePath> move_paths(Variant v, const Position& pos);

}  // namespace tsuru

namespace tsuru {
// The rule set's initial position.
Position start_position(Variant v);
// A position of rule set v from its pieces (with the history-dependent state the rule set keeps,
// such as the Frisian king-move counts, starting from zero).
Position make_position(Variant v, Bitboard white, Bitboard black, Bitboard kings, Side turn);
}  // namespace tsuru
