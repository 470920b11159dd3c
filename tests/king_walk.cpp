#include "tests/king_walk.hpp"

#include <optional>
#include <set>

namespace tsuru::test {
namespace {

bool walk(Game& g, int plies, const GameCheck& accept, std::set<Key>& seen) {
  if (plies == 0) return true;
  for (const Move& m : g.legal_moves()) {
    if (m.is_capture() || !has(g.position().kings(), m.from)) continue;
    const Position next = g.position().after(m);
    if (seen.count(next.key())) continue;
    g.play(m);
    seen.insert(next.key());
    if ((!accept || accept(g)) && walk(g, plies - 1, accept, seen)) return true;
    seen.erase(next.key());
    g.undo();
  }
  return false;
}

bool draw_walk(Game& g, int plies, std::optional<ResultReason> reason, const GameCheck& also) {
  const std::size_t start = g.moves().size();
  return king_walk(g, plies, [&](const Game& x) {
    const bool last = x.moves().size() - start == static_cast<std::size_t>(plies);
    const GameResult r = x.result();
    if (r.outcome != (last ? Outcome::Draw : Outcome::Ongoing)) return false;
    if (last && reason && r.reason != *reason) return false;
    return !also || also(x);
  });
}

}  // namespace

bool king_walk(Game& g, int plies, const GameCheck& accept) {
  std::set<Key> seen;
  for (const Position& p : g.positions()) seen.insert(p.key());
  return walk(g, plies, accept, seen);
}

bool walk_to_draw(Game& g, int plies, const GameCheck& also) {
  return draw_walk(g, plies, std::nullopt, also);
}

bool walk_to_draw(Game& g, int plies, ResultReason reason) {
  return draw_walk(g, plies, reason, {});
}

}  // namespace tsuru::test
