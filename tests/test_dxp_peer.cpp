// A scripted DXP peer over raw TCP against a real `tsuru dxp` follower: split and coalesced
// frames, illegal moves, garbage, disconnects, take-backs, refusals and the GAMEEND handshake.
// The test keeps its own board and checks that every move the engine sends is legal.
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/dxp/board.hpp"
#include "tests/dxp_process.hpp"
#include "tests/spawn.hpp"
#include "tests/text_helpers.hpp"

using namespace tsuru;
using namespace tsuru::dxp;
using namespace std::chrono_literals;
using tsuru::test::Listener;
using tsuru::test::PeerSocket;

namespace {

const std::vector<std::string> kBeginner = {
    "--variant", "international", "--level", "beginner", "--hash", "16", "--ack-timeout", "1"};

const std::string kAccept = format(GameAccept{"Tsuru", AcceptCode::Accept});

// A request from "Peer": the follower (the engine) plays `engine`.
std::string request(Side engine, int minutes = 5, int moves = 75, const Position* start = nullptr) {
  const Position s = start ? *start : start_position(Variant::International);
  return format(make_request(Variant::International, "Peer", engine, minutes, moves, s));
}

// The next message, which must be of the given type.
std::string expect(PeerSocket& peer, char type, double timeout = 20) {
  const auto m = peer.receive(timeout);
  INFO("expected a message of type " << type);
  REQUIRE(m);
  INFO("received '" << *m << "'");
  REQUIRE(!m->empty());
  CHECK((*m)[0] == type);
  return *m;
}

// Requests a game (the peer plays Black) and checks that the engine accepts it.
void open_game(PeerSocket& peer) {
  peer.send(request(Side::Black));
  CHECK(expect(peer, 'A') == kAccept);
}

void expect_silence(PeerSocket& peer, double seconds = 0.4) {
  const auto m = peer.receive(seconds);
  INFO("unexpected message '" << m.value_or("") << "'");
  CHECK_FALSE(m);
}

// The test's own board.
struct Table {
  Variant v = Variant::International;
  Position pos = start_position(Variant::International);

  // The engine's move: must be a legal MOVE here.
  void engine_moved(const std::string& payload) {
    const auto m = parse(payload);
    INFO("engine sent '" << payload << "'");
    REQUIRE(m.ok());
    REQUIRE(std::holds_alternative<MoveMessage>(*m));
    const auto move = find_move(v, pos, std::get<MoveMessage>(*m));
    INFO((move.ok() ? std::string() : move.error()));
    REQUIRE(move.ok());
    pos.play(*move);
  }
  // Our move: the pick-th legal move (the last one when there are fewer).
  std::string our_move(std::size_t pick = 0) {
    const MoveList moves = legal_moves(v, pos);
    REQUIRE_FALSE(moves.empty());
    const Move m = moves[std::min(pick, moves.size() - 1)];
    pos.play(m);
    return format(move_message(v, m, 0));
  }
};

void pause_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace

TEST_CASE("DXP peer: split frames, two frames in one write, chat, R during a game, GAMEEND",
          "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  Table t;
  // The request in three pieces.
  const std::string r = request(Side::Black) + '\0';
  peer.send_raw(r.substr(0, 10));
  pause_ms(50);
  peer.send_raw(r.substr(10, 20));
  pause_ms(50);
  peer.send_raw(r.substr(30));
  CHECK(expect(peer, 'A') == kAccept);

  // Our first move split in two writes.
  const std::string m1 = t.our_move() + '\0';
  peer.send_raw(m1.substr(0, 6));
  pause_ms(50);
  peer.send_raw(m1.substr(6));
  t.engine_moved(expect(peer, 'M'));

  // A move and a chat in one write.
  peer.send_raw(t.our_move() + '\0' + "Chello from the test" + '\0');
  t.engine_moved(expect(peer, 'M'));

  // A chat alone gets no answer; a request during the game is refused with code 2.
  peer.send("Cjust talking");
  expect_silence(peer);
  peer.send(request(Side::Black));
  CHECK(expect(peer, 'A') == format(GameAccept{"Tsuru", AcceptCode::NotThisGame}));
  // ... and the game goes on.
  peer.send(t.our_move());
  t.engine_moved(expect(peer, 'M'));

  // We end the game on our turn: the answer is E0 with no reason of its own, then silence.
  peer.send("E20");
  CHECK(expect(peer, 'E') == "E00");
  expect_silence(peer);
  // A second game on the same connection.
  peer.send(request(Side::White));
  CHECK(expect(peer, 'A') == kAccept);
  Table t2;
  t2.engine_moved(expect(peer, 'M'));  // the engine plays White and moves first
}

TEST_CASE("DXP peer: the follower's first move may follow GAMEACC at once", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  peer.send(request(Side::White));
  CHECK(expect(peer, 'A') == kAccept);
  Table t;
  t.engine_moved(expect(peer, 'M'));
  peer.send(t.our_move());
  t.engine_moved(expect(peer, 'M'));
}

TEST_CASE("DXP peer: an illegal move gets a chat diagnostic and ends the game", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  open_game(peer);
  peer.send("M0001464100");  // 46-41: 41 holds a white man
  CHECK(expect(peer, 'C') == "Cerror: illegal move 46-41");
  CHECK(expect(peer, 'E') == "E00");
  peer.send("E00");  // our acknowledgement; it is not acknowledged in turn
  expect_silence(peer);
  // A square that is not on the board.
  open_game(peer);
  peer.send("M0001515600");
  CHECK(expect(peer, 'C') == "Cerror: square 51 is not on the board");
  CHECK(expect(peer, 'E') == "E00");
  // No acknowledgement this time: a new request in its place is accepted.
  open_game(peer);
}

TEST_CASE("DXP peer: garbage and unknown types get a diagnostic, the game goes on", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  Table t;
  open_game(peer);
  peer.send_raw(std::string("\xff\xfegarbage") + '\0');
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("non-ASCII"));
  peer.send("Xunknown");
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("unknown message type 'X'"));
  peer.send_raw(std::string(300, 'M') + '\0');
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("longer than 127"));
  peer.send_raw(std::string(1, '\0'));
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("empty message"));
  // The game is still on.
  peer.send(t.our_move());
  t.engine_moved(expect(peer, 'M'));
  // A malformed field ends it.
  peer.send("M00a1322800");
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("error: MOVE: time"));
  CHECK(expect(peer, 'E') == "E00");
}

TEST_CASE("DXP peer: a move out of turn ends the game", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  Table t;
  open_game(peer);
  // Two of our moves in one write: the second arrives on the engine's turn.
  const std::string first = t.our_move();
  peer.send_raw(first + '\0' + "M0001333800" + '\0');
  CHECK(expect(peer, 'C') == "Cerror: move out of turn 33-38");
  CHECK(expect(peer, 'E') == "E00");
  expect_silence(peer);  // the move the engine was thinking about is never sent
}

TEST_CASE("DXP peer: an abrupt disconnect ends the game; the listener keeps accepting",
          "[dxp][peer]") {
  Listener tsuru(kBeginner);
  {
    PeerSocket peer(tsuru.port);
    Table t;
    open_game(peer);
    peer.send(t.our_move());
    t.engine_moved(expect(peer, 'M'));
    peer.close();
  }
  std::string line;
  REQUIRE(tsuru.process->read_line_containing("game 1.1", line, 20s) ==
          tools::ChildProcess::Read::Ok);
  CHECK_THAT(line, Catch::Contains("peer disconnected"));
  CHECK_THAT(line, Catch::Contains(" * "));
  // Disconnected in the middle of a frame, too.
  {
    PeerSocket peer(tsuru.port);
    peer.send_raw("R01Pe");
  }
  PeerSocket again(tsuru.port);
  Table t;
  again.send(request(Side::Black));
  CHECK(expect(again, 'A') == kAccept);
  again.send(t.our_move());
  t.engine_moved(expect(again, 'M'));
  CHECK(tsuru.process->running());
}

TEST_CASE("DXP peer: take-back to a requested move", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  Table t;
  peer.send("B001W");  // no game: declined
  CHECK(expect(peer, 'K') == "K2");
  open_game(peer);
  const Position start = t.pos;
  peer.send("M0000322800");  // 32-28
  t.pos.play(*find_move(t.v, t.pos, std::get<MoveMessage>(*parse("M0000322800"))));
  t.engine_moved(expect(peer, 'M'));
  peer.send(t.our_move());
  t.engine_moved(expect(peer, 'M'));
  const Position after_one = [&] {
    Position p = start;
    p.play(*find_move(t.v, p, std::get<MoveMessage>(*parse("M0000322800"))));
    return p;
  }();

  peer.send("B050W");  // a position this game has not reached
  CHECK(expect(peer, 'K') == "K2");
  // Back to the start, White (us) to move: 32-28 is legal again only if the engine really
  // went back (32 is empty in the current position).
  peer.send("B001W");
  CHECK(expect(peer, 'K') == "K0");
  expect_silence(peer, 0.3);
  t.pos = start;
  peer.send("M0000322800");
  t.pos = after_one;
  t.engine_moved(expect(peer, 'M'));
  // Back to move 1 with Black (the engine) to move: it answers K0 and moves at once, from
  // the position after 32-28.
  peer.send("B001Z");
  CHECK(expect(peer, 'K') == "K0");
  t.pos = after_one;
  t.engine_moved(expect(peer, 'M'));
  peer.send(t.our_move());
  t.engine_moved(expect(peer, 'M'));
}

// The n-th reply the engine ponders on, read from its log ("pondering on 19-23"); empty when
// none comes within the timeout.
std::string pondered_reply(const std::string& log, int n, double timeout = 20) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  while (std::chrono::steady_clock::now() < until) {
    const std::string text = test::read_file(log);
    std::size_t at = 0;
    for (int seen = 0; (at = text.find("pondering on ", at)) != std::string::npos;) {
      at += 13;
      if (++seen == n) return text.substr(at, text.find('\n', at) - at);
    }
    pause_ms(20);
  }
  return {};
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

TEST_CASE("DXP peer: --ponder keeps the search on the expected reply, starts afresh on another",
          "[dxp][peer][ponder]") {
  const std::string log = (std::filesystem::temp_directory_path() /
                           ("tsuru-dxp-ponder-" + std::to_string(::getpid()) + ".log"))
                              .string();
  std::filesystem::remove(log);
  Listener tsuru({"--variant", "international", "--level", "medium", "--hash", "16", "--ponder",
                  "--log", log});
  PeerSocket peer(tsuru.port);
  Table t;
  open_game(peer);  // the engine plays Black
  peer.send(t.our_move());
  t.engine_moved(expect(peer, 'M'));

  // The reply it expects: played, the pondering search answers.
  const std::string expected = pondered_reply(log, 1);
  REQUIRE_FALSE(expected.empty());
  const auto hit = notation::parse_move(t.v, t.pos, expected);
  REQUIRE(hit.ok());
  t.pos.play(*hit);
  peer.send(format(move_message(t.v, *hit, 0)));
  t.engine_moved(expect(peer, 'M'));
  CHECK(count_of(test::read_file(log), "ponder hit") == 1);

  // Another reply: the ponder search is dropped and a new one answers.
  const std::string expected2 = pondered_reply(log, 2);
  REQUIRE_FALSE(expected2.empty());
  const MoveList moves = legal_moves(t.v, t.pos);
  REQUIRE(moves.size() > 1);
  const auto predicted = notation::parse_move(t.v, t.pos, expected2);
  REQUIRE(predicted.ok());
  const Move other = moves[0] == *predicted ? moves[1] : moves[0];
  t.pos.play(other);
  peer.send(format(move_message(t.v, other, 0)));
  t.engine_moved(expect(peer, 'M'));
  const std::string text = test::read_file(log);
  CHECK(count_of(text, "ponder hit") == 1);
  CHECK(count_of(text, "ponder miss") == 1);

  peer.close();
  std::string summary;
  REQUIRE(tsuru.process->read_line_containing("session:", summary, 20s) ==
          tools::ChildProcess::Read::Ok);
  CHECK_THAT(summary, Catch::Contains("errors=0 ponder-hits=1 ponder-misses=1"));
  tsuru.process.reset();
  std::filesystem::remove(log);
}

TEST_CASE("DXP peer: the engine declares no legal move, and takes R as acknowledgement",
          "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  // White (the engine) to move: its man on 46 is blocked by 41, which 37 covers.
  const auto blocked =
      parse_position(Variant::International, Side::White,
                     std::string(36, 'e') + "z" + "eee" + "z" + "eeee" + "w" + "eeee");
  REQUIRE(blocked.ok());
  peer.send(request(Side::White, 5, 75, &*blocked));
  CHECK(expect(peer, 'A') == kAccept);
  CHECK(expect(peer, 'E') == "E10");  // "I lose", more games welcome
  peer.send(request(Side::White));    // in place of the acknowledgement
  CHECK(expect(peer, 'A') == kAccept);
}

TEST_CASE("DXP peer: the engine declares a rule draw on its turn", "[dxp][peer]") {
  // King against king: drawn after 5 moves each (FMJD). A searching level, so that the
  // engine's king is never left to be taken.
  Listener tsuru(
      {"--variant", "international", "--level", "medium", "--hash", "16", "--ack-timeout", "1"});
  PeerSocket peer(tsuru.port);
  Table t;
  const auto kings = notation::parse_fen(t.v, "W:WK47:BK4");
  REQUIRE(kings.ok());
  t.pos = *kings;
  peer.send(request(Side::White, 5, 75, &*kings));
  CHECK(expect(peer, 'A') == kAccept);
  for (int move = 0; move < 5; ++move) {
    t.engine_moved(expect(peer, 'M'));
    // Our king goes where the engine's king cannot take it.
    const MoveList moves = legal_moves(t.v, t.pos);
    std::size_t pick = 0;
    while (pick + 1 < moves.size() && has_capture(t.v, t.pos.after(moves[pick]))) ++pick;
    peer.send(t.our_move(pick));
  }
  CHECK(expect(peer, 'E') == "E20");
}

TEST_CASE("DXP peer: the move limit ends the game with the engine's assessment", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  Table t;
  peer.send(request(Side::White, 5, 1));  // one move each
  CHECK(expect(peer, 'A') == kAccept);
  t.engine_moved(expect(peer, 'M'));
  peer.send(t.our_move());
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("move limit of 1 moves reached"));
  CHECK(expect(peer, 'E') == "E20");  // level after one move each
}

TEST_CASE("DXP peer: versions, impossible positions, and stop", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  peer.send("R02a later protocol version");
  CHECK(expect(peer, 'A') == format(GameAccept{"Tsuru", AcceptCode::WrongVersion}));
  // A 32-square position is not an international game.
  peer.send("R01Peer                            Z005075BW" + std::string(32, 'e'));
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("32 squares"));
  CHECK(expect(peer, 'A') == format(GameAccept{"Tsuru", AcceptCode::NotThisGame}));
  peer.send(format(GameAccept{"Peer", AcceptCode::Accept}));  // no request of the engine's
  CHECK_THAT(expect(peer, 'C'), Catch::Contains("GAMEACC without a GAMEREQ"));
  // Version 00 is accepted.
  peer.send("R00Peer                            Z005075A");
  CHECK(expect(peer, 'A') == kAccept);
  // We end the game and the session: E0 with stop, then the connection closes.
  peer.send("E31");
  std::vector<std::string> before;
  CHECK(peer.wait_closed(10, &before));
  REQUIRE(before.size() == 1);
  CHECK(before[0] == "E01");
  // The listener is still there.
  PeerSocket again(tsuru.port);
  again.send(request(Side::Black));
  CHECK(expect(again, 'A') == kAccept);
}

TEST_CASE("DXP peer: SIGTERM ends a game in progress politely and exits", "[dxp][peer]") {
  Listener tsuru(kBeginner);
  PeerSocket peer(tsuru.port);
  open_game(peer);
  tsuru.process->signal(SIGTERM);
  std::vector<std::string> before;
  CHECK(peer.wait_closed(10, &before));
  REQUIRE(before.size() == 2);
  CHECK(before[0] == "Cshutting down");
  CHECK(before[1] == "E01");
  CHECK(tsuru.process->wait(20s) == 0);
}

// ---- The test as follower, `tsuru dxp --initiator --connect` as initiator ----------------------

namespace {

std::vector<std::string> initiator_args(int port, int games) {
  return {TSURU_BINARY,
          "dxp",
          "--connect",
          "127.0.0.1:" + std::to_string(port),
          "--initiator",
          "--games",
          std::to_string(games),
          "--time",
          "1",
          "--moves",
          "75",
          "--variant",
          "international",
          "--level",
          "beginner",
          "--hash",
          "16",
          "--ack-timeout",
          "1"};
}

}  // namespace

TEST_CASE("DXP initiator: requests, GAMEACC with the first move, missing acknowledgement, stop",
          "[dxp][peer]") {
  tsuru::test::ServerSocket server;
  const auto tsuru = test::spawn(initiator_args(server.port(), 3));
  auto peer = server.accept(20);
  REQUIRE(peer);

  // Game 1: the initiator plays White from the normal start, 1 minute, 75 moves.
  CHECK(expect(*peer, 'R') == "R01Tsuru                           Z001075A");
  peer->send(format(GameAccept{"Follower", AcceptCode::Accept}));
  Table t1;
  t1.engine_moved(expect(*peer, 'M'));
  peer->send("M0001010700");  // 1-7: 7 holds a black man
  CHECK(expect(*peer, 'C') == "Cerror: illegal move 1-7");
  CHECK(expect(*peer, 'E') == "E00");
  // No acknowledgement from us: after its timeout the initiator goes on with game 2.
  const auto start = std::chrono::steady_clock::now();
  CHECK(expect(*peer, 'R') == "R01Tsuru                           W001075A");
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(800));

  // Game 2: we play White and send our first move in the same write as GAMEACC.
  Table t2;
  peer->send_raw(format(GameAccept{"Follower", AcceptCode::Accept}) + '\0' + t2.our_move() + '\0');
  t2.engine_moved(expect(*peer, 'M'));
  peer->send("E20");  // a draw, claimed on our turn
  CHECK(expect(*peer, 'E') == "E00");
  CHECK(expect(*peer, 'R') == "R01Tsuru                           Z001075A");

  // Game 3, the last: the acknowledgement of our GAMEEND carries stop = 1 and the initiator
  // closes the connection and exits.
  peer->send(format(GameAccept{"Follower", AcceptCode::Accept}));
  Table t3;
  t3.engine_moved(expect(*peer, 'M'));
  peer->send("E10");  // we resign
  std::vector<std::string> before;
  CHECK(peer->wait_closed(20, &before));
  REQUIRE(before.size() == 1);
  CHECK(before[0] == "E01");
  CHECK(tsuru->wait(20s) == 0);
  std::string summary;
  REQUIRE(tsuru->read_line_containing("session:", summary, 5s) == tools::ChildProcess::Read::Ok);
  CHECK(summary == "session: games=3 wins=1 draws=1 losses=0 unfinished=1 errors=1 complete");
}

TEST_CASE("DXP initiator: a refused request ends the session with an error", "[dxp][peer]") {
  tsuru::test::ServerSocket server;
  const auto tsuru = test::spawn(initiator_args(server.port(), 2));
  auto peer = server.accept(20);
  REQUIRE(peer);
  expect(*peer, 'R');
  peer->send(format(GameAccept{"Follower", AcceptCode::NoGames}));
  CHECK(peer->wait_closed(20));
  CHECK(tsuru->wait(20s) == 1);
  std::string summary;
  REQUIRE(tsuru->read_line_containing("session:", summary, 5s) == tools::ChildProcess::Read::Ok);
  CHECK_THAT(summary, Catch::Contains("games=0") && Catch::EndsWith("incomplete"));
}

TEST_CASE("DXP peer soak: the engine never exceeds its clock", "[.soak][dxp]") {
  // One minute for 40 moves, no level: the time manager alone paces the engine. The peer
  // answers at once and measures the engine's thinking from its side of the socket.
  Listener tsuru({"--variant", "international", "--hash", "20"});
  PeerSocket peer(tsuru.port);
  Table t;
  peer.send(request(Side::White, 1, 40));
  CHECK(expect(peer, 'A') == kAccept);
  double used = 0;
  auto sent = std::chrono::steady_clock::now();
  while (true) {
    const auto m = peer.receive(90);
    REQUIRE(m);
    if ((*m)[0] == 'C') continue;  // the move-limit note
    used += std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    if ((*m)[0] == 'E') break;
    t.engine_moved(*m);
    if (legal_moves(t.v, t.pos).empty()) break;
    peer.send(t.our_move());
    sent = std::chrono::steady_clock::now();
  }
  INFO("engine thinking time seen by the peer: " << used << " s");
  CHECK(used < 60.0);
  CHECK(used > 20.0);  // it did use its time
}
