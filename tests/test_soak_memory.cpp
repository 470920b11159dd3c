// Long-run soak (issue 29): many games in one engine process, its resident memory (VmRSS) read
// every 100 games, which must stay within 10% of the figure after the first 100, and its threads
// and open file descriptors, which must not grow. Hidden ([.soak-memory]):
//   - DXP: a listening `tsuru dxp` follower plays every game on one connection, the test being
//     the initiator (it plays random moves at once and reads the engine's figures between
//     games, when it does not search);
//   - Hub: one `tsuru hub` process plays both sides of every game, the rule set alternating,
//     new-game between games, the whole game sent with each `pos`.
// TSURU_SOAK_GAMES sets the number of games (default 1,000, the full soak: README "Building by
// hand"); TSURU_SOAK_QUICK=1 plays at a fixed depth of one ply in Hub and at the beginner level
// in DXP (.ci/run: 1,000 games of each in about a minute). Otherwise Hub plays a fast clock
// (`level time=0.2 inc=0.01` every move) and the DXP follower the medium level (DXP clocks are
// whole minutes: a level is what makes its games fast), both with their default 64 MiB table.
// The curves are printed.
#include <csignal>
#include <cstdlib>
#include <random>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "protocol/dxp/board.hpp"
#include "protocol/dxp/message.hpp"
#include "protocol/hub/notation.hpp"
#include "tests/dxp_process.hpp"
#include "tests/hub_client.hpp"
#include "tests/proc_stats.hpp"
#include "tests/spawn.hpp"

using namespace tsuru;
using namespace std::chrono_literals;
using test::ProcStats;
using tools::ChildProcess;

namespace {

int soak_games() {
  const char* text = std::getenv("TSURU_SOAK_GAMES");
  const int n = text ? std::atoi(text) : 1000;
  return n >= 200 ? n : 200;  // two samples at least
}

bool quick() {
  const char* text = std::getenv("TSURU_SOAK_QUICK");
  return text && std::string(text) == "1";
}

struct Sample {
  int games = 0;
  ProcStats stats;
};

// The curve as one line per figure, for the log and the README.
std::string curve(const std::string& who, const std::vector<Sample>& samples) {
  std::ostringstream out;
  out << who << ": games";
  for (const Sample& s : samples) out << ' ' << s.games;
  out << "\n  RSS KiB";
  for (const Sample& s : samples) out << ' ' << s.stats.rss_kib;
  out << "\n  threads";
  for (const Sample& s : samples) out << ' ' << s.stats.threads;
  out << "\n  fds    ";
  for (const Sample& s : samples) out << ' ' << s.stats.fds;
  return out.str();
}

// Flat after the first 100 games: resident memory within 10% of the first sample, threads and
// descriptors never above it.
void check_flat(const std::string& who, const std::vector<Sample>& samples) {
  INFO(curve(who, samples));
  REQUIRE(samples.size() >= 2);
  const ProcStats& base = samples.front().stats;
  REQUIRE(base.rss_kib > 0);
  for (const Sample& s : samples) {
    INFO("after " << s.games << " games");
    CHECK(static_cast<double>(s.stats.rss_kib) <= 1.10 * static_cast<double>(base.rss_kib));
    CHECK(static_cast<double>(s.stats.rss_kib) >= 0.90 * static_cast<double>(base.rss_kib));
    CHECK(s.stats.threads <= base.threads);
    CHECK(s.stats.fds <= base.fds);
  }
}

}  // namespace

TEST_CASE("memory soak: DXP games on one connection, memory, threads and descriptors flat",
          "[.soak-memory][dxp]") {
  const int games = soak_games();
  const Variant v = Variant::International;
  const std::string level = quick() ? "beginner" : "medium";
  // The full soak gives the follower the default table (64 MiB, filled as the games go on).
  std::vector<std::string> args = {"--variant", "international", "--level",
                                   level,       "--name",        "Follower"};
  if (quick()) args.insert(args.end(), {"--hash", "16"});
  test::Listener follower(args);
  // The test is the initiator: it requests every game on one connection, plays seeded random
  // moves at once, and reads the engine's figures between games, when it is not searching.
  test::PeerSocket peer(follower.port);
  std::mt19937_64 rng(29);
  std::vector<Sample> samples;
  int plies = 0;
  auto next_message = [&]() {
    while (true) {
      const auto m = peer.receive(120);
      REQUIRE(m);
      REQUIRE(!m->empty());
      if ((*m)[0] != 'C') return *m;  // chat is informative only
    }
  };
  for (int g = 1; g <= games; ++g) {
    const Side engine = g % 2 ? Side::White : Side::Black;
    Position pos = start_position(v);
    peer.send(dxp::format(dxp::make_request(v, "Soak", engine, 5, 0, pos)));
    REQUIRE(next_message()[0] == 'A');
    for (int ply = 0;; ++ply) {
      REQUIRE(ply < 2000);
      if (pos.turn() == engine) {
        const std::string m = next_message();
        if (m[0] == 'E') {  // the engine ends the game on its turn; we acknowledge
          peer.send("E00");
          break;
        }
        const auto parsed = dxp::parse(m);
        REQUIRE(parsed.ok());
        REQUIRE(std::holds_alternative<dxp::MoveMessage>(*parsed));
        const auto move = dxp::find_move(v, pos, std::get<dxp::MoveMessage>(*parsed));
        REQUIRE(move.ok());
        pos.play(*move);
      } else {
        const MoveList moves = legal_moves(v, pos);
        if (moves.empty()) {  // we have lost, and say so
          peer.send("E10");
          REQUIRE(next_message()[0] == 'E');
          break;
        }
        const Move m = moves[rng() % moves.size()];
        peer.send(dxp::format(dxp::move_message(v, m, 0)));
        pos.play(m);
      }
      ++plies;
    }
    std::string line;
    REQUIRE(follower.process->read_line_containing("game ", line, 60s) == ChildProcess::Read::Ok);
    INFO(line);
    CHECK(line.find(" * (") == std::string::npos);  // every game ends with a result
    if (g % 100 == 0) samples.push_back({g, test::proc_stats_settled(follower.process->pid())});
  }
  peer.close();
  std::string line;
  REQUIRE(follower.process->read_line_containing("session:", line, 60s) == ChildProcess::Read::Ok);
  CHECK_THAT(line, Catch::Contains("games=" + std::to_string(games) + " "));
  CHECK_THAT(line, Catch::Contains("unfinished=0 errors=0"));
  follower.process->signal(SIGTERM);
  CHECK(follower.process->wait(30s) == 0);
  WARN(curve("dxp follower (" + level + ")", samples) << "\nplies: " << plies);
  check_flat("dxp follower", samples);
}

TEST_CASE("memory soak: Hub games in one process, memory, threads and descriptors flat",
          "[.soak-memory][hub]") {
  const int games = soak_games();
  const std::string level = quick() ? "level depth=1" : "level time=0.2 inc=0.01";
  test::HubClient engine;
  // The full soak keeps the default table (64 MiB, filled as the games go on).
  if (quick()) engine.send("set-param name=tt-size value=16");
  engine.start_session();
  std::mt19937_64 rng(29);
  std::vector<Sample> samples;
  int plies = 0;
  for (int g = 1; g <= games; ++g) {
    const Variant v = g % 2 ? Variant::International : Variant::English;
    engine.send("set-param name=variant value=" + std::string(info(v).name));
    engine.send("set-param name=seed value=" + std::to_string(g));
    engine.send("new-game");
    for (const std::string& l : engine.sync()) FAIL("unexpected line " << l);
    Game game(v);
    std::string moves;
    // A few random plies first, so that the games differ.
    for (int i = static_cast<int>(rng() % 4); i > 0 && game.result().outcome == Outcome::Ongoing;
         --i) {
      const MoveList legal = game.legal_moves();
      const Move m = legal[rng() % legal.size()];
      moves += (moves.empty() ? "" : " ") + hub::format_move(v, m);
      game.play(m);
    }
    while (game.result().outcome == Outcome::Ongoing) {
      engine.send("pos pos=" + hub::format_position(v, game.start()) +
                  (moves.empty() ? "" : " moves=\"" + moves + "\""));
      engine.send(level);
      engine.send("go think");
      std::vector<std::string> before;
      const std::string done = engine.until_done(&before, 30000ms);
      for (const std::string& l : before) {
        INFO(l);
        REQUIRE(l.rfind("info ", 0) == 0);
      }
      INFO("game " << g << ": " << done);
      const auto f = test::fields(done);
      REQUIRE(!f.empty());
      REQUIRE(f[0].rfind("move=", 0) == 0);
      const auto m = hub::parse_move(v, game.position(), f[0].substr(5));
      REQUIRE(m.ok());
      REQUIRE(game.play(*m));
      moves += (moves.empty() ? "" : " ") + f[0].substr(5);
      ++plies;
    }
    if (g % 100 == 0) {
      for (const std::string& l : engine.sync()) FAIL("unexpected line " << l);
      samples.push_back({g, test::proc_stats_settled(engine.process().pid())});
    }
  }
  engine.send("quit");
  CHECK(engine.process().wait(5000ms) == 0);
  WARN(curve("hub (" + level + ")", samples) << "\nplies: " << plies);
  check_flat("hub", samples);
}
