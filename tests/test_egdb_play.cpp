// The endgame databases at the root of a game (issue: use in play): draw offers and acceptance
// by their value, resignation in a lost position, where each protocol has them (tsuru play,
// DXP's GAMEEND), each an option that can be switched off; and the Hub's `info` lines say when
// the score comes from the databases. The positions: two English kings against one win (a
// fact of checkers, which the databases confirm here), one king against one draws.
#include <string>
#include <variant>

#include <catch2/catch.hpp>

#include "engine/engine.hpp"
#include "engine/rules/notation.hpp"
#include "eval/egdb/database.hpp"
#include "protocol/dxp/board.hpp"
#include "protocol/dxp/message.hpp"
#include "tests/dxp_process.hpp"
#include "tests/egdb_data.hpp"
#include "tests/tsuru_run.hpp"

using namespace tsuru;
using tsuru::test::english3_data;
using tsuru::test::ScopedEnv;

namespace {

const char* const kWon = "W:WK1,K2:BK32";   // White, to move, wins
const char* const kLost = "B:WK1,K2:BK32";  // Black, to move, loses
const char* const kDrawn = "W:WK1:BK32";    // one king each: drawn

Game game_of(const char* fen) {
  const auto pos = notation::parse_fen(Variant::English, fen);
  REQUIRE(pos.ok());
  return Game(Variant::English, *pos);
}

EngineOptions with_databases() {
  EngineOptions o;
  o.egdb_dir = (english3_data() / "egdb").string();
  o.tt_log2 = 16;
  return o;
}

}  // namespace

TEST_CASE("Engine: the databases' verdict at the root decides draw offers and resignation",
          "[egdb][play]") {
  // The databases agree with the facts the positions are chosen for.
  const auto db = egdb::Database::open(Variant::English, (english3_data() / "egdb").string());
  REQUIRE(db.ok());
  CHECK((*db)->probe(game_of(kWon).position())->wdl == egdb::Wdl::Win);
  CHECK((*db)->probe(game_of(kLost).position())->wdl == egdb::Wdl::Loss);
  CHECK((*db)->probe(game_of(kDrawn).position())->wdl == egdb::Wdl::Draw);

  Engine engine;
  engine.set_options(with_databases());
  CHECK(engine.database_verdict(game_of(kWon)) == DatabaseVerdict::Win);
  CHECK(engine.database_verdict(game_of(kLost)) == DatabaseVerdict::Loss);
  CHECK(engine.database_verdict(game_of(kDrawn)) == DatabaseVerdict::Draw);
  // A position with a capture pending is left to the search.
  CHECK_FALSE(engine.database_verdict(game_of("W:WK1,K10:BK14")));
  // Beyond the databases' reach.
  CHECK_FALSE(engine.database_verdict(game_of("W:WK1,K2,K3:BK32")));

  CHECK(engine.resigns(game_of(kLost)));
  CHECK_FALSE(engine.resigns(game_of(kWon)));
  CHECK_FALSE(engine.resigns(game_of(kDrawn)));

  engine.set_position(game_of(kWon));
  CHECK_FALSE(engine.accepts_draw());
  CHECK_FALSE(engine.offers_draw());
  engine.set_position(game_of(kLost));
  CHECK(engine.accepts_draw());
  CHECK(engine.offers_draw());
  engine.set_position(game_of(kDrawn));
  CHECK(engine.accepts_draw());
  CHECK(engine.offers_draw());

  // Switched off: no resignation.
  EngineOptions off = with_databases();
  off.egdb_resign = false;
  engine.set_options(off);
  CHECK_FALSE(engine.resigns(game_of(kLost)));
  // No databases: no verdict.
  off.egdb_dir.clear();
  engine.set_options(off);
  CHECK_FALSE(engine.database_verdict(game_of(kLost)));
}

TEST_CASE("Hub: info lines mark the scores that come from the databases", "[egdb][hub]") {
  ScopedEnv env("TSURU_DATA", english3_data().string());
  const auto r = test::run_tsuru(
      {"hub"}, std::string("hub\nset-param name=variant value=english\ninit\npos pos=") + kWon +
                   "\nlevel depth=4\ngo analyze\npos pos=\"W:W21-32:B1-12\"\nlevel depth=4\ngo "
                   "analyze\nquit\n");
  INFO(r.out << r.err);
  // The won position: every line of the analysis is marked; the start position: none is.
  const auto start = r.out.find("ready\n");
  const auto second = r.out.find("done move=", start);
  REQUIRE(second != std::string::npos);
  const std::string first_search = r.out.substr(start, second - start);
  const std::string second_search = r.out.substr(second);
  CHECK(first_search.find("info depth=4 ") != std::string::npos);
  int lines = 0, marked = 0;
  for (std::size_t at = first_search.find("info "); at != std::string::npos;
       at = first_search.find("info ", at + 1)) {
    ++lines;
    const std::string line = first_search.substr(at, first_search.find('\n', at) - at);
    if (line.find(" egdb=true") != std::string::npos) ++marked;
  }
  CHECK(lines >= 4);
  CHECK(marked == lines);
  CHECK(second_search.find("egdb=true") == std::string::npos);
}

namespace {

// The engine (the DXP follower) is to move in `fen` with `args`; returns its first message
// after GAMEACC, and the one after that when the first is a chat line.
std::vector<std::string> dxp_first_messages(const char* fen, std::vector<std::string> args) {
  args.insert(args.begin(), {"--variant", "english", "--hash", "16"});
  test::Listener tsuru(args);
  test::PeerSocket peer(tsuru.port);
  const Game g = game_of(fen);
  peer.send(dxp::format(
      dxp::make_request(Variant::English, "Peer", g.position().turn(), 5, 0, g.position())));
  const auto accept = peer.receive(20);
  REQUIRE(accept);
  CHECK((*accept)[0] == 'A');
  std::vector<std::string> out;
  const auto first = peer.receive(20);
  REQUIRE(first);
  out.push_back(*first);
  if ((*first)[0] == 'C') {
    const auto second = peer.receive(20);
    REQUIRE(second);
    out.push_back(*second);
  }
  return out;
}

}  // namespace

TEST_CASE("DXP: a database loss is resigned, a database draw declared, both switchable",
          "[egdb][dxp]") {
  ScopedEnv env("TSURU_DATA", english3_data().string());
  // GAMEEND: reason 1 the sender loses, 2 draw (docs/dxp.md); stop flag 0.
  auto lost = dxp_first_messages(kLost, {});
  REQUIRE(lost.size() == 2);
  CHECK(lost[0].find("endgame databases say we have lost") != std::string::npos);
  CHECK(lost[1] == "E10");
  auto drawn = dxp_first_messages(kDrawn, {});
  REQUIRE(drawn.size() == 2);
  CHECK(drawn[0].find("endgame databases say the position is drawn") != std::string::npos);
  CHECK(drawn[1] == "E20");
  // Won: the engine plays on.
  CHECK(dxp_first_messages(kWon, {})[0][0] == 'M');
  // Switched off: it moves.
  CHECK(dxp_first_messages(kLost, {"--egdb-resign", "false"})[0][0] == 'M');
  CHECK(dxp_first_messages(kDrawn, {"--egdb-draw", "false"})[0][0] == 'M');
}

TEST_CASE("play: the engine resigns a database loss, unless told not to", "[egdb][play]") {
  ScopedEnv env("TSURU_DATA", english3_data().string());
  // The person plays White; the engine, Black, is to move and lost.
  const auto r = test::run_tsuru(
      {"play", "--variant", "english", "--colour", "white", "--seed", "1", "--fen", kLost},
      "quit\n");
  INFO(r.out << r.err);
  CHECK(r.out.find("Tsuru resigns: the endgame databases say its position is lost.") !=
        std::string::npos);
  CHECK(r.out.find("Result: ") != std::string::npos);
  CHECK(r.out.find("You win.") != std::string::npos);
  const auto on = test::run_tsuru({"play", "--variant", "english", "--colour", "white", "--seed",
                                   "1", "--fen", kLost, "--egdb-resign", "false"},
                                  "quit\n");
  CHECK(on.out.find("Tsuru resigns") == std::string::npos);
  CHECK(on.out.find("Tsuru plays ") != std::string::npos);
}
