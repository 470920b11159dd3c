// Quiet king moves that run a game into its move-count draw rules, for the draw-rule tests.
#pragma once

#include <functional>

#include "engine/rules/game.hpp"

namespace tsuru::test {

using GameCheck = std::function<bool(const Game&)>;

// Extends g by `plies` quiet king moves that never repeat a position of the game and keep
// `accept` (when given) true after each of them; false, with g unchanged, when there are none.
// Depth first; a position where a capture is compulsory is a dead end.
bool king_walk(Game& g, int plies, const GameCheck& accept = {});

// Walks `plies` quiet king moves: the game stays undecided until the last of them and is drawn
// right after it, and `also` (when given) holds after each of them.
bool walk_to_draw(Game& g, int plies, const GameCheck& also = {});
// The same, drawn by `reason`.
bool walk_to_draw(Game& g, int plies, ResultReason reason);

}  // namespace tsuru::test
