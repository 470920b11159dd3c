// Antidraughts: FMJD moves and captures, and the side that cannot move wins (docs/rules.md,
// "Antidraughts"). The moves are international's, so its published perft holds; the result, the
// search and the evaluation turn the goal round.
#include <algorithm>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "engine/rules/perft.hpp"
#include "eval/eval.hpp"
#include "tests/engine_helpers.hpp"
#include "tests/reference_data.hpp"

using namespace tsuru;
using test::fen;

TEST_CASE("antidraughts: perft equals international's published perft", "[antidraughts][perft]") {
  // The international rows of tests/data/perft.tsv (published tables), up to a few million
  // nodes: the start position and the published middlegame and king positions.
  int checked = 0, from_start = 0;
  const std::string start =
      notation::format_fen(Variant::International, start_position(Variant::International));
  for (const test::PerftRow& row : test::perft_rows()) {
    if (row.variant != "international" || row.nodes > 3'000'000) continue;
    const auto pos = notation::parse_fen(Variant::Antidraughts, row.fen);
    REQUIRE(pos.ok());
    INFO(row.fen << " depth " << row.depth << " (" << row.source << ")");
    const bool keep = row.duplicates == "kept";
    CHECK(perft(Variant::Antidraughts, *pos, row.depth, {.bulk = true, .keep_duplicates = keep}) ==
          row.nodes);
    ++checked;
    if (*pos == start_position(Variant::Antidraughts)) ++from_start;
  }
  CHECK(checked >= 20);
  CHECK(from_start >= 5);
  CHECK(start ==
        notation::format_fen(Variant::Antidraughts, start_position(Variant::Antidraughts)));
}

TEST_CASE("antidraughts: the side that cannot move wins", "[antidraughts]") {
  const Variant a = Variant::Antidraughts, i = Variant::International;
  // No pieces left.
  const Game none(a, fen(a, "W:W:B5"));
  CHECK(none.result().outcome == Outcome::WhiteWins);
  CHECK(none.result().reason == ResultReason::NoLegalMove);
  CHECK(Game(i, fen(i, "W:W:B5")).result().outcome == Outcome::BlackWins);
  // Blocked: White's man on 46 can neither move to 41 nor take it (37 is taken).
  const Game blocked(a, fen(a, "W:W46:B37,41"));
  REQUIRE(blocked.legal_moves().empty());
  CHECK(blocked.result().outcome == Outcome::WhiteWins);
  CHECK(Game(i, fen(i, "W:W46:B37,41")).result().outcome == Outcome::BlackWins);
  // Black to move and blocked.
  CHECK(Game(a, fen(a, "B:W14,10:B5")).result().outcome == Outcome::BlackWins);
  // The search knows it: a blocked side to move has no move and a won game...
  const test::Analysis done = test::analyse(blocked, 3);
  CHECK_FALSE(done.best.has_move);
  // ... and White's last man, given away, wins two plies on (a loss in international).
  const Game last(a, fen(a, "W:W32:B22"));
  const test::Analysis won = test::analyse(last, 4);
  REQUIRE(won.best.has_move);
  CHECK(won.last.score == win_in(2));
  const test::Analysis lost = test::analyse(Game(i, fen(i, "W:W32:B22")), 4);
  CHECK(lost.last.score == loss_in(2));
}

TEST_CASE("antidraughts: the search gives pieces away", "[antidraughts][search]") {
  const Variant a = Variant::Antidraughts, i = Variant::International;
  // White may give its man on 32 away (32-27, taken by 21x32, then 33-28 gives the last one:
  // White has no piece and wins) or keep both men (32-28, 33-28, 33-29). Antidraughts gives it
  // away, and the win is forced, whatever the evaluation; international keeps its men.
  const std::string text = "W:W32,33:B17,21";
  // Black's replies to the move a search chose (captures are compulsory: all or none capture).
  auto replies_to = [&](Variant v, const test::Analysis& chosen) {
    const MoveList replies = legal_moves(v, fen(v, text).after(chosen.best.move));
    REQUIRE_FALSE(replies.empty());
    return replies;
  };
  const test::Analysis anti = test::analyse(Game(a, fen(a, text)), 6);
  REQUIRE(anti.best.has_move);
  INFO("antidraughts " << anti.best_text);
  CHECK(anti.best_text == "32-27");
  CHECK(anti.last.score == win_in(4));
  const MoveList replies = replies_to(a, anti);
  CHECK(std::all_of(replies.begin(), replies.end(), [](const Move& m) { return m.is_capture(); }));
  const test::Analysis normal = test::analyse(Game(i, fen(i, text)), 6);
  REQUIRE(normal.best.has_move);
  INFO("international " << normal.best_text);
  CHECK_FALSE(replies_to(i, normal)[0].is_capture());
  test::check_losing_self_play(Game(a));
}

TEST_CASE("antidraughts: evaluation counts material and moves against", "[antidraughts][eval]") {
  const Variant a = Variant::Antidraughts;
  // White a man down is better off (the side to move's view).
  CHECK(eval::evaluate<AntidraughtsRules>(fen(a, "W:W31-49:B1-20")) > 50);
  CHECK(eval::evaluate<AntidraughtsRules>(fen(a, "B:W31-49:B1-20")) < -50);
  // The start is balanced.
  CHECK(eval::evaluate<AntidraughtsRules>(start_position(a)) == 0);
  // Draw rules: the FMJD 25-move kings-only rule applies, the 16-move endgame limit of three
  // kings against one (which measures whether they can force a win) does not.
  const std::string three = "W:WK46,K47,K48:BK5";
  CHECK(Game(a, fen(a, three)).result().plies_left == 50);
  CHECK(Game(Variant::International, fen(Variant::International, three)).result().plies_left == 32);
}
