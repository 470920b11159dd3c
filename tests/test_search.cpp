// What the search finds: shots, forced wins, draws by rule inside the tree, drawn endings.
#include <catch2/catch.hpp>

#include "engine/rules/score.hpp"
#include "tests/engine_helpers.hpp"

using namespace tsuru;
using test::analyse;
using test::fen;
using test::play_out;

TEST_CASE("English shot: give one, take two", "[search]") {
  // 22-18 forces 15x22 (or 14x23), then 26x17x10 (or 26x19x10) takes two; the man on 31 stops
  // 15x22 from going on over 26.
  const auto a = analyse(Variant::English, "W:W22,26,30,31:B1,14,15", 6);
  CHECK(a.best_text == "22-18");
  CHECK(a.last.score >= 80);
}

TEST_CASE("International shot: give one, take two", "[search]") {
  // 33-28 forces 22x33 or 23x32; 39x28x19 or 38x27x18 takes two back. Six against three is won
  // anyway, and the trained evaluation prefers the quiet 38-32 at this depth: the shot is the
  // search's to find, so the classic evaluation (eval-file empty) judges it.
  const auto a = analyse(Variant::International, "W:W33,38,39,42,43,44:B5,22,23", 6, "");
  CHECK(a.best_text == "33-28");
  CHECK(a.last.score >= 80);
}

TEST_CASE("a forced win is reported as the distance in plies", "[search]") {
  // White captures the last black piece: a win in one ply.
  const auto a = analyse(Variant::English, "W:W22:B18", 4);
  CHECK(a.best_text == "22x15x18");
  CHECK(a.last.score == win_in(1));
  // Black to move with every move losing at once... a lone man facing a capture: after 11-15 or
  // 11-16 White takes it (the only black piece) — a loss in two plies.
  const auto l = analyse(Variant::English, "B:W19,20:B11", 6);
  CHECK(l.last.score == loss_in(2));
}

TEST_CASE("drawn endings score near zero", "[search]") {
  CHECK(std::abs(analyse(Variant::English, "W:WK1:BK32", 10).last.score) <= 20);
  CHECK(std::abs(analyse(Variant::International, "W:WK47,K48:BK1", 8).last.score) <= 20);
  // Three kings against a king that holds the long diagonal.
  CHECK(std::abs(analyse(Variant::International, "W:WK47,K48,K49:BK28", 8).last.score) <= 20);
  CHECK(std::abs(analyse(Variant::International, "W:WK1,K2,K3:BK28", 8).last.score) <= 20);
}

TEST_CASE("a repetition inside the tree is a draw", "[search]") {
  // White is two men up. Black's king can go back to 32 and complete a threefold repetition.
  const Variant v = Variant::English;
  Game g(v, fen(v, "W:WK1,21,25:BK32"));
  for (const char* m : {"1-6", "32-27", "6-1", "27-32", "1-6", "32-27", "6-1"})
    REQUIRE(g.play(test::move(v, g.position(), m)));
  REQUIRE(g.position().turn() == Side::Black);
  const auto a = analyse(g, 8);
  CHECK(a.best_text == "27-32");
  CHECK(a.last.score == 0);
}

TEST_CASE("the move-count rules are applied inside the tree", "[search]") {
  const Variant v = Variant::English;
  DrawState late;
  late.reversible = 79;  // one more king move and the 40-move rule draws
  // White is far ahead and has a man to move: it must move the man.
  const auto man = analyse(Game(v, fen(v, "W:WK1,K3,22:BK32"), late), 6);
  CHECK(man.best_text.rfind("22-", 0) == 0);
  CHECK(man.last.score > 100);
  // Only kings: every move draws.
  const auto kings = analyse(Game(v, fen(v, "W:WK1,K3:BK32"), late), 6);
  CHECK(kings.last.score == 0);
}

TEST_CASE("searches are deterministic", "[search]") {
  for (Variant v : all_variants()) {
    const Game g(v);
    const auto a = analyse(g, 7);
    const auto b = analyse(g, 7);
    CHECK(a.last.nodes == b.last.nodes);
    CHECK(a.best.move == b.best.move);
    CHECK(a.last.score == b.last.score);
  }
}

TEST_CASE("won king endings are converted", "[search]") {
  // English: two kings against one must be won before the 40-move rule.
  const GameResult english =
      play_out(Game(Variant::English, fen(Variant::English, "W:WK14,K15:BK28")), 12).game.result();
  CHECK(english.outcome == Outcome::WhiteWins);
  // International: four kings against one, before the 25-move kings-only rule.
  const GameResult intl =
      play_out(Game(Variant::International, fen(Variant::International, "W:WK16,K26,K36,K47:BK23")),
               8)
          .game.result();
  CHECK(intl.outcome == Outcome::WhiteWins);
}

namespace {

// Every info report of a multi-PV analysis.
std::vector<SearchInfo> multi_pv_reports(const Game& game, int depth, int k) {
  Engine engine;
  EngineOptions options = test::test_options();
  options.multi_pv = k;
  engine.set_options(options);
  engine.set_position(game);
  SearchLimits limits;
  limits.depth = depth;
  limits.analyze = true;
  std::vector<SearchInfo> reports;
  engine.think(limits, [&](const SearchInfo& info) { reports.push_back(info); });
  return reports;
}

}  // namespace

TEST_CASE("multi-pv: the best k root moves, each with its score and PV, every iteration",
          "[search][multipv]") {
  const Variant v = Variant::English;
  // 22-18 wins two men for one; the other moves win less.
  const Game g(v, fen(v, "W:W22,26,30,31:B1,14,15"));
  const int n = static_cast<int>(g.legal_moves().size());
  REQUIRE(n >= 4);
  const auto reports = multi_pv_reports(g, 6, 3);
  REQUIRE(reports.size() == 6 * 3);
  for (int d = 1; d <= 6; ++d) {
    std::vector<Move> firsts;
    for (int k = 1; k <= 3; ++k) {
      const SearchInfo& r = reports[static_cast<std::size_t>((d - 1) * 3 + k - 1)];
      INFO("depth " << d << " rank " << k);
      CHECK(r.depth == d);
      CHECK(r.rank == k);
      REQUIRE_FALSE(r.pv.empty());
      CHECK(g.legal_moves().contains(r.pv[0]));
      for (const Move& m : firsts) CHECK_FALSE(m == r.pv[0]);  // k different root moves
      firsts.push_back(r.pv[0]);
      if (k > 1) {
        CHECK(r.score <= reports[static_cast<std::size_t>((d - 1) * 3 + k - 2)].score);
      }
    }
  }
  const SearchInfo& best = reports[5 * 3];
  CHECK(notation::format_move(v, best.pv[0]) == "22-18");
  CHECK(best.score >= 80);
  // The second best is a line of its own, worth less, not the best one again.
  CHECK(reports[5 * 3 + 1].score < best.score);
  // The same best move as the normal search, and the same material won. The scores need not be
  // equal: English prunes (ProbCut) and extends (singular moves) by the window, and the lines
  // after the first are searched with windows of their own (with the generation-3 weights:
  // 4.65 men alone, 4.41 with three lines).
  const auto one = analyse(g, 6);
  CHECK(one.best_text == "22-18");
  CHECK(one.last.score >= 80);
  CHECK(std::abs(one.last.score - best.score) < 100);
  CHECK(one.last.rank == 0);

  // More lines asked for than there are moves: one per move.
  const auto all = multi_pv_reports(g, 3, 64);
  CHECK(all.size() == static_cast<std::size_t>(3 * n));
  CHECK(all.back().rank == n);
}
