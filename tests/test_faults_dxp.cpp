// DXP connections that drop mid-game (issue 29), against real `tsuru dxp` processes: a peer
// that disconnects while the follower is searching and comes back to resume the game from the
// position reached (a GAMEREQ with that position), and a follower that vanishes under an
// initiator. The game that was cut off ends unfinished with the reason, in the status line and
// its PDN file; the engine never crashes and serves the next connection; the resumed game is
// played to its end from the position it was cut off in.
#include <unistd.h>
#include <csignal>
#include <filesystem>
#include <random>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/dxp/board.hpp"
#include "tests/dxp_process.hpp"
#include "tests/pdn_check.hpp"
#include "tests/spawn.hpp"
#include "tests/text_helpers.hpp"

using namespace tsuru;
using namespace tsuru::dxp;
using namespace std::chrono_literals;
using test::PeerSocket;
using tools::ChildProcess;
namespace fs = std::filesystem;

namespace {

constexpr Variant kVariant = Variant::International;

struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("tsuru-dxp-faults-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string expect(PeerSocket& peer, char type, double timeout = 30) {
  while (true) {
    const auto m = peer.receive(timeout);
    INFO("expected a message of type " << type);
    REQUIRE(m);
    REQUIRE(!m->empty());
    if ((*m)[0] == 'C' && type != 'C') continue;  // chat
    INFO("received '" << *m << "'");
    CHECK((*m)[0] == type);
    return *m;
  }
}

// The test's own board; our moves are seeded random legal moves.
struct Table {
  Position pos = start_position(kVariant);
  std::mt19937 rng{29};

  void engine_moved(const std::string& payload) {
    const auto m = parse(payload);
    REQUIRE(m.ok());
    REQUIRE(std::holds_alternative<MoveMessage>(*m));
    const auto move = find_move(kVariant, pos, std::get<MoveMessage>(*m));
    INFO(payload << ": " << (move.ok() ? std::string() : move.error()));
    REQUIRE(move.ok());
    pos.play(*move);
  }
  std::string our_move() {
    const MoveList moves = legal_moves(kVariant, pos);
    REQUIRE_FALSE(moves.empty());
    const Move m = moves[rng() % moves.size()];
    pos.play(m);
    return format(move_message(kVariant, m, 0));
  }
};

// Plays on from t.pos until the game ends; `engine` is the engine's side. The GAMEEND that ended
// it (the engine's, or ours when we have no move).
std::string play_out(PeerSocket& peer, Table& t, Side engine) {
  for (int ply = 0; ply < 600; ++ply) {
    if (t.pos.turn() == engine) {
      std::optional<std::string> next;
      do next = peer.receive(30);
      while (next && !next->empty() && (*next)[0] == 'C');
      REQUIRE(next);
      REQUIRE(!next->empty());
      const std::string m = *next;
      if (m[0] == 'E') {
        peer.send("E00");
        return m;
      }
      if (m[0] != 'M') return m;
      t.engine_moved(m);
    } else {
      if (legal_moves(kVariant, t.pos).empty()) {
        peer.send("E10");  // no move: we lose
        return expect(peer, 'E');
      }
      peer.send(t.our_move());
    }
  }
  FAIL("the game did not end");
  return {};
}

// The PDN files of a directory, by name (the game's number is in it).
std::vector<std::string> pdn_files(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("DXP faults: a peer drops mid-search, comes back and resumes the game where it was",
          "[.faults][dxp]") {
  TempDir pdn;
  test::Listener tsuru({"--variant", "international", "--level", "medium", "--hash", "16",
                        "--ack-timeout", "1", "--pdn", pdn.path.string()});
  Table t;
  {
    PeerSocket peer(tsuru.port);
    // We play White; the engine Black.
    peer.send(format(make_request(kVariant, "Peer", Side::Black, 5, 75, t.pos)));
    CHECK(expect(peer, 'A') == format(GameAccept{"Tsuru", AcceptCode::Accept}));
    for (int i = 0; i < 5; ++i) {
      peer.send(t.our_move());
      t.engine_moved(expect(peer, 'M'));
    }
    // Our sixth move, and gone while the engine thinks about its answer.
    peer.send(t.our_move());
    peer.close();
  }
  std::string line;
  REQUIRE(tsuru.process->read_line_containing("game 1.1:", line, 30s) == ChildProcess::Read::Ok);
  CHECK_THAT(line, Catch::Contains(" * (peer disconnected"));
  CHECK_THAT(line, Catch::EndsWith(" 11 plies"));  // our sixth move was taken in
  CHECK(tsuru.process->running());

  // Back, the same game from where it was cut off: the engine (Black) to move.
  PeerSocket again(tsuru.port);
  const Position cut = t.pos;
  again.send(format(make_request(kVariant, "Peer", Side::Black, 5, 75, cut)));
  CHECK(expect(again, 'A') == format(GameAccept{"Tsuru", AcceptCode::Accept}));
  const std::string end = play_out(again, t, Side::Black);
  INFO("the game ended with " << end);
  REQUIRE(tsuru.process->read_line_containing("game 2.1:", line, 60s) == ChildProcess::Read::Ok);
  INFO(line);
  CHECK(line.find(" * (") == std::string::npos);  // played to a result
  CHECK(tsuru.process->running());

  // Both games' PDN files: the cut one unfinished with its reason, the resumed one from the
  // position it was cut off in, each sound when replayed.
  const auto files = pdn_files(pdn.path);
  REQUIRE(files.size() == 2);
  const test::PdnFile first = test::read_pdn(test::read_file(files[0]));
  const test::PdnFile second = test::read_pdn(test::read_file(files[1]));
  REQUIRE(first.error.empty());
  REQUIRE(second.error.empty());
  REQUIRE(first.games.size() == 1);
  REQUIRE(second.games.size() == 1);
  CHECK(first.games[0].tag("Result") == "*");
  CHECK_THAT(first.games[0].tag("Termination"), Catch::Contains("peer disconnected"));
  CHECK(test::check_pdn_game(kVariant, first.games[0]) == "");
  CHECK(second.games[0].tag("FEN") == notation::format_fen(kVariant, cut));
  CHECK(second.games[0].tag("Result") != "*");
  CHECK(test::check_pdn_game(kVariant, second.games[0]) == "");
  again.close();
  tsuru.process->signal(SIGTERM);
  CHECK(tsuru.process->wait(30s) == 0);
}

TEST_CASE(
    "DXP faults: the follower vanishes mid-game: the initiator ends the game unfinished "
    "and exits cleanly",
    "[.faults][dxp]") {
  TempDir pdn;
  test::ServerSocket server;
  const auto tsuru = test::spawn(
      {TSURU_BINARY, "dxp", "--connect", "127.0.0.1:" + std::to_string(server.port()),
       "--initiator", "--games", "3", "--time", "1", "--moves", "75", "--variant", "international",
       "--level", "beginner", "--hash", "16", "--pdn", pdn.path.string()});
  {
    auto peer = server.accept(20);
    REQUIRE(peer);
    expect(*peer, 'R');
    peer->send(format(GameAccept{"Follower", AcceptCode::Accept}));
    Table t;
    for (int i = 0; i < 3; ++i) {
      t.engine_moved(expect(*peer, 'M'));  // the initiator plays White in game 1
      peer->send(t.our_move());
    }
  }  // closed mid-game
  std::string line;
  REQUIRE(tsuru->read_line_containing("game 1.1:", line, 30s) == ChildProcess::Read::Ok);
  CHECK_THAT(line, Catch::Contains(" * (peer disconnected"));
  REQUIRE(tsuru->read_line_containing("session:", line, 30s) == ChildProcess::Read::Ok);
  CHECK_THAT(line, Catch::Contains("games=1 ") && Catch::Contains("unfinished=1") &&
                       Catch::EndsWith(" incomplete"));
  const auto code = tsuru->wait(30s);
  INFO("exit status " << (code ? std::to_string(*code) : "none (still running)"));
  CHECK(code == 1);  // an exit code, not a signal: the match was not complete
  const auto files = pdn_files(pdn.path);
  REQUIRE(files.size() == 1);
  const test::PdnFile file = test::read_pdn(test::read_file(files[0]));
  REQUIRE(file.error.empty());
  REQUIRE(file.games.size() == 1);
  CHECK(file.games[0].tag("Result") == "*");
  CHECK(test::check_pdn_game(kVariant, file.games[0]) == "");
}
