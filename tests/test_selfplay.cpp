// A complete game of every rule set, the engine playing both sides through the Engine facade:
// every move it chooses must be legal, and the game must end with a result under the rule set's
// own win and draw rules.
#include <catch2/catch.hpp>

#include "tests/engine_helpers.hpp"

using namespace tsuru;

namespace {

// Far beyond any rule set's game length with its draw rules: a game still going is a bug.
constexpr int kMaxPlies = 1000;

}  // namespace

TEST_CASE("a complete self-play game in every rule set", "[selfplay]") {
  for (Variant v : all_variants()) {
    const test::Played p = test::play_out(Game(v), 3, 16, kMaxPlies);
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
