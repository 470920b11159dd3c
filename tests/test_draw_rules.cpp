// Every automatic draw rule of docs/rules.md, through Game (history + counters + result).
#include <catch2/catch.hpp>

#include "tests/engine_helpers.hpp"
#include "tests/king_walk.hpp"

using namespace tsuru;
using test::fen;
using test::play;
using test::walk_to_draw;

TEST_CASE("threefold repetition, same side to move", "[draw]") {
  Game g(Variant::English, fen(Variant::English, "W:WK1,22:BK32,11"));
  const char* cycle[] = {"1-6", "32-27", "6-1", "27-32"};
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 4; ++i) {
      CHECK(g.result().outcome == Outcome::Ongoing);
      play(g, cycle[i]);
    }
    CHECK(g.repetitions() == round + 2);
  }
  const GameResult r = g.result();
  CHECK(r.outcome == Outcome::Draw);
  CHECK(r.reason == ResultReason::Repetition);
  // Taking a move back undoes the draw.
  g.undo();
  CHECK(g.result().outcome == Outcome::Ongoing);
}

TEST_CASE("a position with the other side to move is not a repetition", "[draw]") {
  // A flying king loses a tempo round a triangle on one line (46-41-37-46): the board comes
  // back with the other side to move.
  const Variant v = Variant::International;
  Game g(v, fen(v, "W:WK46,31,32,33:BK1,16,17,18"));
  const Position start = g.position();
  for (const char* m : {"46-41", "1-7", "41-37", "7-1", "37-46"}) play(g, m);
  CHECK(g.position().pieces(Side::White) == start.pieces(Side::White));
  CHECK(g.position().pieces(Side::Black) == start.pieces(Side::Black));
  CHECK(g.position().turn() != start.turn());
  CHECK(g.repetitions() == 1);
  // The board with the same side to move again counts.
  for (const char* m : {"1-7", "46-41", "7-1", "41-46"}) play(g, m);
  CHECK(g.repetitions() == 2);
}

TEST_CASE("English: 40 moves each without a man move or a capture", "[draw]") {
  Game g(Variant::English, fen(Variant::English, "W:WK29,K30,K31:BK2,K3,K4"));
  REQUIRE(walk_to_draw(g, 80));
  CHECK(g.result().reason == ResultReason::ReversibleMoves);
  g.undo();
  CHECK(g.result().plies_left == 1);
}

TEST_CASE("a man move or a capture resets the move-count rules", "[draw]") {
  Game g(Variant::English, fen(Variant::English, "W:WK29,21:BK4,12"));
  play(g, "29-25");
  play(g, "4-8");
  CHECK(g.draw_state().reversible == 2);
  CHECK(g.result().plies_left == 78);
  play(g, "21-17");  // a man moves
  CHECK(g.draw_state().reversible == 0);
  CHECK(g.result().plies_left == 80);
}

TEST_CASE("English: the 400-move cap and the start position's counters", "[draw]") {
  CHECK(Game(Variant::English).result().plies_left == 80);
  DrawState late;
  late.plies = 399;
  Game g(Variant::English, start_position(Variant::English), late);
  CHECK(g.result().outcome == Outcome::Ongoing);
  CHECK(g.result().plies_left == 1);
  play(g, "9-13");
  CHECK(g.result().outcome == Outcome::Draw);
  CHECK(g.result().reason == ResultReason::MoveCap);
  Game uncapped(Variant::English, start_position(Variant::English), late, {.move_cap = false});
  play(uncapped, "9-13");
  CHECK(uncapped.result().outcome == Outcome::Ongoing);
}

TEST_CASE("English: one king each is a draw only when the option is on", "[draw]") {
  const Position p = fen(Variant::English, "B:WK32:BK1");
  CHECK(Game(Variant::English, p).result().outcome == Outcome::Ongoing);
  const GameResult r = Game(Variant::English, p, {.one_king_each_draw = true}).result();
  CHECK(r.outcome == Outcome::Draw);
  CHECK(r.reason == ResultReason::OneKingEach);
  CHECK(Game(Variant::English, fen(Variant::English, "B:WK32,25:BK1"), {.one_king_each_draw = true})
            .result()
            .outcome == Outcome::Ongoing);
}

TEST_CASE("international: 25 moves each with only kings moving", "[draw]") {
  Game g(Variant::International,
         fen(Variant::International, "W:WK47,K50,28,32,37,41,46:BK1,K4,5,10,14,19,23"));
  REQUIRE(walk_to_draw(g, 50));
  CHECK(g.result().reason == ResultReason::ReversibleMoves);
  g.undo();
  CHECK(g.result().plies_left == 1);
}

TEST_CASE("international: 16 moves each for three pieces with a king against a lone king",
          "[draw]") {
  const Variant v = Variant::International;
  for (const char* start : {"W:WK47,K48,K49:BK1", "W:WK47,K48,36:BK1", "W:WK47,36,37:BK1"}) {
    INFO(start);
    Game g(v, fen(v, start));
    CHECK(g.result().plies_left == 32);
    // Keep the lone king off the long diagonal (that clause is tested below).
    auto counting = [](const Game& x) {
      return x.result().plies_left + x.draw_state().plies == 32;
    };
    REQUIRE(walk_to_draw(g, 32, counting));
    CHECK(g.result().reason == ResultReason::EndgameLimit);
    g.undo();
    CHECK(g.result().plies_left == 1);
  }
}

TEST_CASE("international: 5 moves each for two pieces with a king against a lone king", "[draw]") {
  const Variant v = Variant::International;
  for (const char* start : {"W:WK47,K48:BK1", "W:WK47,36:BK1", "W:WK47:BK1"}) {
    INFO(start);
    Game g(v, fen(v, start));
    CHECK(g.result().plies_left == 10);
    REQUIRE(walk_to_draw(g, 10));
    CHECK(g.result().reason == ResultReason::EndgameLimit);
  }
  // Three men and no king against a king: no limit (the men must still promote).
  CHECK(Game(v, fen(v, "W:W36,37,38:BK1")).result().plies_left == 50);
}

TEST_CASE("international: the long-diagonal clause", "[draw]") {
  const Variant v = Variant::International;
  // The lone king holds the long diagonal and White has nothing on it: 5 moves from then.
  CHECK(Game(v, fen(v, "W:WK47,K48,K49:BK5")).result().plies_left == 10);
  // White on the long diagonal (46): the 16-move limit.
  CHECK(Game(v, fen(v, "W:WK46,K48,K49:BK5")).result().plies_left == 32);
  // The lone king moves onto the diagonal: 5 moves from then.
  Game g(v, fen(v, "B:WK47,K48,K49:BK1"));
  CHECK(g.result().plies_left == 32);
  play(g, "1-23");
  CHECK(g.result().plies_left == 10);
}

TEST_CASE("international: 3 v 1 falling to 2 v 1 counts 5 moves, never beyond 16", "[draw]") {
  const Variant v = Variant::International;
  const Position p = fen(v, "B:WK7,K47,K48:BK1");
  Game fresh(v, p);
  CHECK(fresh.result().plies_left == 32);
  play(fresh, "1x12x7");
  CHECK(fresh.result().plies_left == 10);
  // The same capture when only 3 plies of the 16-move limit remain.
  DrawState running;
  running.endgame_class = 1;
  running.endgame_left = 3;
  Game late(v, p, running);
  play(late, "1x12x7");
  CHECK(late.result().plies_left == 2);
}

TEST_CASE("international: winning on the last move of a limit is a win", "[draw]") {
  const Variant v = Variant::International;
  DrawState last;
  last.endgame_class = 1;
  last.endgame_left = 1;
  const Position p = fen(v, "W:WK1,K47,K48:BK7");
  Game win(v, p, last);
  play(win, "1x12x7");
  CHECK(win.result().outcome == Outcome::WhiteWins);
  CHECK(win.result().reason == ResultReason::NoLegalMove);
  // Without a capture on the last move, the limit draws.
  Game draw(v, fen(v, "W:WK47,K48,K49:BK1"), last);
  play(draw, "47-42");
  CHECK(draw.result().outcome == Outcome::Draw);
  CHECK(draw.result().reason == ResultReason::EndgameLimit);
}

TEST_CASE("no legal move loses: no pieces, or all blocked", "[draw]") {
  // Black's only man on 5... is blocked by white men 9 and 10 with 13 and 14 behind them? Use
  // English: black man on 4 blocked by white 8 with 11 behind it.
  const Position blocked = fen(Variant::English, "B:W8,11,12:B4");
  const GameResult r = Game(Variant::English, blocked).result();
  CHECK(r.outcome == Outcome::WhiteWins);
  CHECK(r.reason == ResultReason::NoLegalMove);
}
