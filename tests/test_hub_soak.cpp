// Soak: 200 complete self-play games between two `tsuru hub` processes driven over Hub, every
// move checked legal by the rules core. Hidden from the default run ([.soak]); .ci/run runs it.
//
// The driver varies what real clients vary: the rule set (alternating), the opening (a few
// random plies), how the position is sent (whole history from the start as pydraughts does,
// the current position alone as the Hub GUI may, or a PDN FEN), the level form (depth, nodes,
// move-time, clock), the go mode (think, or ponder followed by ponder-hit) and set-param and
// new-game between games. Each go must give exactly one done, and no error line may appear.
#include <chrono>
#include <random>

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

struct Stats {
  int games = 0, plies = 0, white = 0, black = 0, draws = 0, ponders = 0;
};

std::string position_line(const Game& game, const std::vector<std::string>& history,
                          std::mt19937_64& rng) {
  const Variant v = game.variant();
  switch (rng() % 3) {
    case 0: {  // pydraughts: the start position and every move since
      std::string line = "pos pos=" + hub::format_position(v, game.start());
      if (!history.empty()) {
        line += " moves=\"";
        for (std::size_t i = 0; i < history.size(); ++i) line += (i ? " " : "") + history[i];
        line += "\"";
      }
      return line;
    }
    case 1:  // the current position only
      return "pos pos=" + hub::format_position(v, game.position());
    default:  // a PDN FEN
      return "pos pos=" + notation::format_fen(v, game.position());
  }
}

std::string level_line(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return "level depth=" + std::to_string(1 + rng() % 4);
    case 1:
      return "level nodes=" + std::to_string(200 + rng() % 3000);
    case 2:
      return "level move-time=0.0" + std::to_string(1 + rng() % 2);
    default:
      return "level time=0.2 inc=0.01";
  }
}

void expect_clean(const std::vector<std::string>& lines) {
  for (const std::string& l : lines) {
    INFO(l);
    CHECK(l.rfind("info ", 0) == 0);
  }
}

}  // namespace

TEST_CASE("hub soak: 200 self-play games between two engine processes", "[.soak][hub]") {
  const auto start = std::chrono::steady_clock::now();
  HubClient a, b;
  for (HubClient* e : {&a, &b}) {
    e->send("set-param name=tt-size value=16");
    e->start_session();
  }
  std::mt19937_64 rng(2026);
  Stats stats;
  for (int g = 0; g < 200; ++g) {
    const Variant v = g % 2 ? Variant::English : Variant::International;
    for (HubClient* e : {&a, &b}) {
      e->send("set-param name=variant value=" + std::string(info(v).name));
      e->send("set-param name=seed value=" + std::to_string(g));
      e->send("new-game");
      expect_clean(e->sync());
    }
    Game game(v);
    std::vector<std::string> history;
    // A few random plies so that the games differ.
    const int opening = static_cast<int>(rng() % 5);
    for (int i = 0; i < opening && game.result().outcome == Outcome::Ongoing; ++i) {
      const MoveList moves = game.legal_moves();
      const Move m = moves[rng() % moves.size()];
      history.push_back(hub::format_move(v, m));
      game.play(m);
    }
    HubClient* first = g % 4 < 2 ? &a : &b;
    while (game.result().outcome == Outcome::Ongoing) {
      const bool first_to_move = game.position().turn() == info(v).first_to_move;
      HubClient& e = first_to_move ? *first : (first == &a ? b : a);
      e.send(position_line(game, history, rng));
      e.send(level_line(rng));
      std::vector<std::string> before;
      if (rng() % 8 == 0) {
        e.send("go ponder");
        e.send("ponder-hit");
        ++stats.ponders;
      } else {
        e.send("go think");
      }
      const std::string done = e.until_done(&before, 30000ms);
      expect_clean(before);
      const auto f = fields(done);
      INFO("game " << g << " ply " << history.size() << ": " << done);
      REQUIRE(f.size() >= 1);
      REQUIRE(f[0].rfind("move=", 0) == 0);
      const auto m = hub::parse_move(v, game.position(), f[0].substr(5));
      REQUIRE(m.ok());
      // The rules core agrees, from the PDN side too.
      const auto pdn = notation::parse_move(v, game.position(), notation::format_move(v, *m));
      REQUIRE(pdn.ok());
      REQUIRE(game.play(*pdn));
      history.push_back(f[0].substr(5));
      if (history.size() % 16 == 0) expect_clean(e.sync());  // nothing after done
    }
    ++stats.games;
    stats.plies += static_cast<int>(history.size());
    switch (game.result().outcome) {
      case Outcome::WhiteWins:
        ++stats.white;
        break;
      case Outcome::BlackWins:
        ++stats.black;
        break;
      default:
        ++stats.draws;
        break;
    }
  }
  for (HubClient* e : {&a, &b}) {
    e->send("quit");
    CHECK(e->process().wait(5000ms) == 0);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(stats.games == 200);
  WARN("soak: " << stats.games << " games, " << stats.plies << " plies (" << stats.ponders
                << " pondered), white " << stats.white << ", black " << stats.black << ", draws "
                << stats.draws << ", " << seconds << " s");
}
