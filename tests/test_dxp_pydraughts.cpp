// pydraughts 0.6.7 over DXP against a real `tsuru dxp` follower, from the transcripts in
// tests/data/pydraughts/dxp-*.txt: the client's own game requests, sent byte for byte, and its
// moves while they are legal; then whole games to the end, every Tsuru message read the way the
// client reads it (its square numbers, worked out here from the squares' algebraic names, not
// from protocol/dxp/board.cpp) and checked legal; the client ends each game with E01, as it
// always does, and Tsuru must score the game from the board. Also: refusals with GAMEACC codes,
// and both layouts (the Tsuru layout keeps Tsuru's own numbering).
#include <fstream>
#include <map>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/dxp/board.hpp"
#include "protocol/pdn.hpp"
#include "tests/dxp_process.hpp"
#include "tests/engine_helpers.hpp"

using namespace tsuru;
using tsuru::test::Listener;
using tsuru::test::PeerSocket;
using namespace std::chrono_literals;

namespace {

// ---- The client's side: pydraughts' numbering and board letters ----------------------------

// pydraughts' number of a square (docs/dxp.md, layouts): English plain PDN (Tsuru's English
// numbering is PDN); Russian and Brazilian 1 = a1, 4 = g1, 5 = b2 ... 32 = h8; Turkish 1 = a1 ...
// 8 = h1, 9 = a2 ... 64 = h8; 10x10 as everyone numbers it.
int client_number(Variant v, Square sq) {
  const std::string name = notation::square_algebraic(v, sq);  // "c3"
  const int file = name[0] - 'a';
  const int rank = std::stoi(name.substr(1));
  switch (v) {
    case Variant::Russian:
    case Variant::Brazilian:
      return (rank - 1) * 4 + file / 2 + 1;
    case Variant::Turkish:
      return (rank - 1) * 8 + file + 1;
    default:
      return info(v).board.number(sq);
  }
}

// The position of a pydraughts GAMEREQ: English turned round with the colours swapped (letter i
// is PDN square 33 - i, 'w' is Black); the other rule sets letter i = square i, colours as they
// are. The side to move is in the rule set's own colours.
Position client_position(Variant v, Side turn, std::string_view letters) {
  const BoardShape& b = info(v).board;
  REQUIRE(letters.size() == static_cast<std::size_t>(b.squares));
  const bool english = v == Variant::English;
  Bitboard white = 0, black = 0, kings = 0;
  for (int i = 1; i <= b.squares; ++i) {
    const char c = letters[static_cast<std::size_t>(i - 1)];
    if (c == 'e') continue;
    const Bitboard sq = bit(b.square(english ? b.squares + 1 - i : i));
    const bool w = (c == 'w' || c == 'W') != english;
    (w ? white : black) |= sq;
    if (c == 'W' || c == 'Z') kings |= sq;
  }
  return make_position(v, white, black, kings, turn);
}

// The legal move a MOVE message names in the client's numbering (captures in any order).
std::optional<Move> client_find(Variant v, const Position& pos, const dxp::MoveMessage& m) {
  std::vector<int> captured = m.captured;
  std::sort(captured.begin(), captured.end());
  std::optional<Move> found;
  for (const Move& legal : legal_moves(v, pos)) {
    std::vector<int> theirs;
    for (Square sq : squares_of(legal.captured)) theirs.push_back(client_number(v, sq));
    std::sort(theirs.begin(), theirs.end());
    if (client_number(v, legal.from) != m.from || client_number(v, legal.to) != m.to ||
        theirs != captured)
      continue;
    REQUIRE_FALSE(found);  // one move per message
    found = legal;
  }
  return found;
}

std::string client_move(Variant v, const Move& m) {
  dxp::MoveMessage msg;
  msg.from = client_number(v, m.from);
  msg.to = client_number(v, m.to);
  for (Square sq : squares_of(m.captured)) msg.captured.push_back(client_number(v, sq));
  std::sort(msg.captured.begin(), msg.captured.end());
  return dxp::format(msg);
}

// ---- Transcripts -----------------------------------------------------------------------------

struct Section {
  std::string title;
  std::vector<std::string> client;  // the client's messages, in order
};

std::vector<Section> transcript(const std::string& name) {
  std::ifstream in(std::string(TSURU_TEST_DATA) + "/pydraughts/" + name);
  REQUIRE(in);
  std::vector<Section> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("## ")) out.push_back({line.substr(3), {}});
    if (line.starts_with("< ") && !out.empty()) out.back().client.push_back(line.substr(2));
  }
  return out;
}

// ---- Playing a game as the client ------------------------------------------------------------

std::string expect(PeerSocket& peer, char type, double timeout = 60) {
  const auto m = peer.receive(timeout);
  INFO("expected a message of type " << type);
  REQUIRE(m);
  INFO("received '" << *m << "'");
  REQUIRE(!m->empty());
  REQUIRE((*m)[0] == type);
  return *m;
}

// The stdout line of Tsuru's n-th finished game.
std::string game_line(Listener& tsuru, int n) {
  std::string line;
  const std::string prefix = "game 1." + std::to_string(n) + ":";
  REQUIRE(tsuru.process->read_line_containing(prefix, line, 30s) == tools::ChildProcess::Read::Ok);
  return line;
}

struct Played {
  Game game{Variant::International};
  int transcript_moves = 0;  // client moves taken from the transcript
};

// Sends the request, then plays the client's part to the end of the game (or `max_plies`):
// the transcript's moves while they are legal, then the first legal move. Every message from
// Tsuru is read the client's way and must be a legal move. The client ends the game with E01
// (its only way) on its turn; Tsuru ends it on its own turn.
Played play_as_client(PeerSocket& peer, Variant v, const std::string& request,
                      const std::vector<std::string>& client_moves, std::size_t max_plies = 400) {
  const auto parsed = dxp::parse(request);
  REQUIRE(parsed.ok());
  const auto& r = std::get<dxp::GameRequest>(*parsed);
  REQUIRE(r.setup);
  Played p;
  p.game = Game(v, client_position(v, r.to_move, r.position));
  const Side tsuru_side = r.follower_side;
  peer.send(request);
  CHECK(expect(peer, 'A').back() == '0');
  std::size_t next = 0;
  while (p.game.result().outcome == Outcome::Ongoing && p.game.moves().size() < max_plies) {
    const Position& pos = p.game.position();
    if (pos.turn() == tsuru_side) {
      const std::string payload = expect(peer, 'M');
      const auto m = dxp::parse(payload);
      REQUIRE(m.ok());
      const auto move = client_find(v, pos, std::get<dxp::MoveMessage>(*m));
      INFO("Tsuru sent '" << payload << "' in " << notation::format_fen(v, pos));
      REQUIRE(move);
      p.game.play(*move);
      continue;
    }
    std::optional<Move> mine;
    while (!mine && next < client_moves.size()) {
      const auto m = dxp::parse(client_moves[next++]);
      if (m && std::holds_alternative<dxp::MoveMessage>(*m))
        mine = client_find(v, pos, std::get<dxp::MoveMessage>(*m));
      if (!mine) next = client_moves.size();  // the game left the transcript's line
    }
    if (mine) ++p.transcript_moves;
    const Move m = mine ? *mine : p.game.legal_moves()[0];
    peer.send(client_move(v, m));
    p.game.play(m);
  }
  const GameResult result = p.game.result();
  if (result.outcome != Outcome::Ongoing && p.game.position().turn() == tsuru_side) {
    // Tsuru declares the end on its own turn: no move (it loses) or a rule draw.
    const std::string end = expect(peer, 'E');
    CHECK(end[1] == (result.outcome == Outcome::Draw ? '2' : '1'));
    peer.send("E" + end.substr(1, 1) + "1");  // the client echoes the reason
  } else {
    peer.send("E01");
    auto reply = peer.receive(60);
    // Stopped on Tsuru's turn: its move may cross the client's GAMEEND on the wire (DXP allows
    // it); the answer to the GAMEEND follows it.
    if (reply && !reply->empty() && (*reply)[0] == 'M' &&
        p.game.result().outcome == Outcome::Ongoing && p.game.position().turn() == tsuru_side)
      reply = peer.receive(60);
    REQUIRE(reply);
    CHECK(*reply == "E01");
  }
  return p;
}

// The game's line on Tsuru's stdout carries the board's result.
void check_scored(Listener& tsuru, int n, const Played& p) {
  const std::string line = game_line(tsuru, n);
  INFO(line);
  const Variant v = p.game.variant();
  const std::string expected = pdn::result_text(v, p.game.result().outcome);
  CHECK(line.find(" " + expected + " (") != std::string::npos);
  CHECK(line.find(std::to_string(p.game.moves().size()) + " plies") != std::string::npos);
}

Listener follower(const char* variant, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--variant", variant, "--level",       "beginner",
                                   "--hash",    "16",    "--ack-timeout", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return Listener(args);
}

// A GAMEREQ as pydraughts writes it (DXPClient, 1 minute, no move limit, always 'B').
std::string pydraughts_request(Variant v, Side follower, const Position& start) {
  // The English letters are written by the test's own rule, not board.cpp's.
  std::string letters;
  const BoardShape& b = info(v).board;
  const bool english = v == Variant::English;
  for (int i = 1; i <= b.squares; ++i) {
    const Square sq = b.square(english ? b.squares + 1 - i : i);
    char c = 'e';
    for (Side s : {Side::White, Side::Black})
      if (has(start.pieces(s), sq)) c = (s == Side::White) != english ? 'w' : 'z';
    if (c != 'e' && has(start.kings(), sq)) c = static_cast<char>(c - 'a' + 'A');
    letters += c;
  }
  return "R01DXP Client                      " + std::string(1, dxp::side_char(follower)) +
         "001000B" + dxp::side_char(start.turn()) + letters;
}

}  // namespace

TEST_CASE("pydraughts numbering: the interop table's anchors", "[dxp][pydraughts]") {
  const BoardShape& b8 = info(Variant::Russian).board;
  // Russian and Brazilian: 1 = a1 (Tsuru's 29), 4 = g1 (32), 5 = b2 (25), 32 = h8 (4); c3-d4 is
  // 10-14 (Tsuru's 22-18).
  for (Variant v : {Variant::Russian, Variant::Brazilian}) {
    CHECK(client_number(v, b8.square(29)) == 1);
    CHECK(client_number(v, b8.square(32)) == 4);
    CHECK(client_number(v, b8.square(25)) == 5);
    CHECK(client_number(v, b8.square(4)) == 32);
    CHECK(client_number(v, b8.square(22)) == 10);
    CHECK(client_number(v, b8.square(18)) == 14);
    // board.cpp's default layout agrees, and the Tsuru layout keeps Tsuru's numbers.
    for (int n = 1; n <= 32; ++n) {
      CHECK(dxp::wire_number(v, b8.square(n)) == client_number(v, b8.square(n)));
      CHECK(dxp::wire_square(v, client_number(v, b8.square(n))) == b8.square(n));
      CHECK(dxp::wire_number({v, dxp::Layout::Tsuru}, b8.square(n)) == n);
    }
  }
  // Turkish: 1 = a1 ... 8 = h1, 9 = a2 ... 64 = h8; Tsuru's 1 is a8.
  const BoardShape& t = info(Variant::Turkish).board;
  CHECK(client_number(Variant::Turkish, t.square(57)) == 1);
  CHECK(client_number(Variant::Turkish, t.square(64)) == 8);
  CHECK(client_number(Variant::Turkish, t.square(49)) == 9);
  CHECK(client_number(Variant::Turkish, t.square(8)) == 64);
  for (int n = 1; n <= 64; ++n)
    CHECK(dxp::wire_number(Variant::Turkish, t.square(n)) ==
          client_number(Variant::Turkish, t.square(n)));
  // English: plain PDN in both layouts.
  for (int n = 1; n <= 32; ++n) {
    CHECK(dxp::wire_number(Variant::English, b8.square(n)) == n);
    CHECK(dxp::wire_number({Variant::English, dxp::Layout::Tsuru}, b8.square(n)) == n);
  }
}

TEST_CASE("pydraughts positions: the transcripts' requests read the client's way",
          "[dxp][pydraughts]") {
  // English after 11-15, as pydraughts wrote it: turned round, Black written w.
  const auto english = transcript("dxp-english.txt");
  REQUIRE(english.size() == 2);
  const auto r = dxp::parse(english[1].client.at(0));
  REQUIRE(r.ok());
  const auto& req = std::get<dxp::GameRequest>(*r);
  const Position after_11_15 = test::fen(Variant::English, "W:W21-32:B1-10,12,15");
  CHECK(client_position(Variant::English, req.to_move, req.position) == after_11_15);
  const auto ours = dxp::request_start(Variant::English, req);
  REQUIRE(ours.ok());
  CHECK(*ours == after_11_15);
  // Writing it back gives the client's letters.
  CHECK(dxp::position_string(Variant::English, after_11_15) == req.position);
  // The Tsuru layout reads the letters in PDN order, colours as they are: another position.
  const auto tsuru_layout = dxp::request_start({Variant::English, dxp::Layout::Tsuru}, req);
  REQUIRE(tsuru_layout.ok());
  CHECK_FALSE(*tsuru_layout == after_11_15);
  // Turkish: 64 letters, 1 = a8, the rule set's start.
  const auto turkish = transcript("dxp-turkish.txt");
  const auto t = dxp::parse(turkish.at(0).client.at(0));
  REQUIRE(t.ok());
  const auto tstart = dxp::request_start(Variant::Turkish, std::get<dxp::GameRequest>(*t));
  REQUIRE(tstart.ok());
  CHECK(*tstart == start_position(Variant::Turkish));
}

TEST_CASE("pydraughts over DXP: the transcripts' games, replayed to the end", "[dxp][pydraughts]") {
  struct Case {
    const char* variant;
    const char* file;
    std::size_t section;
  };
  const Case cases[] = {
      {"english", "dxp-english.txt", 0},  // from the start
      {"english", "dxp-english.txt", 1},  // from a position: failed before
      {"international", "dxp-international.txt", 0},
      {"russian", "dxp-russian.txt", 0},  // rows flipped: failed before
      {"turkish", "dxp-turkish.txt", 0},  // 64 letters: refused before
  };
  for (const Case& c : cases) {
    const auto sections = transcript(c.file);
    REQUIRE(sections.size() > c.section);
    const Section& s = sections[c.section];
    INFO(c.file << ": " << s.title);
    const Variant v = *parse_variant(c.variant);
    Listener tsuru = follower(c.variant);
    PeerSocket peer(tsuru.port);
    std::vector<std::string> moves(s.client.begin() + 1, s.client.end());
    const Played p = play_as_client(peer, v, s.client.at(0), moves);
    INFO(c.file << " " << c.section << ": " << p.game.moves().size() << " plies, "
                << p.transcript_moves << " from the transcript, "
                << describe(p.game.result().outcome));
    CHECK(p.game.result().outcome != Outcome::Ongoing);  // a whole game
    check_scored(tsuru, 1, p);
  }
}

TEST_CASE("pydraughts over DXP: Brazilian, and every 8x8 rule set from a set-up position",
          "[dxp][pydraughts]") {
  struct Case {
    const char* variant;
    const char* fen;  // a position with kings, men and captures near
  };
  const Case cases[] = {
      {"brazilian", nullptr},
      {"brazilian", "W:WK29,22,23,26:BK4,14,15,19"},
      {"russian", "B:W22,23,26,K32:B14,15,19,K1"},
      {"english", "B:W22,23,26,K32:B14,15,19,K1"},
      {"english", "W:W22,23,26,K32:B14,15,19,K1"},
  };
  for (const Case& c : cases) {
    INFO(c.variant << " " << (c.fen ? c.fen : "start"));
    const Variant v = *parse_variant(c.variant);
    const Position start = c.fen ? test::fen(v, c.fen) : start_position(v);
    Listener tsuru = follower(c.variant);
    PeerSocket peer(tsuru.port);
    // Tsuru plays the side to move, as in the transcripts.
    const Played p = play_as_client(peer, v, pydraughts_request(v, start.turn(), start), {});
    INFO(c.variant << ": " << p.game.moves().size() << " plies, "
                   << describe(p.game.result().outcome));
    CHECK(p.game.result().outcome != Outcome::Ongoing);  // a whole game
    check_scored(tsuru, 1, p);
  }
}

TEST_CASE("pydraughts over DXP: E01 in an undecided position leaves the game unscored",
          "[dxp][pydraughts]") {
  Listener tsuru = follower("russian");
  PeerSocket peer(tsuru.port);
  const Played p = play_as_client(
      peer, Variant::Russian,
      pydraughts_request(Variant::Russian, Side::White, start_position(Variant::Russian)), {}, 6);
  REQUIRE(p.game.result().outcome == Outcome::Ongoing);
  const std::string line = game_line(tsuru, 1);
  INFO(line);
  CHECK(line.find(" * (DXP Client no result)") != std::string::npos);
}

TEST_CASE("DXP GAMEEND: a decided position is scored by the board, whatever the reason says",
          "[dxp][pydraughts]") {
  // English, Tsuru White to move: its only move 22x15 takes Black's last man. Black (the
  // client) has no move and ends the game, with each reason in turn, on one connection.
  const Variant v = Variant::English;
  const Position start = test::fen(v, "W:W22:B18");
  Listener tsuru = follower("english");
  PeerSocket peer(tsuru.port);
  const std::string white_wins = pdn::result_text(v, Outcome::WhiteWins);
  int n = 0;
  for (const char* end : {"E00", "E30", "E20", "E10"}) {
    INFO(end);
    ++n;
    peer.send(pydraughts_request(v, Side::White, start));
    CHECK(expect(peer, 'A').back() == '0');
    CHECK(expect(peer, 'M') == "M000022150118");
    peer.send(end);
    CHECK(expect(peer, 'E') == "E00");
    const std::string line = game_line(tsuru, n);
    INFO(line);
    CHECK(line.find(" " + white_wins + " (") != std::string::npos);
    // The board's reason when the message says otherwise; the message's when they agree.
    CHECK(line.find(std::string(end) == "E10"
                        ? "(DXP Client loses)"
                        : "(no legal move, ended by DXP Client (") != std::string::npos);
  }
}

TEST_CASE("DXP refusals: a request Tsuru cannot take gets a GAMEACC code, not silence",
          "[dxp][pydraughts]") {
  const auto turkish = transcript("dxp-turkish.txt").at(0).client.at(0);
  const std::string refused = dxp::format(dxp::GameAccept{"Tsuru", dxp::AcceptCode::NotThisGame});
  // The Turkish request to an English follower: a chat saying why, then code 2.
  {
    Listener tsuru = follower("english");
    PeerSocket peer(tsuru.port);
    peer.send(turkish);
    CHECK_THAT(expect(peer, 'C'), Catch::Contains("64 squares"));
    CHECK(expect(peer, 'A') == refused);
    // A malformed request (a colour that is neither W nor Z), also during a game.
    const std::string malformed = "R01" + std::string("DXP Client").append(22, ' ') + "X001000A";
    peer.send(malformed);
    CHECK_THAT(expect(peer, 'C'), Catch::Contains("follower colour"));
    CHECK(expect(peer, 'A') == refused);
    // The connection serves on: the client's English request is taken.
    const auto english = transcript("dxp-english.txt").at(0).client.at(0);
    peer.send(english);
    CHECK(expect(peer, 'A').back() == '0');
    Game g(Variant::English);
    const auto first = dxp::parse(expect(peer, 'M'));
    REQUIRE(first.ok());
    const auto m1 = client_find(Variant::English, g.position(), std::get<dxp::MoveMessage>(*first));
    REQUIRE(m1);
    g.play(*m1);
    peer.send(malformed);
    CHECK_THAT(expect(peer, 'C'), Catch::Contains("follower colour"));
    CHECK(expect(peer, 'A') == refused);
    // The game goes on.
    peer.send(client_move(Variant::English, g.legal_moves()[0]));
    g.play(g.legal_moves()[0]);
    const auto second = dxp::parse(expect(peer, 'M'));
    REQUIRE(second.ok());
    CHECK(client_find(Variant::English, g.position(), std::get<dxp::MoveMessage>(*second)));
  }
  // An international request to a Turkish follower; version 2 gets code 1.
  {
    Listener tsuru = follower("turkish");
    PeerSocket peer(tsuru.port);
    peer.send(transcript("dxp-international.txt").at(0).client.at(0));
    CHECK_THAT(expect(peer, 'C'), Catch::Contains("50 squares"));
    CHECK(expect(peer, 'A') == refused);
    peer.send("R02DXP Client                      W001000A");
    CHECK(expect(peer, 'A') ==
          dxp::format(dxp::GameAccept{"Tsuru", dxp::AcceptCode::WrongVersion}));
    peer.send(turkish);
    CHECK(expect(peer, 'A').back() == '0');
  }
}

TEST_CASE("DXP layouts: the Tsuru layout stays reachable; each side must use the same",
          "[dxp][pydraughts]") {
  // Russian in the Tsuru layout: Tsuru's own numbers (c3-d4 is 22-18).
  Listener tsuru = follower("russian", {"--layout", "tsuru"});
  PeerSocket peer(tsuru.port);
  const dxp::Dialect d{Variant::Russian, dxp::Layout::Tsuru};
  const Position start = start_position(Variant::Russian);
  peer.send(dxp::format(dxp::make_request(d, "Peer", Side::Black, 1, 0, start)));
  CHECK(expect(peer, 'A').back() == '0');
  const Move c3d4 = *notation::parse_move(Variant::Russian, start, "c3-d4");
  peer.send(dxp::format(dxp::move_message(d, c3d4, 0)));
  // The message carried 22-18, Tsuru's numbers; Tsuru took it as c3-d4 and answers legally.
  CHECK(dxp::format(dxp::move_message(d, c3d4, 0)) == "M0000221800");
  Position pos = start;
  pos.play(c3d4);
  const auto reply = dxp::parse(expect(peer, 'M'));
  REQUIRE(reply.ok());
  CHECK(dxp::find_move(d, pos, std::get<dxp::MoveMessage>(*reply)).ok());
}
