// tsuru match against a DXP follower that, like Scan 2.0, serves one connection per process
// and is gone when it closes: a test server on a fixed port that accepts one connection, plays
// one game on it (the first legal move each turn), closes it and "restarts" (listens again
// after a pause) as often as the test says. The match must open no connection it does not play
// on, reconnect while the follower restarts, name the engine as its GAMEACC does, and treat a
// follower that does not come back as a setup error: the match stops, exits non-zero, and no
// game is forfeited or counted.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "protocol/dxp/board.hpp"
#include "tests/dxp_process.hpp"
#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"

using namespace tsuru;
using tsuru::test::count_of;
using tsuru::test::PeerSocket;
using tsuru::test::read_file;
using namespace std::chrono_literals;

namespace {

const std::string kBinary = TSURU_BINARY;

// A listening socket on 127.0.0.1:port (0: a free port); -1 when the port cannot be had.
int listen_on(int port) {
  // Close-on-exec: a `tsuru match` child must not inherit the follower's sockets.
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 4) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int port_of(int fd) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  return ntohs(addr.sin_port);
}

// The follower: `lives` processes one after another, each serving one connection.
class OneShotFollower {
 public:
  OneShotFollower(Variant v, int lives) : variant_(v) {
    const int fd = listen_on(0);
    REQUIRE(fd >= 0);
    port_ = port_of(fd);
    thread_ = std::thread([this, fd, lives] { run(fd, lives); });
  }
  ~OneShotFollower() {
    stop_ = true;
    thread_.join();
  }
  int port() const { return port_; }
  int connections() const { return connections_; }
  int games() const { return games_; }

 private:
  void run(int fd, int lives) {
    for (int life = 0; life < lives && !stop_; ++life) {
      if (life > 0) {
        std::this_thread::sleep_for(300ms);  // the restart: connections are refused meanwhile
        fd = listen_on(port_);
        if (fd < 0) return;
      }
      int conn = -1;
      for (int waited = 0; conn < 0 && waited < 600 && !stop_; ++waited) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0) conn = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
      }
      ::close(fd);  // one connection per process
      if (conn < 0) return;
      ++connections_;
      auto peer = PeerSocket::adopt(conn);
      serve(*peer);
    }
  }

  void send_move(PeerSocket& peer, Game& game) {
    const Move m = game.legal_moves()[0];
    game.play(m);
    peer.send(dxp::format(dxp::move_message(variant_, m, 0)));
  }

  // One game, then the connection closes (the process exits).
  void serve(PeerSocket& peer) {
    std::optional<Game> game;
    Side ours = Side::White;
    while (!stop_) {
      const auto payload = peer.receive(60);
      if (!payload) return;
      const auto m = dxp::parse(*payload);
      if (!m) return;
      if (const auto* r = std::get_if<dxp::GameRequest>(&*m)) {
        const auto start = dxp::request_start(variant_, *r);
        if (!start) return;
        peer.send(dxp::format(dxp::GameAccept{"OneShot", dxp::AcceptCode::Accept}));
        game.emplace(variant_, *start);
        ours = r->follower_side;
        if (game->position().turn() == ours) send_move(peer, *game);
      } else if (const auto* mv = std::get_if<dxp::MoveMessage>(&*m)) {
        if (!game) return;
        const auto move = dxp::find_move(variant_, game->position(), *mv);
        if (!move) return;
        game->play(*move);
        const GameResult result = game->result();
        if (result.outcome == Outcome::Ongoing) {
          send_move(peer, *game);
          continue;
        }
        // The game ended on our turn: we say so and wait for the acknowledgement.
        peer.send(result.outcome == Outcome::Draw ? "E20" : "E10");
        const auto ack = peer.receive(10);
        ++games_;
        return;
      } else if (std::holds_alternative<dxp::GameEnd>(*m)) {
        if (game) peer.send("E00");
        ++games_;
        return;
      }
    }
  }

  Variant variant_;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0}, games_{0};
  std::thread thread_;
};

tsuru::test::TsuruRun match(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"match"};
  argv.insert(argv.end(), args.begin(), args.end());
  return tsuru::test::run_tsuru(argv, "", 300s);
}

}  // namespace

TEST_CASE("match: a DXP follower that takes one connection per process, restarted between games",
          "[match][engines][dxp]") {
  OneShotFollower follower(Variant::English, 2);
  const std::string pdn = "tsuru_match_oneshot.pdn";
  const auto run = match({"--variant", "english", "--games", "2", "--depth", "2", "--engine",
                          "hub:" + kBinary + " hub", "--engine",
                          "dxp:127.0.0.1:" + std::to_string(follower.port()), "--pdn", pdn});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(follower.connections() == 2);  // no probe connection: one per game
  CHECK(follower.games() == 2);
  CHECK(run.out.find("forfeits") == std::string::npos);
  CHECK(count_of(run.out, "\ngame ") == 2);
  // The engine's name from its GAMEACC, in the table and the PDN.
  CHECK(run.out.find("2: OneShot ") != std::string::npos);
  const std::string games = read_file(pdn);
  CHECK(count_of(games, "\"2: OneShot\"]") == 2);
  CHECK(games.find("dxp:127.0.0.1") == std::string::npos);
  CHECK(run.out.find("result W=") != std::string::npos);
  std::remove(pdn.c_str());
}

TEST_CASE("match: a DXP follower that does not come back is a setup error, not a win",
          "[match][engines][dxp]") {
  // One game's worth of follower, three games asked: game 2 cannot connect.
  OneShotFollower follower(Variant::English, 1);
  const auto run = match({"--variant", "english", "--games", "3", "--depth", "2", "--engine",
                          "hub:" + kBinary + " hub", "--engine",
                          "dxp:127.0.0.1:" + std::to_string(follower.port()), "--dxp-retry", "1"});
  INFO(run.out << run.err);
  CHECK(run.code == 1);
  CHECK(follower.games() == 1);
  CHECK(count_of(run.out, "\ngame ") == 2);  // game 1 played, game 2 not
  CHECK(run.out.find("game 2/3 not played: engine 2 cannot start: cannot connect") !=
        std::string::npos);
  CHECK(run.out.find("game 3/") == std::string::npos);
  CHECK(run.out.find("forfeits") == std::string::npos);
  CHECK(run.out.find("result W=") == std::string::npos);
  CHECK(run.err.find("error: match stopped after 1 games: setup error: engine 2 (OneShot): "
                     "cannot connect") != std::string::npos);
}

TEST_CASE("match: no DXP follower at all is an error before any game", "[match][engines][dxp]") {
  // A port nobody listens on: taken, then given back.
  const int fd = listen_on(0);
  REQUIRE(fd >= 0);
  const int port = port_of(fd);
  ::close(fd);
  const auto t0 = std::chrono::steady_clock::now();
  const auto run = match({"--variant", "english", "--games", "2", "--depth", "2", "--engine",
                          "hub:" + kBinary + " hub", "--engine",
                          "dxp:127.0.0.1:" + std::to_string(port), "--dxp-retry", "1"});
  INFO(run.out << run.err);
  CHECK(run.code != 0);
  CHECK(run.err.find("engine 2 (dxp:127.0.0.1:" + std::to_string(port) + "): cannot connect") !=
        std::string::npos);
  CHECK(run.out.find("result ") == std::string::npos);
  CHECK(run.out.find("\ngame ") == std::string::npos);
  // It kept trying for the retry time.
  CHECK(std::chrono::steady_clock::now() - t0 >= 1s);
}
