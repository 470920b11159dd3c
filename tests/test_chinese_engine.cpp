// Chinese checkers: the game's results (win, threefold repetition), the race evaluation, the
// search and the engine facade's levels.
#include <chrono>

#include <catch2/catch.hpp>

#include "engine/chinese/engine.hpp"
#include "engine/chinese/evaluate.hpp"
#include "engine/chinese/notation.hpp"

using namespace tsuru::chinese;
using tsuru::Level;
using tsuru::SearchControl;
using tsuru::SearchLimits;

namespace {

Position fen(const std::string& text) {
  const auto p = parse_fen(text);
  INFO(text);
  REQUIRE(p.ok());
  return *p;
}

Move move(const Position& pos, const std::string& text) {
  const auto m = parse_move(pos, text);
  INFO(text);
  REQUIRE(m.ok());
  return *m;
}

}  // namespace

TEST_CASE("a Chinese checkers game is drawn at the third repetition", "[chinese]") {
  Game game;
  for (int round = 0; round < 2; ++round) {
    for (const char* m : {"113-104", "7-15", "104-113", "15-7"}) {
      REQUIRE(game.result().outcome == Outcome::Ongoing);
      REQUIRE(game.play(move(game.position(), m)));
    }
  }
  CHECK(game.repetitions() == 3);
  CHECK(game.result().outcome == Outcome::Draw);
  CHECK(game.result().reason == Reason::Repetition);
  CHECK_FALSE(game.play(move(game.position(), "113-104")));
}

TEST_CASE("a Chinese checkers game ends when all ten are home", "[chinese]") {
  Game game(fen("R:R1,2,3,4,5,6,7,8,9,19:B57,58,59,60,61,62,63,64,65,66"));
  CHECK_FALSE(game.play(Move{18, 5, false}));  // not a legal move
  REQUIRE(game.play(move(game.position(), "19-10")));
  CHECK(game.result().outcome == Outcome::RedWins);
  CHECK(game.result().reason == Reason::AllHome);
}

TEST_CASE("the race count is the fewest moves home of each piece", "[chinese]") {
  // A lone piece on the centre point: five steps to the goal's front row.
  CHECK(moves_home(fen("R:R61:B121"), Side::Red, 60) == 5);
  // A stone ahead saves one move: 61x40, then three steps.
  CHECK(moves_home(fen("R:R61,51:B121"), Side::Red, 60) == 4);
  CHECK(moves_home(fen("R:R10:B121"), Side::Red, 9) == 0);
  CHECK(is_race(fen("R:R61,51:B121")));
  CHECK_FALSE(is_race(Position::start()));
  // Red to move needs 1, Blue 2: Red is winning the race.
  const Position race = fen("R:R1,2,3,4,5,6,7,8,9,19:B112,113,114,115,116,117,118,119,110,109");
  CHECK(is_race(race));
  CHECK(race_moves(race, Side::Red) == 1);
  CHECK(evaluate(race) > 0);
}

TEST_CASE("the Chinese checkers search plays the winning move", "[chinese]") {
  Game game(fen("R:R1,2,3,4,5,6,7,8,9,19:B57,58,59,60,61,62,63,64,65,66"));
  TranspositionTable tt(12);
  SearchControl control;
  control.reset();
  Search search(tt, control);
  const SearchResult r = search.run(game, 3, 0, {});
  REQUIRE(r.has_move);
  CHECK(format_move(game.position(), r.move) == "19-10");
  CHECK(r.score == tsuru::win_in(1));
}

TEST_CASE("the Chinese checkers engine's levels", "[chinese]") {
  Engine engine;
  Game game;
  SECTION("beginner and medium play legal moves, deterministically for a seed") {
    for (const Level level : {Level::Beginner, Level::Medium}) {
      std::vector<Move> first, second;
      for (std::vector<Move>* record : {&first, &second}) {
        EngineOptions o;
        o.level = level;
        o.seed = 7;
        engine.set_options(o);
        engine.new_game();
        Game g;
        for (int ply = 0; ply < 12; ++ply) {
          engine.set_position(g);
          const BestMove b = engine.think({});
          REQUIRE(b.has_move);
          REQUIRE(g.play(b.move));
          record->push_back(b.move);
        }
      }
      CHECK(first == second);
    }
  }
  SECTION("medium searches its fixed depth") {
    EngineOptions o;
    o.level = Level::Medium;
    engine.set_options(o);
    engine.set_position(game);
    int depth = 0;
    engine.think({}, [&](const SearchInfo& i) { depth = i.depth; });
    CHECK(depth == kMediumDepth);
  }
  SECTION("hard answers within its 1.5 s") {
    EngineOptions o;
    o.level = Level::Hard;
    engine.set_options(o);
    engine.set_position(game);
    const auto start = std::chrono::steady_clock::now();
    const BestMove b = engine.think({});
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(b.has_move);
    // A margin for a loaded machine: without the level the search would run to its maximum depth.
    CHECK(secs < 1.5 + 1.0);
  }
  SECTION("stop ends an infinite search with a move") {
    engine.set_position(game);
    SearchLimits l;
    l.infinite = true;
    BestMove best;
    engine.go(l, {}, [&](const BestMove& b) { best = b; });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    engine.stop();
    engine.wait();
    CHECK(best.has_move);
  }
  SECTION("a finished game has no move") {
    engine.set_position(Game(fen("R:R57:B112,113,114,115,116,117,118,119,120,121")));
    CHECK_FALSE(engine.think({}).has_move);
  }
}
