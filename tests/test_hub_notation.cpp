// Hub positions and moves, and the 8x8 conventions pydraughts uses (its HubEngine writes the
// English board turned round: the first player, Black, as W on the high squares, h = 33 - n,
// but numbers the moves in plain PDN; Russian, Brazilian and Turkish moves with the rows
// flipped), with Tsuru's old numbering (notation=tsuru) beside them.
#include <algorithm>
#include <random>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/hub/notation.hpp"
#include "tests/hub_client.hpp"

using namespace tsuru;

using test::turn_round;

TEST_CASE("hub notation: international is plain PDN numbering", "[hub][notation]") {
  const Variant v = Variant::International;
  const std::string start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
  const auto pos = hub::parse_position(v, start);
  REQUIRE(pos.ok());
  CHECK(*pos == start_position(v));
  CHECK(hub::format_position(v, *pos) == start);
  CHECK(hub::format_position(v, start_position(v)) == notation::format_hub_position(v, *pos));
  CHECK_FALSE(hub::mirrored(v));
  const auto m = hub::parse_move(v, *pos, "32-28");
  REQUIRE(m.ok());
  CHECK(hub::format_move(v, *m) == "32-28");
  CHECK(hub::format_move(v, *m) == notation::format_move(v, *m));
  // A PDN FEN is accepted too.
  const auto fen = hub::parse_position(v, "W:W31-50:B1-20");
  REQUIRE(fen.ok());
  CHECK(*fen == start_position(v));
  // Kings.
  const auto kings = hub::parse_position(v, "BeeeeBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeWeeee");
  REQUIRE(kings.ok());
  CHECK(*kings == *notation::parse_fen(v, "B:WK46:BK5"));
}

TEST_CASE("hub notation: English as pydraughts writes it", "[hub][notation][pydraughts]") {
  const Variant v = Variant::English;
  CHECK(hub::mirrored(v));
  // pydraughts: English start 'W:W21-32:B1-12' internally, Hub string W + b*12 + e*8 + w*12,
  // White (its first player) to move; its first player is English Black.
  const std::string start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
  const auto pos = hub::parse_position(v, start);
  REQUIRE(pos.ok());
  CHECK(*pos == start_position(v));
  CHECK(pos->turn() == Side::Black);
  CHECK(hub::format_position(v, start_position(v)) == start);

  // PDN 11-15 (Black's most common opening move): pydraughts sends it as 11-15 (plain PDN
  // numbers for moves, although the string is turned round); the old numbering says 22-18.
  const auto ts = hub::MoveNumbers::Tsuru;
  const auto first = hub::parse_move(v, *pos, "22-18", ts);
  REQUIRE(first.ok());
  CHECK(notation::format_move(v, *first) == "11-15");
  CHECK(hub::format_move(v, *first, ts) == "22-18");
  CHECK(hub::parse_move(v, *pos, "11-15").value() == *first);
  CHECK(hub::format_move(v, *first) == "11-15");
  CHECK(hub::parse_move(v, *pos, "c3-d4").value() == *first);  // algebraic, a1 = PDN 4
  // After it White (Hub B) is to move; Black's man stands on PDN 15 = Hub 18.
  CHECK(hub::format_position(v, pos->after(*first)) ==
        "B"
        "bbbbbbbbbbbb"  // Hub 1-12: White's men on PDN 32-21
        "eeeee"         // Hub 13-17
        "w"             // Hub 18 = PDN 15
        "ee"            // Hub 19-20
        "w"             // Hub 21 = PDN 12
        "e"             // Hub 22 = PDN 11, vacated
        "wwwwwwwwww");  // Hub 23-32 = PDN 10-1

  // docs/rules.md's worked example (Black men 1, 2, 6, 22; White men 19, 26, 27, 30, 32; Black to
  // move; the only move is 22x31 capturing 26) as pydraughts would send it.
  const std::string worked =
      "W"
      "bebeebbeeewe"  // Hub 1-12: White men on Hub 1, 3, 6, 7 (PDN 32, 30, 27, 26); Black 11 (22)
      "ebee"          // Hub 13-16: White man on Hub 14 (PDN 19)
      "eeeeeeee"      // Hub 17-24
      "eewe"          // Hub 25-28: Black man on Hub 27 (PDN 6)
      "eeww";         // Hub 29-32: Black men on Hub 31, 32 (PDN 2, 1)
  const auto example = hub::parse_position(v, worked);
  REQUIRE(example.ok());
  CHECK(*example == *notation::parse_fen(v, "B:W19,26,27,30,32:B1,2,6,22"));
  const MoveList moves = legal_moves(v, *example);
  REQUIRE(moves.size() == 1);
  CHECK(hub::format_move(v, moves[0], ts) == "11x2x7");
  CHECK(hub::format_move(v, moves[0]) == "22x31x26");
  CHECK(notation::format_move(v, moves[0]) == "22x31x26");
  CHECK(hub::parse_move(v, *example, "11x2", ts).value() == moves[0]);
  CHECK(hub::parse_move(v, *example, "11x2x7", ts).value() == moves[0]);
  CHECK(hub::parse_move(v, *example, "22x31").value() == moves[0]);
  CHECK(hub::parse_move(v, *example, "22x31x26").value() == moves[0]);
  CHECK(hub::format_position(v, *example) == worked);
  // Errors name the square in Hub numbering.
  std::string bad = worked;
  bad[3] = 'z';
  CHECK(hub::parse_position(v, bad).error() == "bad character at square 3");
  CHECK(hub::parse_position(v, "X" + worked.substr(1)).error() == "a position starts with W or B");
  CHECK(hub::parse_position(v, worked + "e").error() == "a position has 33 characters");
}

TEST_CASE("hub notation: pydraughts' own English test game, in both numberings",
          "[hub][notation][pydraughts]") {
  // test_pydraughts/test_variants.py (AttackingOrDefending/pydraughts), English game, PDN.
  const std::string pdn_moves =
      "11-15 23-18 8-11 27-23 4-8 23-19 10-14 19x10 14x23 26x19 7x14 24-20 6-10 22-17 9-13 "
      "30-26 13x22 25x9 5x14 29-25 14-18 26-23 18x27 32x23 11-15 28-24 2-6 21-17 8-11 25-22 "
      "6-9 23-18 1-5 17-13 9-14 18x9 5x14 13-9 14-18 22-17 18-23 9-6 15-18 6-2 18-22 2-6 3-8 "
      "6x15 11x18 19-15 22-26 31x22 18x25 24-19 23-27 20-16 27-31 16-11 31-27 11x4 27-23";
  const Variant v = Variant::English;
  Game game(v);
  std::istringstream in(pdn_moves);
  std::string pdn;
  int plies = 0;
  while (in >> pdn) {
    const std::string old_text = turn_round(pdn);  // notation=tsuru
    INFO(pdn << " = tsuru " << old_text);
    const auto m = hub::parse_move(v, game.position(), pdn);  // as pydraughts sends it
    REQUIRE(m.ok());
    const auto expected = notation::parse_move(v, game.position(), pdn);
    REQUIRE(expected.ok());
    CHECK(*m == *expected);
    CHECK(hub::parse_move(v, game.position(), old_text, hub::MoveNumbers::Tsuru).value() == *m);
    // Printed in the long form, with the same ends.
    const std::string printed = hub::format_move(v, *m);
    CHECK(printed.rfind(pdn.substr(0, pdn.find_first_of("-x", 1)), 0) == 0);
    const std::string printed_old = hub::format_move(v, *m, hub::MoveNumbers::Tsuru);
    CHECK(printed_old.rfind(old_text.substr(0, old_text.find_first_of("-x", 1)), 0) == 0);
    REQUIRE(game.play(*m));
    ++plies;
  }
  CHECK(plies == 61);
}

namespace {

// A square's number in moves, worked out from its algebraic name (independently of the Hub
// notation module): pydraughts numbers Russian and Brazilian 1 = a1, 2 = c1 ... 32 = h8 and
// Turkish 1 = a1 ... 64 = h8 (rows flipped), English in plain PDN numbers, the rest as the
// position string; the tsuru numbering is the position string's (English: 33 - PDN).
int expected_number(Variant v, Square sq, hub::MoveNumbers n) {
  const std::string name = notation::square_algebraic(v, sq);
  const int file = name[0] - 'a', rank = std::stoi(name.substr(1));
  const bool pydraughts = n == hub::MoveNumbers::Pydraughts;
  if (pydraughts && (v == Variant::Russian || v == Variant::Brazilian))
    return (rank - 1) * 4 + file / 2 + 1;
  if (pydraughts && v == Variant::Turkish) return (rank - 1) * 8 + file + 1;
  const BoardShape& b = info(v).board;
  if (v == Variant::Turkish) return (8 - rank) * 8 + file + 1;  // the string: 1 = a8
  const int pdn = b.number(sq);
  if (hub::mirrored(v) && !(pydraughts && v == Variant::English)) return b.squares + 1 - pdn;
  return pdn;
}

}  // namespace

TEST_CASE("hub notation: every legal move round-trips, captures print ascending",
          "[hub][notation]") {
  // Squares of the pydraughts transcripts (tests/data/pydraughts-hub.txt), spot checks.
  CHECK(expected_number(Variant::Russian, *notation::parse_square(Variant::Russian, "c3"),
                        hub::MoveNumbers::Pydraughts) == 10);
  CHECK(expected_number(Variant::Turkish, *notation::parse_square(Variant::Turkish, "b3"),
                        hub::MoveNumbers::Pydraughts) == 18);
  CHECK(expected_number(Variant::Turkish, *notation::parse_square(Variant::Turkish, "b3"),
                        hub::MoveNumbers::Tsuru) == 42);
  std::mt19937_64 rng(3);
  for (const hub::MoveNumbers numbers : {hub::MoveNumbers::Pydraughts, hub::MoveNumbers::Tsuru}) {
    for (Variant v : all_variants()) {
      int checked = 0;
      for (int g = 0; g < 10; ++g) {
        Position pos = start_position(v);
        for (int ply = 0; ply < 120; ++ply) {
          const MoveList moves = legal_moves(v, pos);
          if (moves.empty()) break;
          // The board and the side to move; a Hub string, like a FEN, cannot carry the Frisian
          // king-move counts (a `moves=` history rebuilds them).
          const Position back_pos = *hub::parse_position(v, hub::format_position(v, pos));
          CHECK(back_pos.pieces(Side::White) == pos.pieces(Side::White));
          CHECK(back_pos.pieces(Side::Black) == pos.pieces(Side::Black));
          CHECK(back_pos.kings() == pos.kings());
          CHECK(back_pos.turn() == pos.turn());
          for (const Move& m : moves) {
            const std::string text = hub::format_move(v, m, numbers);
            INFO(notation::format_fen(v, pos) << " " << text);
            const auto back = hub::parse_move(v, pos, text, numbers);
            REQUIRE(back.ok());
            CHECK(*back == m);
            // The numbers, from the algebraic names: from, to, captured squares ascending.
            std::vector<int> captured;
            for (Square sq : squares_of(m.captured))
              captured.push_back(expected_number(v, sq, numbers));
            std::sort(captured.begin(), captured.end());
            const char sep = m.is_capture() ? 'x' : '-';
            std::string expected = std::to_string(expected_number(v, m.from, numbers)) + sep +
                                   std::to_string(expected_number(v, m.to, numbers));
            for (int c : captured) expected += sep + std::to_string(c);
            CHECK(text == expected);
            // The algebraic form is read too.
            CHECK(hub::parse_move(v, pos, notation::format_move_algebraic(v, pos, m), numbers)
                      .value() == m);
            ++checked;
          }
          pos = pos.after(moves[rng() % moves.size()]);
        }
      }
      CHECK(checked > 500);
    }
  }
}

TEST_CASE("hub notation: bad positions say why", "[hub][notation]") {
  auto why = [](Variant v, const std::string& text) {
    const auto p = hub::parse_position(v, text);
    INFO(text);
    REQUIRE_FALSE(p.ok());
    return p.error();
  };
  const std::string start10 = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
  const Variant i = Variant::International, e = Variant::English;
  CHECK(why(i, "") == "a position has 51 characters");
  CHECK(why(i, start10 + "e") == "a position has 51 characters");
  CHECK(why(e, start10) == "a position has 33 characters");
  CHECK(why(i, "X" + start10.substr(1)) == "a position starts with W or B");
  CHECK(why(i, start10.substr(0, 21) + "?" + start10.substr(22)) == "bad character at square 21");
  CHECK(why(i, "Ww" + std::string(49, 'e')) == "a man on its promotion row at square 1");
  CHECK(why(i, "W" + std::string(49, 'e') + "b") == "a man on its promotion row at square 50");
  // English, turned round: the first player (w) is crowned on Hub 1-4, the second on 29-32.
  CHECK(why(e, "Wewe" + std::string(29, 'e')) == "a man on its promotion row at square 2");
  CHECK(why(e, "W" + std::string(29, 'e') + "bew") == "a man on its promotion row at square 30");
  CHECK(why(e, "W" + std::string(31, 'e') + "w") == "the side not to move has no pieces");
  CHECK(why(i, "B" + std::string(25, 'e') + "b" + std::string(24, 'e')) ==
        "the side not to move has no pieces");
  // A FEN is checked by the rules core.
  CHECK_FALSE(hub::parse_position(i, "W:W31:B").ok());
  // The side to move may have nothing left: it has lost, but the position is valid.
  CHECK(hub::parse_position(i, "W" + std::string(25, 'e') + "b" + std::string(24, 'e')).ok());
}

TEST_CASE("hub notation: move errors and their kinds", "[hub][notation]") {
  using K = notation::MoveError::Kind;
  auto kind = [](Variant v, const Position& p, const std::string& text,
                 hub::MoveNumbers n = hub::MoveNumbers::Pydraughts) {
    const auto r = hub::parse_move(v, p, text, n);
    INFO(text);
    REQUIRE_FALSE(r.ok());
    CHECK_FALSE(r.error().message.empty());
    return r.error().kind;
  };
  const Variant i = Variant::International, e = Variant::English;
  const Position s10 = start_position(i), s8 = start_position(e);
  for (const char* bad : {"", "32", "32-", "-32", "32--28", "32_28", "d4-e5-f6", "d4-28", "0-5",
                          "51-46", "1234-5", "32-28 ", "x32", "32-28x", "99999999999-1"})
    CHECK(kind(i, s10, bad) == K::Malformed);
  CHECK(kind(e, s8, "33-28") == K::Malformed);
  CHECK(kind(i, s10, "32-28-23") == K::Malformed);
  CHECK(kind(i, s10, "32-26") == K::Illegal);
  CHECK(kind(i, s10, "19-23") == K::Illegal);  // the other side's move
  CHECK(kind(e, s8, "22-18") == K::Illegal);   // the old numbering is not pydraughts'
  CHECK(hub::parse_move(e, s8, "22-18", hub::MoveNumbers::Tsuru).ok());
  CHECK(kind(e, s8, "11-15", hub::MoveNumbers::Tsuru) == K::Illegal);
  CHECK(kind(i, s10, "d4-f6") == K::Illegal);  // algebraic, not a move
  const Position two = *notation::parse_fen(i, "W:WK47:B14,19,29,31,42");
  CHECK(kind(i, two, "47x36") == K::Ambiguous);
  CHECK(hub::format_move(i, *hub::parse_move(i, two, "47x36x42x31x29x19")) == "47x36x19x29x31x42");
  CHECK(hub::parse_move(i, two, "47X36X14X29X31X42").ok());
}

TEST_CASE("hub notation: pydraughts' numbering of Russian, Brazilian and Turkish moves",
          "[hub][notation][pydraughts]") {
  const auto ts = hub::MoveNumbers::Tsuru;
  for (Variant v : {Variant::Russian, Variant::Brazilian}) {
    INFO(info(v).name);
    const Position s = start_position(v);
    // c3-d4: rows flipped, 1 = a1 (pydraughts), 22-18 in the position string's numbering.
    const auto m = hub::parse_move(v, s, "10-14");
    REQUIRE(m.ok());
    CHECK(notation::format_move_algebraic(v, s, *m) == "c3-d4");
    CHECK(hub::format_move(v, *m) == "10-14");
    CHECK(hub::format_move(v, *m, ts) == "22-18");
    CHECK(hub::parse_move(v, s, "c3-d4").value() == *m);
    CHECK(hub::parse_move(v, s, "22-18").ok() == false);  // not a move in pydraughts' numbers
  }
  // Turkish: 1 = a1 ... 64 = h8 (pydraughts), 1 = a8 in the position string; both read
  // algebraic moves, as docs/notation.md says.
  const Variant t = Variant::Turkish;
  const Position s = start_position(t);
  const auto b3b4 = hub::parse_move(t, s, "18-26");
  REQUIRE(b3b4.ok());
  CHECK(notation::format_move(t, *b3b4) == "b3-b4");
  CHECK(hub::format_move(t, *b3b4, ts) == "42-34");
  CHECK(hub::parse_move(t, s, "42-34", ts).value() == *b3b4);
  CHECK(hub::parse_move(t, s, "b3-b4").value() == *b3b4);
  CHECK(hub::parse_move(t, s, "b3-b4", ts).value() == *b3b4);
  CHECK(hub::parse_move(t, s, "a2-a3").error().kind == notation::MoveError::Kind::Illegal);
  CHECK(hub::parse_move(t, s, "b3-26").error().kind == notation::MoveError::Kind::Malformed);
  // A capture: White man b4 takes b5 and lands on b6 (pydraughts 26x42x34).
  const Position cap = *notation::parse_fen(t, "W:Wb4,h2:Bb5,h7");
  const auto take = hub::parse_move(t, cap, "26x42x34");
  REQUIRE(take.ok());
  CHECK(hub::format_move(t, *take) == "26x42x34");
  CHECK(hub::parse_move(t, cap, "b4xb6xb5").value() == *take);
  CHECK(hub::parse_move(t, cap, "26x42").value() == *take);  // short form
}
