// A self-play game over Hub in every rule set (English and international included): the real
// `tsuru hub` binary chooses both sides' moves, pydraughts style (the start position and every
// move so far before each go), each move is read back with the rules core and must be one of
// the legal moves of the position, and the game is played to its end by the rules (or to a long
// ply limit). English moves are also read as plain PDN (pydraughts' numbering), independently
// of the Hub notation module. Antidraughts included: its games end with the blocked side winning.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/hub/notation.hpp"
#include "tests/hub_client.hpp"

using namespace tsuru;
using namespace std::chrono_literals;
using test::fields;
using test::HubClient;

namespace {

// Plies after which a game that the rules have not ended is left (Czech and Thai games end only
// by repetition, which self-play at a shallow depth may avoid for a long time).
constexpr std::size_t kPlyLimit = 300;

std::string moves_field(const std::vector<std::string>& history) {
  std::string s;
  for (std::size_t i = 0; i < history.size(); ++i) s += (i ? " " : "") + history[i];
  return s;
}

}  // namespace

TEST_CASE("hub self-play: a whole game in every rule set, legal moves only",
          "[hub][transcript][game][variants]") {
  for (Variant v : all_variants()) {
    const std::string name(info(v).name);
    INFO(name);
    HubClient hub;
    hub.send("set-param name=variant value=" + name);
    hub.start_session();
    Game game(v);
    const std::string start = hub::format_position(v, game.position());
    std::vector<std::string> history;
    std::size_t infos = 0;
    while (game.result().outcome == Outcome::Ongoing && history.size() < kPlyLimit) {
      hub.send("pos pos=" + start +
               (history.empty() ? "" : " moves=\"" + moves_field(history) + "\""));
      hub.send("level depth=3");
      hub.send("go think");
      std::vector<std::string> before;
      const std::string done = hub.until_done(&before);
      for (const std::string& l : before) CHECK(l.rfind("info ", 0) == 0);
      infos += before.size();
      const auto f = fields(done);
      INFO(notation::format_fen(v, game.position()) << " <- " << done);
      REQUIRE(f.size() >= 1);
      REQUIRE(f[0].rfind("move=", 0) == 0);
      const std::string text = f[0].substr(5);
      const auto move = hub::parse_move(v, game.position(), text);
      REQUIRE(move.ok());
      // The move read back is one of the rules core's legal moves, and prints back the same.
      const MoveList legal = legal_moves(v, game.position());
      CHECK(std::find(legal.begin(), legal.end(), *move) != legal.end());
      CHECK(hub::format_move(v, *move) == text);
      if (v == Variant::English) {
        // pydraughts' numbering: plain PDN, read independently by the rules core.
        const auto pdn = notation::parse_move(v, game.position(), text);
        REQUIRE(pdn.ok());
        CHECK(*pdn == *move);
      }
      REQUIRE(game.play(*move));
      history.push_back(text);
    }
    const GameResult r = game.result();
    WARN(name << ": " << describe(r.outcome) << " (" << describe(r.reason) << ") after "
              << history.size() << " plies");
    CHECK(history.size() >= 10);
    CHECK(infos > 0);
    if (r.reason == ResultReason::NoLegalMove) {
      // The side that lost, asked for a move, answers a bare done.
      hub.send("pos pos=" + start + " moves=\"" + moves_field(history) + "\"");
      hub.send("go think");
      CHECK(hub.until_done() == "done");
    }
    hub.send("quit");
    CHECK(hub.process().wait(5000ms) == 0);
  }
}
