// The rule sets beyond English and international draughts: names, boards and notation, and the
// rules the reference move lists do not reach (Frisian king-move limit, Turkish and Thai
// details, Italian and Czech priorities in play).
#include <algorithm>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/notation.hpp"
#include "eval/eval.hpp"
#include "protocol/pdn.hpp"
#include "tests/engine_helpers.hpp"

using namespace tsuru;
using test::fen;
using test::move;
namespace nt = tsuru::notation;

namespace {

std::vector<std::string> moves_of(Variant v, const Position& pos) {
  std::vector<std::string> out;
  for (const Move& m : legal_moves(v, pos)) out.push_back(nt::format_move(v, m));
  std::sort(out.begin(), out.end());
  return out;
}

bool moves_from(Variant v, const Position& pos, const std::string& square) {
  const Square sq = *nt::parse_square(v, square);
  const MoveList list = legal_moves(v, pos);
  return std::any_of(list.begin(), list.end(), [&](const Move& m) { return m.from == sq; });
}

}  // namespace

TEST_CASE("every rule set is registered under its names", "[variants]") {
  const std::pair<const char*, Variant> names[] = {{"english", Variant::English},
                                                   {"international", Variant::International},
                                                   {"normal", Variant::International},
                                                   {"brazilian", Variant::Brazilian},
                                                   {"russian", Variant::Russian},
                                                   {"pool", Variant::Pool},
                                                   {"czech", Variant::Czech},
                                                   {"spanish", Variant::Spanish},
                                                   {"italian", Variant::Italian},
                                                   {"thai", Variant::Thai},
                                                   {"turkish", Variant::Turkish},
                                                   {"frisian", Variant::Frisian},
                                                   {"killer", Variant::Killer},
                                                   {"breakthrough", Variant::Breakthrough},
                                                   {"bt", Variant::Breakthrough},
                                                   {"standard", Variant::International},
                                                   {"american", Variant::English},
                                                   {"checkers", Variant::English},
                                                   {"antidraughts", Variant::Antidraughts},
                                                   {"losing", Variant::Antidraughts},
                                                   {"giveaway", Variant::Giveaway},
                                                   {"english-giveaway", Variant::Giveaway},
                                                   {"suicide-checkers", Variant::Giveaway},
                                                   {"anti-checkers", Variant::Giveaway}};
  for (const auto& [name, v] : names) {
    INFO(name);
    CHECK(parse_variant(name) == v);
    CHECK(std::string(variant_names()).find(info(v).name) != std::string::npos);
  }
  CHECK(all_variants().size() == 15);
  for (Variant v : all_variants()) CHECK(info(v).id == v);
  // Every alias above is listed for the Hub and the help texts.
  const std::string aliases = " " + std::string(variant_alias_names()) + " ";
  for (const auto& [name, v] : names)
    if (info(v).name != name)
      CHECK(aliases.find(std::string(" ") + name + " ") != std::string::npos);
  CHECK(std::string(variant_aliases()).find("losing=antidraughts") != std::string::npos);
  CHECK_FALSE(parse_variant("thai-3row").has_value());
  CHECK_FALSE(parse_variant("Russian").has_value());
  CHECK_FALSE(parse_variant("").has_value());
}

TEST_CASE("start positions of every rule set (docs/rules.md)", "[variants]") {
  const std::pair<Variant, const char*> starts[] = {
      {Variant::Brazilian, "W:W21-32:B1-12"},    {Variant::Russian, "W:W21-32:B1-12"},
      {Variant::Pool, "B:W21-32:B1-12"},         {Variant::Czech, "W:W21-32:B1-12"},
      {Variant::Spanish, "W:W21-32:B1-12"},      {Variant::Italian, "W:W21-32:B1-12"},
      {Variant::Thai, "W:W25-32:B1-8"},          {Variant::Frisian, "W:W31-50:B1-20"},
      {Variant::Killer, "W:W31-50:B1-20"},       {Variant::Breakthrough, "W:W31-50:B1-20"},
      {Variant::Antidraughts, "W:W31-50:B1-20"}, {Variant::Giveaway, "B:W21-32:B1-12"}};
  for (const auto& [v, text] : starts) {
    INFO(info(v).name);
    CHECK(start_position(v) == fen(v, text));
    CHECK(start_position(v).turn() == info(v).first_to_move);
  }
  const Position turkish = start_position(Variant::Turkish);
  CHECK(nt::format_fen(Variant::Turkish, turkish) ==
        "W:Wa3,b3,c3,d3,e3,f3,g3,h3,a2,b2,c2,d2,e2,f2,g2,h2:"
        "Ba7,b7,c7,d7,e7,f7,g7,h7,a6,b6,c6,d6,e6,f6,g6,h6");
  CHECK(popcount(turkish.pieces(Side::White)) == 16);
  // Only the third-rank men can move at first: straight ahead (sideways is blocked).
  CHECK(moves_of(Variant::Turkish, turkish) == std::vector<std::string>{"a3-a4", "b3-b4", "c3-c4",
                                                                        "d3-d4", "e3-e4", "f3-f4",
                                                                        "g3-g4", "h3-h4"});
}

TEST_CASE("light-a1 boards number from a8 (Italian, Spanish)", "[variants][notation]") {
  for (Variant v : {Variant::Italian, Variant::Spanish}) {
    auto alg = [&](int n) { return nt::square_algebraic(v, info(v).board.square(n)); };
    CHECK(alg(1) == "a8");
    CHECK(alg(4) == "g8");
    CHECK(alg(5) == "b7");
    CHECK(alg(29) == "b1");
    CHECK(alg(32) == "h1");
    CHECK(alg(21) == "b3");
    CHECK(alg(22) == "d3");
    // a1 is light; h1 and a8 are the dark corners.
    CHECK_FALSE(nt::parse_square(v, "a1").has_value());
    CHECK_FALSE(nt::parse_square(v, "c3").has_value());
    // White's first moves: 21 = b3 to a4 (17) or c4 (18); 24 = h3 only to g4 (20).
    const Position start = start_position(v);
    CHECK(nt::format_move_algebraic(v, start, move(v, start, "21-17")) == "b3-a4");
    CHECK(nt::format_move_algebraic(v, start, move(v, start, "21-18")) == "b3-c4");
    CHECK(nt::format_move_algebraic(v, start, move(v, start, "24-20")) == "h3-g4");
    CHECK_FALSE(nt::parse_move(v, start, "24-21").ok());
  }
  // The trait says which boards are light-a1.
  for (Variant v : all_variants()) {
    const bool light = with_rules(v, []<class R>(R) { return R::kLightA1; });
    const bool board8 = info(v).board.squares == 32;
    CHECK(light == (board8 && !nt::parse_square(v, "a1").has_value()));
  }
  // The dark-a1 boards keep their numbering: Russian 29 = a1, 1 = b8.
  CHECK(nt::square_algebraic(Variant::Russian, info(Variant::Russian).board.square(29)) == "a1");
  CHECK(nt::square_algebraic(Variant::Russian, info(Variant::Russian).board.square(1)) == "b8");
  // Pool: Black moves first, so a1 is Black's near-left square as in English (1 = g1).
  CHECK(nt::square_algebraic(Variant::Pool, info(Variant::Pool).board.square(1)) == "g1");
}

TEST_CASE("Turkish notation: algebraic squares, Hub strings of 65 characters", "[variants]") {
  const Variant v = Variant::Turkish;
  const Position start = start_position(v);
  const std::string hub = nt::format_hub_position(v, start);
  CHECK(hub.size() == 65);
  CHECK(hub == "W" + std::string(8, 'e') + std::string(16, 'b') + std::string(16, 'e') +
                   std::string(16, 'w') + std::string(8, 'e'));
  CHECK(*nt::parse_hub_position(v, hub) == start);
  CHECK(nt::square_name(v, *nt::parse_square(v, "a1")) == "a1");
  CHECK_FALSE(nt::parse_square(v, "i1").has_value());
  CHECK_FALSE(nt::parse_square(v, "a9").has_value());
  CHECK_FALSE(nt::parse_square(v, "12").has_value());  // no square numbers
  CHECK_FALSE(nt::parse_fen(v, "W:W9-16:Ba7").ok());
  CHECK_FALSE(nt::parse_fen(v, "W:Wa8:Ba7").ok());  // a white man on its promotion rank
  // A capture in each text form: Hub long form, PDN path (with x or :), algebraic.
  const Position pos = fen(v, "W:Wd4:Bd5,h7");
  const MoveList legal = legal_moves(v, pos);
  REQUIRE(legal.size() == 1);
  CHECK(nt::format_move(v, legal[0]) == "d4xd6xd5");
  CHECK(nt::format_move_pdn(v, pos, legal[0]) == "d4xd6");
  CHECK(move(v, pos, "d4:d6") == legal[0]);
  CHECK(move(v, pos, "d4xd6") == legal[0]);
  CHECK(move(v, pos, "d4xd6xd5") == legal[0]);
  CHECK(nt::parse_move(v, pos, "d4-d5").error().kind == nt::MoveError::Kind::Illegal);
}

TEST_CASE("Turkish men move forward and sideways, never back; kings like rooks", "[variants]") {
  const Variant v = Variant::Turkish;
  CHECK(moves_of(v, fen(v, "W:Wd4:Bh8")) == std::vector<std::string>{"d4-c4", "d4-d5", "d4-e4"});
  CHECK(moves_of(v, fen(v, "B:Wa1:Bd4")) == std::vector<std::string>{"d4-c4", "d4-d3", "d4-e4"});
  // A king slides along its rank and file until blocked.
  CHECK(legal_moves(v, fen(v, "W:WKa1:Bh8")).size() == 14);
  CHECK(legal_moves(v, fen(v, "W:WKa1,b1:Bh8")).size() == 7 + 2);  // a2..a8; b1 man: b2, c1
  // A man captures sideways and then forward; majority: the one-piece capture of c4 is not
  // legal next to the two-piece one (captured squares listed in number order, a8 = 1).
  CHECK(moves_of(v, fen(v, "W:Wd4:Bc4,e4,f5")) == std::vector<std::string>{"d4xf6xf5xe4"});
}

TEST_CASE("Thai: kings land right behind, and may turn back", "[variants]") {
  const Variant v = Variant::Thai;
  // The king on 29 (a1) sees 15 (e5) and must land on 11 (f6), right behind it.
  CHECK(moves_of(v, fen(v, "W:WK29:B15")) == std::vector<std::string>{"29x11x15"});
  // Reversal: the king on 22 (c3) takes 15 landing on 11, then turns back along the same
  // diagonal over 15's and its own empty squares to take 25; or the other way round. Without
  // the 180-degree turn each would be a one-piece capture.
  CHECK(moves_of(v, fen(v, "W:WK22:B15,25")) ==
        std::vector<std::string>{"22x11x15x25", "22x29x15x25"});
}

namespace {
// Plays a quiet black move after which White has no capture (keeps the tests on quiet moves).
void black_quiet_move(Game& g) {
  for (const Move& m : g.legal_moves()) {
    if (m.is_capture() || has_capture(g.variant(), g.position().after(m))) continue;
    REQUIRE(g.play(m));
    return;
  }
  FAIL("no quiet black move");
}
}  // namespace

TEST_CASE("Frisian: a king makes at most three quiet moves in a row", "[variants]") {
  const Variant v = Variant::Frisian;
  Game g(v, fen(v, "W:WK28,49:B1,2,3,4,5"));
  const char* king_moves[] = {"28-33", "33-28", "28-22"};
  for (int i = 0; i < 3; ++i) {
    REQUIRE(g.play(move(v, g.position(), king_moves[i])));
    CHECK(g.position().king_run(Side::White).count == i + 1);
    black_quiet_move(g);
  }
  // Three moves made: the king on 22 may not move again; the man may.
  CHECK_FALSE(moves_from(v, g.position(), "22"));
  CHECK(moves_from(v, g.position(), "49"));
  CHECK_FALSE(nt::parse_move(v, g.position(), "22-17").ok());
  // The same board without the history: the king may move (and the positions differ).
  const Position fresh = fen(v, nt::format_fen(v, g.position()));
  CHECK(moves_from(v, fresh, "22"));
  CHECK_FALSE(fresh == g.position());
  CHECK(fresh.key() != g.position().key());
  // A man move frees the king.
  REQUIRE(g.play(move(v, g.position(), "49-43")));
  black_quiet_move(g);
  CHECK(g.position().king_run(Side::White).count == 0);
  CHECK(moves_from(v, g.position(), "22"));
}

TEST_CASE("Frisian: another king's move restarts the count; kings-only sides are free",
          "[variants]") {
  const Variant v = Variant::Frisian;
  Game g(v, fen(v, "W:WK28,K30,49:B1,2,3,4,5"));
  const char* king_moves[] = {"28-33", "33-28", "28-22"};
  for (const char* m : king_moves) {
    REQUIRE(g.play(move(v, g.position(), m)));
    black_quiet_move(g);
  }
  CHECK_FALSE(moves_from(v, g.position(), "22"));
  REQUIRE(g.play(move(v, g.position(), "30-35")));  // the other king
  CHECK(g.position().king_run(Side::White).square == *nt::parse_square(v, "35"));
  CHECK(g.position().king_run(Side::White).count == 1);
  black_quiet_move(g);
  CHECK(moves_from(v, g.position(), "22"));
  // With no man left, a king moves as often as it likes.
  Game kings(v, fen(v, "W:WK28:B1,2,3,4,5"));
  for (const char* m : {"28-33", "33-28", "28-33", "33-28"}) {
    REQUIRE(kings.play(move(v, kings.position(), m)));
    black_quiet_move(kings);
  }
  CHECK(kings.position().king_run(Side::White).count == 0);
  CHECK(moves_from(v, kings.position(), "28"));
}

TEST_CASE("Italian and Czech priorities in full games", "[variants]") {
  // Italian: a man may not capture a king (5.3): the man on 22 (d3) does not take the king on
  // 18 (c4), although b5 behind it is empty.
  const Variant it = Variant::Italian;
  const Position pos = fen(it, "W:W22:BK18");
  for (const Move& m : legal_moves(it, pos)) CHECK_FALSE(m.is_capture());
  // The same with a black man instead: the capture is compulsory.
  const MoveList men = legal_moves(it, fen(it, "W:W22:B18"));
  REQUIRE(men.size() == 1);
  CHECK(men[0].is_capture());
  // Czech: a king must capture when it can, even fewer pieces than a man could.
  const Variant cz = Variant::Czech;
  // The man on 21 could take two (17, 10); the king on 29 takes 22 and must.
  const MoveList cm = legal_moves(cz, fen(cz, "W:WK29,21:B17,22,10"));
  REQUIRE(!cm.empty());
  for (const Move& m : cm) CHECK(m.from == *nt::parse_square(cz, "29"));
}

TEST_CASE("evaluation knows each rule set's material and lone-king endgames", "[variants][eval]") {
  // The start position with one of White's men a king: White is ahead by about the king's
  // value less a man's.
  for (Variant v : all_variants()) {
    // Breakthrough: a king ends the game there.
    if (with_rules(v, []<class R>(R) { return R::kFirstKingWins; })) continue;
    const Position start = start_position(v);
    const Bitboard white = start.pieces(Side::White);
    const Position pos =
        Position::from_bitboards(white, start.pieces(Side::Black), bit(lsb(white)), Side::White);
    const Score s = with_rules(v, [&]<class R>(R) { return eval::evaluate<R>(pos); });
    INFO(info(v).name << " " << s);
    // Where the side that cannot move wins, a king is a liability (test_antidraughts.cpp).
    if (with_rules(v, []<class R>(R) { return R::kNoMoveWins; }))
      CHECK(s < -25);
    else
      CHECK(s > 25);
  }
  // Russian: three kings beat a lone king unless it holds the long diagonal (a1-h8: 29, 25,
  // 22, 18, 15, 11, 8, 4) with the three off it.
  const Variant r = Variant::Russian;
  const Score open = eval::evaluate<RussianRules>(fen(r, "W:WK1,K2,K3:BK30"));
  const Score fortress = eval::evaluate<RussianRules>(fen(r, "W:WK1,K2,K3:BK22"));
  CHECK(open > 300);
  CHECK(fortress < open / 4);
  // International: the 16-move limit leaves three kings winning chances only against a king off
  // the long diagonal; on it, a draw.
  const Variant i = Variant::International;
  const Score off = eval::evaluate<InternationalRules>(fen(i, "W:WK1,K2,K3:BK30"));
  const Score on = eval::evaluate<InternationalRules>(fen(i, "W:WK1,K2,K3:BK28"));
  CHECK(off < 400);  // far below three kings' worth
  CHECK(std::abs(on) < 20);
  CHECK(on < off);
  // Thai: two kings take a lone one.
  CHECK(eval::evaluate<ThaiRules>(fen(Variant::Thai, "W:WK1,K2:BK30")) > 200);
}

namespace {
// A trait that forgets its endgame knowledge, and an 8x8 trait that takes international's.
struct ForgetsEndgames : RuleDefaults {
  using Geometry = Board8;
};
struct TakesTenByTen : InternationalRules {
  using Geometry = Board8;
};
struct LosingWithoutSaying : EnglishRules {
  static constexpr bool kNoMoveWins = true;
};
}  // namespace

TEST_CASE("endgame knowledge is stated by every trait, never a 10x10 default", "[variants][eval]") {
  // eval::evaluate<R> static_asserts both: such traits do not compile.
  STATIC_REQUIRE_FALSE(eval::StatesEndgames<ForgetsEndgames>);
  STATIC_REQUIRE_FALSE(eval::endgames_fit_rules<TakesTenByTen>());
  STATIC_REQUIRE_FALSE(eval::endgames_fit_rules<LosingWithoutSaying>());
  for (Variant v : all_variants()) {
    INFO(info(v).name);
    CHECK(with_rules(v, []<class R>(R) { return eval::endgames_fit_rules<R>(); }));
  }
  // 8x8 flying kings: three kings on the long diagonal against a lone king off it win (a 10x10
  // reading would call three pieces against a lone king on 8x8 nearly drawn).
  CHECK(eval::evaluate<BrazilianRules>(fen(Variant::Brazilian, "W:WK29,K25,K22:BK3")) > 400);
}

TEST_CASE("PDN records of the other rule sets", "[variants][notation]") {
  // Turkish: algebraic moves and FEN, its GameType, 8x8-style results.
  Game t(Variant::Turkish);
  REQUIRE(t.play(move(Variant::Turkish, t.position(), "a3-a4")));
  REQUIRE(t.play(move(Variant::Turkish, t.position(), "h6-h5")));
  pdn::Tags tags;
  tags.date = "2024.01.01";
  tags.result = Outcome::WhiteWins;
  const std::string record = pdn::write(t, tags);
  CHECK(record.find("[GameType \"30\"]") != std::string::npos);
  CHECK(record.find("1. a3-a4 h6-h5 1-0") != std::string::npos);
  CHECK(record.find("[FEN") == std::string::npos);
  // Italian from a set-up position: light-a1 numbers in the FEN tag; pool: Black moves first.
  Game it(Variant::Italian, fen(Variant::Italian, "W:W21:B12"));
  CHECK(pdn::write(it, tags).find("[FEN \"W:W21:B12\"]") != std::string::npos);
  Game pool(Variant::Pool);
  REQUIRE(pool.play(move(Variant::Pool, pool.position(), "9-13")));
  CHECK(pdn::write(pool, tags).find("[GameType \"23\"]") != std::string::npos);
  CHECK(pdn::write(pool, tags).find("1. 9-13 1-0") != std::string::npos);
  CHECK(pdn::result_text(Variant::Frisian, Outcome::Draw) == "1-1");
}
