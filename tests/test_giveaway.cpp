// English giveaway checkers: English moves and captures, and the side that cannot move wins
// (docs/rules.md, "English giveaway checkers"). The moves are English's, so its published perft
// holds; the result, the search and the evaluation turn the goal round, as in antidraughts.
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

TEST_CASE("giveaway: perft equals English's published perft", "[giveaway][perft]") {
  // The English rows of tests/data/perft.tsv (published tables) up to a million nodes: the start
  // position and the published middlegame positions.
  int checked = 0, from_start = 0;
  for (const test::PerftRow& row : test::perft_rows()) {
    if (row.variant != "english" || row.nodes > 1'000'000) continue;
    const auto pos = notation::parse_fen(Variant::Giveaway, row.fen);
    REQUIRE(pos.ok());
    INFO(row.fen << " depth " << row.depth << " (" << row.source << ")");
    const bool keep = row.duplicates == "kept";
    CHECK(perft(Variant::Giveaway, *pos, row.depth, {.bulk = true, .keep_duplicates = keep}) ==
          row.nodes);
    ++checked;
    if (*pos == start_position(Variant::Giveaway)) ++from_start;
  }
  CHECK(checked >= 20);
  CHECK(from_start >= 8);
  // English's start, Black first, on English's board and notation.
  CHECK(start_position(Variant::Giveaway) == fen(Variant::Giveaway, "B:W21-32:B1-12"));
  CHECK(info(Variant::Giveaway).first_to_move == Side::Black);
  CHECK(info(Variant::Giveaway).pdn_game_type == info(Variant::English).pdn_game_type);
}

TEST_CASE("giveaway: the side that cannot move wins", "[giveaway]") {
  const Variant g = Variant::Giveaway, e = Variant::English;
  // No pieces left.
  const Game none(g, fen(g, "W:W:B5"));
  CHECK(none.result().outcome == Outcome::WhiteWins);
  CHECK(none.result().reason == ResultReason::NoLegalMove);
  CHECK(Game(e, fen(e, "W:W:B5")).result().outcome == Outcome::BlackWins);
  // Blocked: White's man on 5 can neither move nor jump forward (1 and 2 are taken, nothing
  // lies beyond them).
  const Game blocked(g, fen(g, "W:W5:B1,2"));
  REQUIRE(blocked.legal_moves().empty());
  CHECK(blocked.result().outcome == Outcome::WhiteWins);
  CHECK(Game(e, fen(e, "W:W5:B1,2")).result().outcome == Outcome::BlackWins);
  // Black to move and blocked.
  const Game black(g, fen(g, "B:W31,32:B28"));
  REQUIRE(black.legal_moves().empty());
  CHECK(black.result().outcome == Outcome::BlackWins);
  // Capture is still compulsory: 22-17 and 22-18 are not legal while 22x15 is.
  const Position capture = fen(g, "W:W22:B18");
  const MoveList moves = legal_moves(g, capture);
  REQUIRE(moves.size() == 1);
  CHECK(moves[0].is_capture());
  CHECK(notation::format_move(g, moves[0]).rfind("22x15", 0) == 0);  // 22x15, taking 18
  // The search knows it: White's last man must step next to Black's on 14 (22-17 or 22-18) and
  // be taken, which wins two plies on (a loss in English).
  const test::Analysis won = test::analyse(Game(g, fen(g, "W:W22:B14")), 4);
  REQUIRE(won.best.has_move);
  CHECK(won.last.score == win_in(2));
  CHECK(test::analyse(Game(e, fen(e, "W:W22:B14")), 4).last.score == loss_in(2));
}

TEST_CASE("giveaway: the search gives pieces away", "[giveaway][search]") {
  const Variant g = Variant::Giveaway, e = Variant::English;
  // White may give its man on 22 away (22-18, taken at once by 15x22) or play the quiet
  // 29-25. Giveaway gives it away; English keeps it.
  const std::string text = "W:W22,29:B15,4";
  const test::Analysis give = test::analyse(Game(g, fen(g, text)), 6);
  REQUIRE(give.best.has_move);
  INFO("giveaway " << give.best_text);
  const Position after = fen(g, text).after(give.best.move);
  const MoveList replies = legal_moves(g, after);
  REQUIRE_FALSE(replies.empty());
  CHECK(std::all_of(replies.begin(), replies.end(), [](const Move& m) { return m.is_capture(); }));
  const test::Analysis normal = test::analyse(Game(e, fen(e, text)), 6);
  INFO("english " << normal.best_text);
  const MoveList english_replies = legal_moves(e, fen(e, text).after(normal.best.move));
  CHECK(std::none_of(english_replies.begin(), english_replies.end(),
                     [](const Move& m) { return m.is_capture(); }));
  test::check_losing_self_play(Game(g));
}

TEST_CASE("giveaway: evaluation counts material and moves against", "[giveaway][eval]") {
  const Variant g = Variant::Giveaway;
  // White a man down is better off (the side to move's view), on the 8x8 board.
  CHECK(eval::evaluate<GiveawayRules>(fen(g, "W:W22-32:B1-12")) > 50);
  CHECK(eval::evaluate<GiveawayRules>(fen(g, "B:W22-32:B1-12")) < -50);
  // The start is balanced.
  CHECK(eval::evaluate<GiveawayRules>(start_position(g)) == 0);
  // English's draw rules: 40 moves each without a man move or capture.
  CHECK(Game(g, fen(g, "W:WK1,K2,K3:BK30")).result().plies_left ==
        Game(Variant::English, fen(Variant::English, "W:WK1,K2,K3:BK30")).result().plies_left);
}
