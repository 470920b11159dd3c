// The Chinese checkers evaluation, in centi-rows from the side to move's point of view
// (docs/chinese.md, "Search and evaluation").
//
// While the armies can still meet: each side's distance to its goal (the rows its pieces still
// have to travel, 10 a row), the last piece weighted again (6 a row), a penalty for pieces more
// than three rows behind their army's mean (8 a row), and a small one for pieces off the
// star's long axis (the side triangles are detours), and 20 for the side to move (the tempo).
//
// Once they cannot (every Red piece on a row above every Blue piece: with forward play neither
// can use the other's pieces again), the game is a race and the evaluation counts moves: for
// each piece outside its goal, the fewest moves that bring it to a free goal point with every
// other piece standing still (a breadth-first search over steps and jump chains on the current
// board). That count is exact for a side's last piece when the others stay put; for several
// pieces the sum is an estimate (pieces can open jumps for each other, or need the same hole).
// The side to move wins a race it needs no more moves for than the other side.
#pragma once

#include "engine/chinese/position.hpp"
#include "engine/rules/score.hpp"

namespace tsuru::chinese {

// Every Red piece strictly above every Blue piece.
bool is_race(const Position& pos);
// Fewest moves that bring the piece on `from` (of side s) to a free point of s's goal with all
// other pieces fixed; 0 when it is there already; -1 when no sequence of its own moves does.
int moves_home(const Position& pos, Side s, int from);
// The race count of side s: the sum of moves_home over its pieces (an unreachable goal counts
// its step distance plus two, a shuffle to open it).
int race_moves(const Position& pos, Side s);

Score evaluate(const Position& pos);

}  // namespace tsuru::chinese
