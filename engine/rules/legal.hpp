// Run-time entry points to move generation for code that holds a Variant, not a rules trait
// (protocols, tools, notation). Hot loops (search, perft) use MoveGen<R> directly.
#pragma once

#include <vector>

#include "engine/rules/move.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru {

MoveList legal_moves(Variant v, const Position& pos);
bool has_capture(Variant v, const Position& pos);

// One way of playing a move: the squares where the piece stops or turns, ending with `to`.
struct MovePath {
  Move move;
  std::vector<Square> landings;
};
// Paths::All: a move with several capture paths appears once per path. Their number can grow
// exponentially in a contrived position (a Frisian king among 28 pieces: about 190 million), so
// All throws CaptureSearchAborted when a capture guard on the thread expires
// (engine/rules/movegen.hpp; PathBudget below). Paths::OnePerMove: each move once, with one of its
// paths, at the cost of generating the moves.
enum class Paths { All, OnePerMove };
std::vector<MovePath> move_paths(Variant v, const Position& pos, Paths which = Paths::All);

// A capture guard that expires after about `steps` steps of path search on this thread: a
// bound on Paths::All that does not depend on the machine's speed.
class PathBudget final : public CaptureGuard {
 public:
  explicit PathBudget(std::uint64_t steps);
  bool expired() override;

 private:
  std::uint64_t polls_left_;
};

}  // namespace tsuru

namespace tsuru {
// The rule set's initial position.
Position start_position(Variant v);
// A position of rule set v from its pieces (with the history-dependent state the rule set keeps,
// such as the Frisian king-move counts, starting from zero).
Position make_position(Variant v, Bitboard white, Bitboard black, Bitboard kings, Side turn);
}  // namespace tsuru
