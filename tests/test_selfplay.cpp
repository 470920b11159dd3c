// A complete game of every rule set, the engine playing both sides through the Engine facade:
// every move it chooses must be legal, and the game must end with a result under the rule set's
// own win and draw rules.
#include <catch2/catch.hpp>

#include "engine/engine.hpp"
#include "protocol/notation.hpp"

using namespace tsuru;

namespace {

// Far beyond any rule set's game length with its draw rules: a game still going is a bug.
constexpr int kMaxPlies = 1000;

struct Played {
  Game game;
  int plies = 0;
};

Played self_play(Variant v, int depth) {
  Engine engine;
  EngineOptions options;
  options.tt_log2 = 16;
  options.book = false;
  engine.set_options(options);
  engine.new_game();
  Played p{Game(v), 0};
  while (p.game.result().outcome == Outcome::Ongoing && p.plies < kMaxPlies) {
    engine.set_position(p.game);
    SearchLimits limits;
    limits.depth = depth;
    const BestMove best = engine.think(limits);
    INFO(info(v).name << " ply " << p.plies << " " << notation::format_fen(v, p.game.position()));
    REQUIRE(best.has_move);
    REQUIRE(p.game.legal_moves().contains(best.move));
    REQUIRE(p.game.play(best.move));
    ++p.plies;
  }
  return p;
}

}  // namespace

TEST_CASE("a complete self-play game in every rule set", "[selfplay]") {
  for (Variant v : all_variants()) {
    const Played p = self_play(v, 3);
    const GameResult r = p.game.result();
    WARN(info(v).name << ": " << p.plies << " plies, " << describe(r.outcome) << " ("
                      << describe(r.reason) << ")");
    CHECK(r.outcome != Outcome::Ongoing);
    CHECK(p.plies < kMaxPlies);
    // The record replays move by move, each move legal and named the same way again.
    Game replay(v);
    for (const Move& m : p.game.moves()) {
      const std::string text = notation::format_move(v, m);
      const auto parsed = notation::parse_move(v, replay.position(), text);
      REQUIRE(parsed.ok());
      REQUIRE(*parsed == m);
      REQUIRE(replay.play(m));
    }
    CHECK(replay.result().outcome == r.outcome);
    if (v == Variant::Breakthrough && r.reason != ResultReason::Repetition)
      CHECK(r.reason == ResultReason::KingReached);
  }
}
