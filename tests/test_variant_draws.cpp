// The draw rules and results of the rule sets beyond English and international draughts
// (draw_rules.hpp cites each federation's text), through Game.
#include <initializer_list>

#include <catch2/catch.hpp>

#include "tests/engine_helpers.hpp"
#include "tests/king_walk.hpp"

using namespace tsuru;
using test::fen;
using test::king_walk;
using test::play;
using test::walk_to_draw;

namespace {

bool ongoing(const Game& g) {
  return g.result().outcome == Outcome::Ongoing;
}

}  // namespace

TEST_CASE("FMJD-64 (Russian, Brazilian): 15 moves each with only kings moving", "[draw]") {
  // Both sides have a king and a man: the kings alone move 30 plies.
  Game g(Variant::Russian, fen(Variant::Russian, "W:WK30,21:BK3,12"));
  CHECK(g.result().plies_left == 30);
  CHECK(walk_to_draw(g, 30, ResultReason::ReversibleMoves));
}

TEST_CASE("FMJD-64 7.2.8: two pieces with a king against a lone king, 5 moves each", "[draw]") {
  for (Variant v : {Variant::Russian, Variant::Brazilian}) {
    Game g(v, fen(v, "W:WK29,K32:BK1"));
    CHECK(g.result().plies_left == 10);
    CHECK(walk_to_draw(g, 10, ResultReason::EndgameLimit));
  }
}

TEST_CASE("FMJD-64 7.2.7: three pieces against a lone king on the long diagonal", "[draw]") {
  // King and two men against a king on e5 (15), on the long diagonal a1-h8: 5 moves each, even
  // if the lone king leaves the diagonal.
  Game on(Variant::Russian, fen(Variant::Russian, "W:WK32,20,21:BK15"));
  CHECK(on.result().plies_left == 10);
  CHECK(walk_to_draw(on, 10, ResultReason::EndgameLimit));
  // Off the diagonal (b8 = 1) only the 15-move king rule limits the game.
  Game off(Variant::Russian, fen(Variant::Russian, "W:WK32,20,21:BK1"));
  CHECK(off.result().plies_left == 30);
}

TEST_CASE("FMJD-64 7.2.4: three kings against a lone king, 15 moves each", "[draw]") {
  Game g(Variant::Russian, fen(Variant::Russian, "W:WK29,K30,K31:BK1"));
  CHECK(g.draw_state().endgame_left == 30);
  CHECK(walk_to_draw(g, 30, ResultReason::ReversibleMoves));  // 7.2.5 expires on the same ply
}

TEST_CASE("FMJD-64 7.2.6: kings on both sides, balance unchanged for 30 moves each", "[draw]") {
  // A king and a man each (4 pieces): 60 plies without a capture or a crowning, man moves
  // included. King moves fill the plies between man moves, which keep the 15-move king rule
  // from ending the game first; the last two plies are man moves.
  Game g(Variant::Russian, fen(Variant::Russian, "W:WK30,21:BK3,12"));
  CHECK(g.draw_state().endgame_left == 60);
  const auto free = [](const Game& x, const char* square) {
    return !has(x.position().occupied(), *notation::parse_square(Variant::Russian, square));
  };
  // Whether the man moves can follow, none of them leaving a capture to the other side.
  const auto quiet_after = [](const Game& x, std::initializer_list<const char*> men_moves) {
    Position p = x.position();
    for (const char* text : men_moves) {
      const auto m = notation::parse_move(Variant::Russian, p, text);
      if (!m.ok()) return false;
      p = p.after(*m);
      if (has_capture(Variant::Russian, p)) return false;
    }
    return true;
  };
  std::size_t start = g.moves().size();
  REQUIRE(king_walk(g, 28, [&](const Game& x) {
    return ongoing(x) && free(x, "17") && free(x, "16") && free(x, "13") && free(x, "20") &&
           (x.moves().size() - start < 28 || quiet_after(x, {"21-17"}));
  }));
  play(g, "21-17");
  CHECK(g.draw_state().endgame_left == 31);
  start = g.moves().size();
  REQUIRE(king_walk(g, 28, [&](const Game& x) {
    return ongoing(x) && free(x, "16") && free(x, "13") && free(x, "20") &&
           (x.moves().size() - start < 28 || quiet_after(x, {"12-16", "17-13"}));
  }));
  play(g, "12-16");
  play(g, "17-13");
  CHECK(g.draw_state().reversible == 0);
  CHECK(g.result().outcome == Outcome::Ongoing);
  CHECK(g.result().plies_left == 1);
  play(g, "16-20");
  CHECK(g.result().outcome == Outcome::Draw);
  CHECK(g.result().reason == ResultReason::EndgameLimit);
}

TEST_CASE("pool: three kings against one king, 13 moves each", "[draw]") {
  Game g(Variant::Pool, fen(Variant::Pool, "W:WK29,K30,K31:BK1"));
  CHECK(g.result().plies_left == 26);
  CHECK(walk_to_draw(g, 26, ResultReason::EndgameLimit));
  // Two kings against one: no limit but the 15-move rule.
  CHECK(Game(Variant::Pool, fen(Variant::Pool, "W:WK29,K30:BK1")).result().plies_left == 30);
}

TEST_CASE("Spanish: three kings against one king, 12 moves each", "[draw]") {
  Game g(Variant::Spanish, fen(Variant::Spanish, "W:WK29,K30,K31:BK1"));
  CHECK(g.result().plies_left == 24);
  CHECK(walk_to_draw(g, 24, ResultReason::EndgameLimit));
}

TEST_CASE("Frisian: two kings against one 7 moves each, one king each 2 moves each", "[draw]") {
  // (Kings on one line could take each other, orthogonally too: these stand apart.)
  Game two(Variant::Frisian, fen(Variant::Frisian, "W:WK47,K49:BK2"));
  CHECK(two.result().plies_left == 14);
  CHECK(walk_to_draw(two, 14, ResultReason::EndgameLimit));
  Game one(Variant::Frisian, fen(Variant::Frisian, "W:WK47:BK2"));
  CHECK(one.result().plies_left == 4);
  CHECK(walk_to_draw(one, 4, ResultReason::EndgameLimit));
}

TEST_CASE("Turkish: one piece each is a draw at once", "[draw]") {
  // White's king must take d5, which leaves one piece each.
  Game g(Variant::Turkish, fen(Variant::Turkish, "W:WKd1:Bd5,h7"));
  CHECK(ongoing(g));
  play(g, "d1xd6xd5");
  const GameResult r = g.result();
  CHECK(r.outcome == Outcome::Draw);
  CHECK(r.reason == ResultReason::OnePieceEach);
  // Even a king against a man.
  CHECK(Game(Variant::Turkish, fen(Variant::Turkish, "W:WKd4:Bh7")).result().reason ==
        ResultReason::OnePieceEach);
}

TEST_CASE("Italian: the fourth occurrence draws; 40 moves each without man move", "[draw]") {
  // Light-a1 numbering: 29 = b1, 25 = a2, 4 = g8, 8 = h7.
  Game g(Variant::Italian, fen(Variant::Italian, "W:WK29:BK4"));
  const char* cycle[] = {"29-25", "4-8", "25-29", "8-4"};
  for (int round = 0; round < 3; ++round) {
    for (const char* m : cycle) {
      CHECK(ongoing(g));
      play(g, m);
    }
    CHECK(g.repetitions() == round + 2);
  }
  CHECK(g.result().reason == ResultReason::Repetition);
  // The third occurrence does not draw (it would in English).
  for (int i = 0; i < 4; ++i) g.undo();
  CHECK(g.repetitions() == 3);
  CHECK(ongoing(g));

  Game walk(Variant::Italian, fen(Variant::Italian, "W:WK29,K30:BK3,K4"));
  CHECK(walk.result().plies_left == 80);
  CHECK(walk_to_draw(walk, 80, ResultReason::ReversibleMoves));
}

TEST_CASE("Czech and Thai: repetition is the only automatic draw", "[draw]") {
  for (Variant v : {Variant::Czech, Variant::Thai}) {
    Game g(v, fen(v, "W:WK29,K30,K31:BK1"));
    CHECK(g.result().plies_left == -1);
    REQUIRE(king_walk(g, 60, ongoing));
  }
}

TEST_CASE("Breakthrough: the first king wins", "[draw]") {
  // BT-1: every white move crowns.
  Game g(Variant::Breakthrough, fen(Variant::Breakthrough, "W:W6,7,8,9,10:B41,42,43,44,45"));
  CHECK(ongoing(g));
  play(g, "6-1");
  GameResult r = g.result();
  CHECK(r.outcome == Outcome::WhiteWins);
  CHECK(r.reason == ResultReason::KingReached);
  CHECK(g.legal_moves().empty());
  // Black crowning wins for Black, even with pieces left to White.
  Game b(Variant::Breakthrough, fen(Variant::Breakthrough, "B:W6,7:B45"));
  play(b, "45-50");
  r = b.result();
  CHECK(r.outcome == Outcome::BlackWins);
  CHECK(r.reason == ResultReason::KingReached);
  // A capture that ends on the back row crowns and wins too.
  Game c(Variant::Breakthrough, fen(Variant::Breakthrough, "W:W12,40:B7,45"));
  play(c, "12x1");
  CHECK(c.result().outcome == Outcome::WhiteWins);
}
