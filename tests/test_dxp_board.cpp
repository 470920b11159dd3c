// DXP fields against the engine: positions, moves (any capture order, from == to), requests,
// the game clock and the opening file reader.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/dxp/board.hpp"
#include "protocol/dxp/clock.hpp"
#include "protocol/dxp/openings.hpp"
#include "tests/engine_helpers.hpp"

using namespace tsuru;
using namespace tsuru::dxp;
using test::fen;

namespace {

MoveMessage move_of(const std::string& payload) {
  const auto m = parse(payload);
  REQUIRE(m.ok());
  return std::get<MoveMessage>(*m);
}

}  // namespace

TEST_CASE("DXP positions: start positions of both boards", "[dxp][board]") {
  // 10x10: Black on 1-20, White on 31-50 (docs/notation.md).
  const std::string intl =
      position_string(Variant::International, start_position(Variant::International));
  CHECK(intl == std::string(20, 'z') + std::string(10, 'e') + std::string(20, 'w'));
  // 8x8 dialect: Black (first to move) on 1-12, White on 21-32.
  const std::string eng = position_string(Variant::English, start_position(Variant::English));
  CHECK(eng == std::string(12, 'z') + std::string(8, 'e') + std::string(12, 'w'));
  const auto back = parse_position(Variant::English, Side::Black, eng);
  REQUIRE(back.ok());
  CHECK(*back == start_position(Variant::English));
  // Kings.
  const Position kings = fen(Variant::International, "B:WK46,31:BK5,20");
  const std::string s = position_string(Variant::International, kings);
  CHECK(s[45] == 'W');
  CHECK(s[30] == 'w');
  CHECK(s[4] == 'Z');
  CHECK(s[19] == 'z');
  CHECK(*parse_position(Variant::International, Side::Black, s) == kings);
}

TEST_CASE("DXP positions: wrong size, bad characters, impossible positions", "[dxp][board]") {
  const auto wrong = parse_position(Variant::English, Side::Black, std::string(50, 'e'));
  REQUIRE_FALSE(wrong.ok());
  CHECK_THAT(wrong.error(), Catch::Contains("50 squares"));
  const auto bad = parse_position(Variant::English, Side::Black, std::string(31, 'e') + "x");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "square 32 is not one of e w z W Z");
  // A Hub letter is no DXP letter.
  const auto hub_letter = parse_position(Variant::English, Side::Black, "b" + std::string(31, 'e'));
  REQUIRE_FALSE(hub_letter.ok());
  CHECK(hub_letter.error() == "square 1 is not one of e w z W Z");
  // A white man on White's promotion row (square 1 in international).
  const auto promo =
      parse_position(Variant::International, Side::White, "w" + std::string(48, 'e') + "z");
  REQUIRE_FALSE(promo.ok());
  CHECK_THAT(promo.error(), Catch::Contains("promotion row"));
}

TEST_CASE("DXP requests: 'A' for the 10x10 start, 'B' otherwise and always on 8x8",
          "[dxp][board]") {
  const Position intl = start_position(Variant::International);
  const GameRequest a = make_request(Variant::International, "Tsuru", Side::Black, 5, 75, intl);
  CHECK(format(a) == "R01Tsuru                           Z005075A");  // docs/dxp.md example
  CHECK(*request_start(Variant::International, a) == intl);

  const GameRequest e =
      make_request(Variant::English, "Tsuru", Side::White, 1, 0, start_position(Variant::English));
  CHECK(e.setup);
  CHECK(format(e) == "R01Tsuru                           W001000BZ" + std::string(12, 'z') +
                         std::string(8, 'e') + std::string(12, 'w'));
  CHECK(*request_start(Variant::English, e) == start_position(Variant::English));
  // An 'A' request on 8x8 means the rule set's own start (Black to move in English).
  GameRequest plain = e;
  plain.setup = false;
  CHECK(request_start(Variant::English, plain)->turn() == Side::Black);
}

TEST_CASE("DXP moves: the docs/dxp.md example game gives its B position", "[dxp][board]") {
  const Variant v = Variant::International;
  Position pos = start_position(v);
  for (const char* payload : {"M0001322800", "M0001192300", "M000128190123", "M000114230119"}) {
    const auto m = find_move(v, pos, move_of(payload));
    INFO(payload);
    REQUIRE(m.ok());
    // Our own message for the move carries the same squares.
    const MoveMessage ours = move_message(v, *m, 1);
    CHECK(format(ours) == payload);
    pos.play(*m);
  }
  const auto example = parse(
      "R01Tsuru                           "
      "Z005075BWzzzzzzzzzzzzzezzzzezeezeeeeeeewewwwwwwwwwwwwwwwwww");
  REQUIRE(example.ok());
  const auto start = request_start(v, std::get<GameRequest>(*example));
  REQUIRE(start.ok());
  CHECK(*start == pos);
}

TEST_CASE("DXP moves: captured squares in any order, from == to king captures", "[dxp][board]") {
  // Positions found by search: a king capture round four pieces, back to its own square.
  struct Case {
    Variant v;
    const char* fen;
    int square;
    std::vector<int> captured;
  };
  const Case cases[] = {
      {Variant::International, "W:WK19:B11,13,15,21,28", 19, {11, 13, 21, 28}},
      {Variant::English, "W:WK10:B7,8,15,16,27", 10, {7, 8, 15, 16}},
  };
  for (const Case& c : cases) {
    const Position pos = fen(c.v, c.fen);
    std::vector<int> order = c.captured;
    int permutations = 0;
    do {
      MoveMessage msg;
      msg.from = msg.to = c.square;
      msg.captured = order;
      const auto m = find_move(c.v, pos, msg);
      REQUIRE(m.ok());
      CHECK(m->from == m->to);
      CHECK(m->capture_count() == 4);
      ++permutations;
    } while (std::next_permutation(order.begin(), order.end()));
    CHECK(permutations == 24);
  }
}

TEST_CASE("DXP moves: illegal, off-board and repeated squares", "[dxp][board]") {
  const Variant v = Variant::International;
  const Position start = start_position(v);
  const auto illegal = find_move(v, start, move_of("M0001464100"));
  REQUIRE_FALSE(illegal.ok());
  CHECK(illegal.error() == "illegal move 46-41");
  CHECK_THAT(find_move(v, start, move_of("M0001515100")).error(), Catch::Contains("square 51"));
  CHECK_THAT(
      find_move(Variant::English, start_position(Variant::English), move_of("M0001333000")).error(),
      Catch::Contains("square 33"));
  // The legal capture 28x19 (captures 23) with 23 listed twice, or missing.
  Position pos = start;
  for (const char* p : {"M0001322800", "M0001192300"}) pos.play(*find_move(v, pos, move_of(p)));
  CHECK(find_move(v, pos, move_of("M000128190123")).ok());
  CHECK_THAT(find_move(v, pos, move_of("M00012819022323")).error(), Catch::Contains("twice"));
  CHECK(find_move(v, pos, move_of("M0001281900")).error() == "illegal move 28-19");
  CHECK(find_move(v, pos, move_of("M000128190124")).error() == "illegal move 28x19x24");
}

TEST_CASE("DXP clock: turns, moves to go, take-backs", "[dxp][clock]") {
  GameClock c(5, 75);
  CHECK(c.timed());
  CHECK(c.remaining(Side::White) == 300);
  CHECK(c.moves_to_go(Side::White) == 75);
  const auto t0 = Clock::now();
  c.start_turn(Side::White, t0);
  CHECK(c.remaining(Side::White, t0 + std::chrono::seconds(2)) == Approx(298));
  CHECK(c.remaining(Side::Black, t0 + std::chrono::seconds(2)) == Approx(300));
  CHECK(c.end_turn(t0 + std::chrono::milliseconds(2500)) == Approx(2.5));
  CHECK(c.remaining(Side::White) == Approx(297.5));
  CHECK(c.moves_to_go(Side::White) == 74);
  CHECK(c.moves_to_go(Side::Black) == 75);
  c.start_turn(Side::Black, t0 + std::chrono::seconds(3));
  // A take-back: Black's thinking so far is charged, no move is counted, White is to move.
  c.restart_turn(Side::White, t0 + std::chrono::seconds(4));
  CHECK(c.remaining(Side::Black) == Approx(299));
  CHECK(c.moves_made(Side::Black) == 0);
  CHECK(c.turn() == Side::White);

  GameClock untimed(0, 0);
  CHECK_FALSE(untimed.timed());
  CHECK(untimed.moves_to_go(Side::White) == 0);
  GameClock last(1, 1);
  last.start_turn(Side::Black, t0);
  last.end_turn(t0);
  CHECK(last.moves_to_go(Side::Black) == 1);  // never 0 while the game goes on
}

TEST_CASE("DXP openings: the English 3-move ballot deck, moves against FEN", "[dxp][openings]") {
  std::ifstream in(TSURU_TEST_DATA "/ballots-english-3move.tsv");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const auto openings = parse_openings(Variant::English, text.str());
  REQUIRE(openings.ok());
  // Each row's opening comes from its moves column; the FEN column is the published position.
  std::vector<Position> fens;
  std::istringstream lines(text.str());
  std::string line;
  bool header = true;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::istringstream fields(line);
    std::string id, moves, f;
    std::getline(fields, id, '\t');
    std::getline(fields, moves, '\t');
    std::getline(fields, f, '\t');
    fens.push_back(fen(Variant::English, f.c_str()));
  }
  REQUIRE(fens.size() > 100);
  REQUIRE(openings->size() == fens.size());
  for (std::size_t i = 0; i < fens.size(); ++i) {
    INFO("row " << i + 1);
    CHECK((*openings)[i] == fens[i]);
  }
}

TEST_CASE("DXP openings: positions, moves, comments and errors", "[dxp][openings]") {
  const auto ok = parse_openings(
      Variant::International, "# two openings\n\nW:W31-50:B1-20\n1. 32-28 19-23 2. 28x19 14x23\n");
  REQUIRE(ok.ok());
  REQUIRE(ok->size() == 2);
  CHECK((*ok)[0] == start_position(Variant::International));
  CHECK(position_string(Variant::International, (*ok)[1]) ==
        "zzzzzzzzzzzzzezzzzezeezeeeeeeewewwwwwwwwwwwwwwwwww");
  const auto bad = parse_openings(Variant::International, "32-28\n46-41\n");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("line 2"));
  CHECK_FALSE(parse_openings(Variant::International, "# nothing\n").ok());
}
