// The slices of an endgame database set and the order they are built in.
//
// A slice (index.hpp) holds White-to-move positions; the positions with Black to move are those
// of the mirrored slice (colours swapped), so a slice and its mirror depend on each other through
// every quiet move and are built together: a build unit. A unit depends only on units with fewer
// pieces (a capture) or with the same pieces and one man fewer (a man crowned), so units are
// ordered by pieces, then by men: each unit's dependencies come before it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "eval/egdb/index.hpp"

namespace tsuru::egdb {

// A slice and its mirror (the same slice when the material is symmetric).
struct Unit {
  Slice first;   // the lower code of the two
  Slice second;  // first.mirrored()
  bool symmetric() const { return first == second; }
  int pieces() const { return first.pieces(); }
};

// The unit a slice is built in.
Unit unit_of(const Slice& s);

// Every unit of 2..max_pieces pieces (each side with at least one piece), in build order.
std::vector<Unit> plan(int max_pieces);

// The slices (White to move) a move from a position of s can lead to, other than s: the mover
// keeps its pieces (a man may be crowned), the opponent loses some; seen from the opponent, who
// is then to move.
std::vector<Slice> slices_after(const Slice& s);

// The slices (White to move) a move from a unit's positions can lead to outside the unit: the
// mover keeps its pieces (one man may be crowned), the opponent loses some; seen from the
// opponent, who is then to move. Compact files (format version 2) leave the capture positions
// out and the generator restores them from the slices of fewer pieces their captures lead to,
// so those are needed too, and theirs in turn. Every one of these files must exist before the
// unit is built. Sorted by code, each once.
std::vector<Slice> slices_needed(const Unit& u);
// The units those slices belong to, in plan order: the jobs a unit's job must wait for.
std::vector<Unit> units_needed(const Unit& u);

// Every slice of exactly `pieces` pieces (each side with at least one).
std::vector<Slice> slices_with(int pieces);

// Positions of exactly `pieces` pieces on the board, counted as the Chinook papers count them:
// any split between the colours (a side may have none), no side to move, men never on their own
// crowning row. English: 1 -> 120, 2 -> 6,972, 3 -> 261,224, ...
std::uint64_t legal_positions(const Layout& layout, int pieces);
// Of those, the positions where one side has no piece (the game is over, so no slice holds
// them): a slice set of `pieces` is complete when its valid positions and these add up to
// legal_positions.
std::uint64_t one_sided_positions(const Layout& layout, int pieces);

// The file holding a slice of a rule set: "<rule set>-<wm wk bm bk>.egdb".
std::string file_name(std::string_view rules, const Slice& s);

}  // namespace tsuru::egdb
