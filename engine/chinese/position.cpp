#include "engine/chinese/position.hpp"

#include <algorithm>
#include <cassert>

namespace tsuru::chinese {

Position Position::start() {
  return from_sets(kGeometry.start[0], kGeometry.start[1], Side::Red);
}

Position Position::from_sets(Bits red, Bits blue, Side to_move) {
  assert((red & blue) == 0);
  Position p;
  p.pieces_[0] = red;
  p.pieces_[1] = blue;
  p.side_ = to_move;
  for (int s = 0; s < 2; ++s)
    for_each(p.pieces_[s], [&](int q) {
      p.key_ ^= zobrist::kTables.piece[static_cast<std::size_t>(s)][static_cast<std::size_t>(q)];
    });
  if (to_move == Side::Blue) p.key_ ^= zobrist::kTables.blue_to_move;
  return p;
}

void Position::play(Move m) {
  const int s = index(side_);
  assert(pieces_[s] & bit(m.from));
  assert(!(occupied() & bit(m.to)));
  pieces_[s] ^= bit(m.from) | bit(m.to);
  const auto& keys = zobrist::kTables.piece[static_cast<std::size_t>(s)];
  key_ ^= keys[m.from] ^ keys[m.to] ^ zobrist::kTables.blue_to_move;
  side_ = opponent(side_);
}

Position Position::after(Move m) const {
  Position p = *this;
  p.play(m);
  return p;
}

namespace {

// Landings one jump away from `p` over the occupied points.
Bits jumps_from(Bits occupied, int p) {
  Bits out = 0;
  const auto& nb = kGeometry.neighbour[static_cast<std::size_t>(p)];
  for (int d = 0; d < kDirections; ++d) {
    const int over = nb[static_cast<std::size_t>(d)];
    if (over == kNone || !(occupied & bit(over))) continue;
    const int land =
        kGeometry.neighbour[static_cast<std::size_t>(over)][static_cast<std::size_t>(d)];
    if (land != kNone && !(occupied & bit(land))) out |= bit(land);
  }
  return out;
}

}  // namespace

Bits jump_landings(Bits occupied, int from) {
  // The piece is lifted. (It could not serve as a stepping stone anyway: every landing lies an
  // even number of unit steps from the start along each axis, never next to it.)
  occupied &= ~bit(from);
  Bits reached = bit(from);
  Bits frontier = bit(from);
  while (frontier) {
    Bits next = 0;
    for_each(frontier, [&](int p) { next |= jumps_from(occupied, p); });
    next &= ~reached;
    reached |= next;
    frontier = next;
  }
  return reached & ~bit(from);
}

void generate(const Position& pos, MoveList& moves) {
  if (pos.decided()) return;
  const Bits occupied = pos.occupied();
  for_each(pos.pieces(pos.side_to_move()), [&](int from) {
    const auto f = static_cast<std::uint8_t>(from);
    for_each(kGeometry.adjacent[static_cast<std::size_t>(from)] & ~occupied, [&](int to) {
      moves.push(Move{f, static_cast<std::uint8_t>(to), false});
    });
    for_each(jump_landings(occupied, from), [&](int to) {
      moves.push(Move{f, static_cast<std::uint8_t>(to), true});
    });
  });
}

MoveList legal_moves(const Position& pos) {
  MoveList moves;
  generate(pos, moves);
  return moves;
}

std::vector<int> path(const Position& pos, Move m) {
  if (!m.jump) return {m.to};
  // Breadth-first search from the start, remembering each landing's predecessor.
  const Bits occupied = pos.occupied() & ~bit(m.from);
  std::array<int, kPoints> parent;
  parent.fill(-1);
  std::vector<int> queue{m.from};
  Bits reached = bit(m.from);
  for (std::size_t i = 0; i < queue.size() && !(reached & bit(m.to)); ++i) {
    const int p = queue[i];
    for_each(jumps_from(occupied, p) & ~reached, [&](int q) {
      reached |= bit(q);
      parent[static_cast<std::size_t>(q)] = p;
      queue.push_back(q);
    });
  }
  std::vector<int> landings;
  if (!(reached & bit(m.to))) return landings;
  for (int p = m.to; p != m.from; p = parent[static_cast<std::size_t>(p)]) landings.push_back(p);
  std::reverse(landings.begin(), landings.end());
  return landings;
}

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  generate(pos, moves);
  if (depth == 1) return moves.size();
  std::uint64_t n = 0;
  for (const Move& m : moves) n += perft(pos.after(m), depth - 1);
  return n;
}

}  // namespace tsuru::chinese
