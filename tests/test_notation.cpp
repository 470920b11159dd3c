// Notation: parse and print positions and moves, round trips and error messages.
#include <random>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"

using namespace tsuru;
namespace nt = tsuru::notation;

TEST_CASE("FEN: start positions, ranges, kings, either list order", "[notation]") {
  const auto intl = nt::parse_fen(Variant::International, "W:W31-50:B1-20");
  REQUIRE(intl.ok());
  CHECK(*intl == start_position(Variant::International));
  const auto eng = nt::parse_fen(Variant::English, "B:W21-32:B1-12");
  REQUIRE(eng.ok());
  CHECK(*eng == start_position(Variant::English));
  CHECK(eng->turn() == Side::Black);
  const auto swapped = nt::parse_fen(Variant::English, "B:B1-12:W21-32.");
  REQUIRE(swapped.ok());
  CHECK(*swapped == *eng);
  const auto kings = nt::parse_fen(Variant::International, "B:WK46,31:BK5,K6-7,20");
  REQUIRE(kings.ok());
  CHECK(popcount(kings->kings(Side::Black)) == 3);
  CHECK(popcount(kings->men(Side::Black)) == 1);
  CHECK(popcount(kings->kings(Side::White)) == 1);
  CHECK(nt::format_fen(Variant::International, *kings) == "B:W31,K46:BK5,K6,K7,20");
  CHECK(nt::format_fen(Variant::English, *eng) ==
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
}

TEST_CASE("FEN: bad input gives a message", "[notation]") {
  const char* bad[] = {"",
                       "W",
                       "X:W31:B1",
                       "W:W31",
                       "W:W31:W32",
                       "W:W51:B1",
                       "W:W0:B1",
                       "W:W31:B31",
                       "W:W31-29:B1",
                       "W:Wx:B1",
                       "W:W3:B20",   // white man on its promotion row
                       "W:W31:B48",  // black man on its promotion row
                       "W:W31:B",    // the side that just moved has no pieces
                       "W:W31,,32:B1",
                       "W:W99999999999:B1"};
  for (const char* text : bad) {
    INFO(text);
    const auto pos = nt::parse_fen(Variant::International, text);
    CHECK_FALSE(pos.ok());
    if (!pos.ok()) CHECK(!pos.error().empty());
  }
  CHECK_FALSE(nt::parse_fen(Variant::English, "B:W33:B1").ok());
}

TEST_CASE("Hub position strings", "[notation]") {
  const std::string start10 = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
  const auto pos = nt::parse_hub_position(Variant::International, start10);
  REQUIRE(pos.ok());
  CHECK(*pos == start_position(Variant::International));
  CHECK(nt::format_hub_position(Variant::International, *pos) == start10);
  const std::string start8 = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
  CHECK(nt::format_hub_position(Variant::English, start_position(Variant::English)) == start8);
  CHECK(*nt::parse_position(Variant::English, start8) == start_position(Variant::English));
  // Kings, and a FEN accepted where a Hub string is expected.
  const auto k = nt::parse_position(Variant::International, "B:WK46:BK5");
  REQUIRE(k.ok());
  CHECK(nt::format_hub_position(Variant::International, *k) ==
        "BeeeeBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeWeeee");
  const std::vector<std::string> bad_strings = {
      "W",
      start10.substr(0, 50),
      start10 + "e",
      "X" + start10.substr(1),
      start10.substr(0, 20) + "?" + start10.substr(21),
      "Wweeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"};  // man on its promotion row
  for (const std::string& bad : bad_strings) {
    INFO(bad);
    CHECK_FALSE(nt::parse_hub_position(Variant::International, bad).ok());
  }
  // The errors name the square; a DXP letter is no Hub letter.
  CHECK(nt::parse_hub_position(Variant::International, bad_strings[4]).error() ==
        "bad character in position at square 20");
  CHECK(nt::parse_hub_position(Variant::English, "Bz" + start8.substr(2)).error() ==
        "bad character in position at square 1");
  CHECK(nt::parse_hub_position(Variant::International, "W").error() ==
        "position must have 51 characters");
  CHECK(nt::parse_hub_position(Variant::International, bad_strings[3]).error() ==
        "position must start with W or B");
}

TEST_CASE("square names: numeric and algebraic (docs/notation.md)", "[notation]") {
  auto alg = [](Variant v, int n) { return nt::square_algebraic(v, info(v).board.square(n)); };
  CHECK(alg(Variant::International, 46) == "a1");
  CHECK(alg(Variant::International, 50) == "i1");
  CHECK(alg(Variant::International, 1) == "b10");
  CHECK(alg(Variant::International, 5) == "j10");
  CHECK(alg(Variant::English, 1) == "g1");
  CHECK(alg(Variant::English, 4) == "a1");
  CHECK(alg(Variant::English, 5) == "h2");
  CHECK(alg(Variant::English, 29) == "h8");
  CHECK(alg(Variant::English, 32) == "b8");
  for (Variant v : all_variants()) {
    const BoardShape& b = info(v).board;
    for (int n = 1; n <= b.squares; ++n) {
      CHECK(nt::parse_square(v, nt::square_algebraic(v, b.square(n))) == b.square(n));
      // Turkish squares have no numbers.
      if (info(v).algebraic_only)
        CHECK_FALSE(nt::parse_square(v, std::to_string(n)).has_value());
      else
        CHECK(nt::parse_square(v, std::to_string(n)) == b.square(n));
    }
    CHECK_FALSE(nt::parse_square(v, "0").has_value());
    CHECK_FALSE(nt::parse_square(v, std::to_string(b.squares + 1)).has_value());
    if (!info(v).algebraic_only) {
      // A light square: a2 where a1 is dark, a1 on the light-a1 boards (Italian, Spanish).
      const bool light_a1 =
          nt::parse_square(v, "a2").has_value() && v != Variant::English && v != Variant::Pool;
      CHECK_FALSE(nt::parse_square(v, light_a1 ? "a1" : "a2").has_value());
      CHECK(light_a1 == (v == Variant::Italian || v == Variant::Spanish));
    }
    CHECK_FALSE(nt::parse_square(v, "z9").has_value());
    CHECK_FALSE(nt::parse_square(v, "").has_value());
  }
}

TEST_CASE("moves: every legal move round-trips through each text form", "[notation]") {
  std::mt19937_64 rng(7);
  for (Variant v : all_variants()) {
    int checked = 0;
    for (int game = 0; game < 20; ++game) {
      Position pos = start_position(v);
      for (int ply = 0; ply < 150; ++ply) {
        const MoveList moves = legal_moves(v, pos);
        if (moves.empty()) break;
        for (const Move& m : moves) {
          for (const std::string& text : {nt::format_move(v, m), nt::format_move_pdn(v, pos, m),
                                          nt::format_move_algebraic(v, pos, m)}) {
            const auto parsed = nt::parse_move(v, pos, text);
            INFO(nt::format_fen(v, pos) << " " << text);
            REQUIRE(parsed.ok());
            CHECK(parsed.value() == m);
            ++checked;
          }
        }
        pos = pos.after(moves[rng() % moves.size()]);
      }
    }
    CHECK(checked > 1000);
  }
}

TEST_CASE("moves: forms, errors and their kinds", "[notation]") {
  using K = nt::MoveError::Kind;
  const Position start = start_position(Variant::International);
  CHECK(nt::format_move(Variant::International,
                        *nt::parse_move(Variant::International, start, "32-28")) == "32-28");
  CHECK(nt::format_move(Variant::International,
                        *nt::parse_move(Variant::International, start, "d4-e5")) == "32-28");
  auto kind = [&](const Position& p, Variant v, const char* text) {
    const auto r = nt::parse_move(v, p, text);
    REQUIRE_FALSE(r.ok());
    CHECK(!r.error().message.empty());
    return r.error().kind;
  };
  CHECK(kind(start, Variant::International, "") == K::Malformed);
  CHECK(kind(start, Variant::International, "32") == K::Malformed);
  CHECK(kind(start, Variant::International, "32-") == K::Malformed);
  CHECK(kind(start, Variant::International, "32-99") == K::Malformed);
  CHECK(kind(start, Variant::International, "ab-cd") == K::Malformed);
  CHECK(kind(start, Variant::International, "32-28x23") == K::Malformed);
  CHECK(kind(start, Variant::International, "32-26") == K::Illegal);
  CHECK(kind(start, Variant::International, "32x23") == K::Illegal);
  CHECK(kind(start, Variant::International, "28-23") == K::Illegal);

  // A capture is compulsory: the quiet move is refused with a reason.
  const auto cap = nt::parse_fen(Variant::English, "W:W27,30:B23");
  REQUIRE(cap.ok());
  const auto quiet = nt::parse_move(Variant::English, *cap, "30-26");
  REQUIRE_FALSE(quiet.ok());
  CHECK(quiet.error().kind == K::Illegal);
  CHECK(quiet.error().message.find("compulsory") != std::string::npos);
  // Short form 27x18 and long form 27x18x23 both name the capture.
  CHECK(nt::parse_move(Variant::English, *cap, "27x18").ok());
  CHECK(nt::parse_move(Variant::English, *cap, "27x18x23").ok());
  CHECK(kind(*cap, Variant::English, "27x18x22") == K::Illegal);

  // INT-1: 38x38 has two capture paths but one move; 38x42 is unique.
  const auto loop = nt::parse_fen(Variant::International, "W:WK38:B18,19,32,33");
  REQUIRE(loop.ok());
  CHECK(nt::parse_move(Variant::International, *loop, "38x38").ok());
  CHECK(nt::parse_move(Variant::International, *loop, "38x27x13x24x38").ok());
  // INT-2: two moves 47x36 with different captured sets: the short form is ambiguous.
  const auto two = nt::parse_fen(Variant::International, "W:WK47:B14,19,29,31,42");
  REQUIRE(two.ok());
  CHECK(kind(*two, Variant::International, "47x36") == K::Ambiguous);
  CHECK(nt::parse_move(Variant::International, *two, "47x36x19x29x31x42").ok());
  CHECK(nt::parse_move(Variant::International, *two, "47x36x42x31x29x19").ok());  // any order
  CHECK(nt::parse_move(Variant::International, *two, "47x38x24x13x36").ok());     // PDN path
  CHECK(nt::format_move_pdn(Variant::International, *two,
                            *nt::parse_move(Variant::International, *two, "47x36x14x29x31x42")) ==
        "47x38x20x9x36");
}
