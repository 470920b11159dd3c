// DXP message codec and framing: the byte examples of docs/dxp.md, round trips of
// every message type, and malformed variants of each.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "protocol/dxp/framer.hpp"
#include "protocol/dxp/message.hpp"

using namespace tsuru;
using namespace tsuru::dxp;

namespace {

Message parse_ok(const std::string& payload) {
  const auto m = parse(payload);
  INFO(payload);
  if (!m) FAIL("parse failed: " << m.error().message);
  return *m;
}

// The error message of a payload that must not parse.
std::string parse_error(const std::string& payload,
                        ParseError::Kind kind = ParseError::Kind::Malformed) {
  const auto m = parse(payload);
  INFO(payload);
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().kind == kind);
  CHECK_FALSE(m.error().message.empty());
  return m.error().message;
}

std::vector<Frame> frames_of(Framer& f) {
  std::vector<Frame> out;
  while (auto fr = f.next()) out.push_back(*fr);
  return out;
}

const std::string kNull(1, '\0');

}  // namespace

TEST_CASE("DXP GAMEREQ: the docs/dxp.md examples, both starts", "[dxp][codec]") {
  // docs/dxp.md: "R01Tsuru ... Z005075A" - Follower plays Black, 5 min, 75 moves. 43 bytes.
  const std::string a = "R01Tsuru                           Z005075A";
  REQUIRE(a.size() == 43);
  const auto ra = std::get<GameRequest>(parse_ok(a));
  CHECK(ra.version == 1);
  CHECK(ra.name == "Tsuru");
  CHECK(ra.follower_side == Side::Black);
  CHECK(ra.minutes == 5);
  CHECK(ra.moves == 75);
  CHECK_FALSE(ra.setup);
  CHECK(format(ra) == a);

  // The 'B' example: White to move and 50 squares; 94 bytes.
  const std::string b =
      "R01Tsuru                           Z005075BWzzzzzzzzzzzzzezzzzezeezeeeeeeewewwwwwwwwwwwww"
      "wwwww";
  REQUIRE(b.size() == 94);
  const auto rb = std::get<GameRequest>(parse_ok(b));
  CHECK(rb.setup);
  CHECK(rb.to_move == Side::White);
  CHECK(rb.position == "zzzzzzzzzzzzzezzzzezeezeeeeeeewewwwwwwwwwwwwwwwwww");
  CHECK(format(rb) == b);

  // Our 8x8 dialect: 32 squares, 76 bytes.
  const std::string e =
      "R01Tsuru                           W001000BZzzzzzzzzzzzzeeeeeeeewwwwwwwwwwww";
  REQUIRE(e.size() == 76);
  const auto re = std::get<GameRequest>(parse_ok(e));
  CHECK(re.follower_side == Side::White);
  CHECK(re.minutes == 1);
  CHECK(re.moves == 0);
  CHECK(re.to_move == Side::Black);
  CHECK(re.position.size() == 32);
  CHECK(format(re) == e);
}

TEST_CASE("DXP GAMEREQ: versions", "[dxp][codec]") {
  // Version 0 is older than ours and accepted as it is.
  CHECK(std::get<GameRequest>(parse_ok("R00Old                             W010050A")).version ==
        0);
  // A later version keeps only its number, whatever follows: the answer is "wrong version".
  const auto r2 = std::get<GameRequest>(parse_ok("R02whatever a later version sends"));
  CHECK(r2.version == 2);
  CHECK(std::get<GameRequest>(parse_ok("R99")).version == 99);
}

TEST_CASE("DXP GAMEREQ: malformed variants", "[dxp][codec]") {
  const std::string name = "Tsuru                           ";
  REQUIRE(name.size() == 32);
  CHECK_THAT(parse_error("R"), Catch::Contains("version"));
  CHECK_THAT(parse_error("Rx1" + name + "Z005075A"), Catch::Contains("version"));
  CHECK_THAT(parse_error("R01Tsuru"), Catch::Contains("initiator name"));
  CHECK_THAT(parse_error("R01" + name + "X005075A"), Catch::Contains("follower colour"));
  CHECK_THAT(parse_error("R01" + name + "Z0a5075A"), Catch::Contains("minutes"));
  CHECK_THAT(parse_error("R01" + name + "Z00507 A"), Catch::Contains("moves"));
  CHECK_THAT(parse_error("R01" + name + "Z005075C"), Catch::Contains("start code"));
  CHECK_THAT(parse_error("R01" + name + "Z005075"), Catch::Contains("start code"));
  CHECK_THAT(parse_error("R01" + name + "Z005075AW"), Catch::Contains("1 bytes too many"));
  CHECK_THAT(parse_error("R01" + name + "Z005075B"), Catch::Contains("side to move"));
  CHECK_THAT(parse_error("R01" + name + "Z005075BX" + std::string(50, 'e')),
             Catch::Contains("side to move"));
  CHECK_THAT(parse_error("R01" + name + "Z005075BW" + std::string(49, 'e')),
             Catch::Contains("49 squares"));
  CHECK_THAT(parse_error("R01" + name + "Z005075BW" + std::string(33, 'e')),
             Catch::Contains("33 squares"));
  CHECK_THAT(parse_error("R01" + name + "Z005075BW" + std::string(31, 'e') + "b"),
             Catch::Contains("square 32"));
}

TEST_CASE("DXP GAMEACC: example, codes, malformed variants", "[dxp][codec]") {
  // The name field is 32 characters and the message 34 (docs/dxp.md); an example written with a
  // 34-character name field would contradict that layout, and the layout is the protocol.
  const std::string a = "AOtherEngine                     0";
  REQUIRE(a.size() == 34);
  const auto acc = std::get<GameAccept>(parse_ok(a));
  CHECK(acc.name == "OtherEngine");
  CHECK(acc.code == AcceptCode::Accept);
  CHECK(format(acc) == a);
  for (char code : {'1', '2', '3'}) {
    const std::string s = "AOtherEngine                     " + std::string(1, code);
    const auto m = std::get<GameAccept>(parse_ok(s));
    CHECK(static_cast<char>(m.code) == code);
    CHECK(format(m) == s);
  }
  CHECK_THAT(parse_error("AOtherEngine                       0"),
             Catch::Contains("acceptance code ' '"));
  CHECK_THAT(parse_error("AOtherEngine                     4"), Catch::Contains("acceptance code"));
  CHECK_THAT(parse_error("AOtherEngine"), Catch::Contains("follower name"));
  CHECK_THAT(parse_error("AOtherEngine                     "), Catch::Contains("acceptance code"));
}

TEST_CASE("DXP MOVE: the docs/dxp.md examples", "[dxp][codec]") {
  struct Example {
    const char* bytes;
    int seconds, from, to;
    std::vector<int> captured;
  };
  const Example examples[] = {
      {"M0001322800", 1, 32, 28, {}},
      {"M0001192300", 1, 19, 23, {}},
      {"M000128190123", 1, 28, 19, {23}},
      {"M000114230119", 1, 14, 23, {19}},
      {"M001205250422122320", 12, 5, 25, {22, 12, 23, 20}},
  };
  for (const Example& e : examples) {
    const auto m = std::get<MoveMessage>(parse_ok(e.bytes));
    CHECK(m.seconds == e.seconds);
    CHECK(m.from == e.from);
    CHECK(m.to == e.to);
    CHECK(m.captured == e.captured);  // the order as sent
    CHECK(format(m) == e.bytes);
    CHECK(std::string(e.bytes).size() == 11 + 2 * e.captured.size());
  }
  // from == to (a king capture returning to its square).
  const auto k = std::get<MoveMessage>(parse_ok("M000319190411132128"));
  CHECK(k.from == k.to);
  CHECK(k.captured.size() == 4);
}

TEST_CASE("DXP MOVE: malformed variants", "[dxp][codec]") {
  CHECK_THAT(parse_error("M"), Catch::Contains("time"));
  CHECK_THAT(parse_error("M00a1322800"), Catch::Contains("time"));
  CHECK_THAT(parse_error("M00013228"), Catch::Contains("capture count"));
  CHECK_THAT(parse_error("M0001322801"), Catch::Contains("capture count 1 needs 2"));
  CHECK_THAT(parse_error("M000128190123 "), Catch::Contains("capture count 1 needs 2"));
  CHECK_THAT(parse_error("M00012819012"), Catch::Contains("needs 2"));
  CHECK_THAT(parse_error("M000128190223"), Catch::Contains("needs 4"));
  CHECK_THAT(parse_error("M00013x2800"), Catch::Contains("from square"));
  CHECK_THAT(parse_error("M0001320000"), Catch::Contains("00"));
  CHECK_THAT(parse_error("M00012819012-"), Catch::Contains("captured square"));
  CHECK_THAT(parse_error("M0001-12800"), Catch::Contains("from square"));
}

TEST_CASE("DXP GAMEEND: example, every code, malformed variants", "[dxp][codec]") {
  const auto e = std::get<GameEnd>(parse_ok("E00"));
  CHECK(e.reason == EndReason::Unknown);
  CHECK_FALSE(e.stop);
  for (const char* s : {"E00", "E01", "E10", "E11", "E20", "E21", "E30", "E31"})
    CHECK(format(parse_ok(s)) == s);
  CHECK(std::get<GameEnd>(parse_ok("E31")).reason == EndReason::Win);
  CHECK(std::get<GameEnd>(parse_ok("E31")).stop);
  CHECK_THAT(parse_error("E"), Catch::Contains("reason"));
  CHECK_THAT(parse_error("E0"), Catch::Contains("stop code"));
  CHECK_THAT(parse_error("E40"), Catch::Contains("reason"));
  CHECK_THAT(parse_error("E02"), Catch::Contains("stop code"));
  CHECK_THAT(parse_error("E000"), Catch::Contains("too many"));
}

TEST_CASE("DXP CHAT: any text of 1-126 characters", "[dxp][codec]") {
  const std::string s = "Cerror: illegal move 32-28";  // docs/dxp.md diagnostic
  CHECK(std::get<Chat>(parse_ok(s)).text == "error: illegal move 32-28");
  CHECK(format(parse_ok(s)) == s);
  const std::string longest = "C" + std::string(126, 'x');
  CHECK(format(parse_ok(longest)) == longest);
  parse_error("C");
  parse_error("C" + std::string(127, 'x'));  // 128 bytes
  // Formatting never produces an invalid chat.
  CHECK(format(Chat{std::string(300, 'y')}).size() == 127);
  CHECK(format(Chat{""}) == "C ");
  CHECK(format(Chat{"caf\xc3\xa9"}) == "Ccaf??");
}

TEST_CASE("DXP BACKREQ and BACKACC: round trips and malformed variants", "[dxp][codec]") {
  const auto b = std::get<BackRequest>(parse_ok("B012Z"));
  CHECK(b.move_number == 12);
  CHECK(b.to_move == Side::Black);
  CHECK(format(b) == "B012Z");
  CHECK(format(parse_ok("B001W")) == "B001W");
  CHECK_THAT(parse_error("B01W"), Catch::Contains("move number"));
  CHECK_THAT(parse_error("B012"), Catch::Contains("side to move"));
  CHECK_THAT(parse_error("B012B"), Catch::Contains("side to move"));
  CHECK_THAT(parse_error("B000W"), Catch::Contains("000"));
  CHECK_THAT(parse_error("B012WW"), Catch::Contains("too many"));

  for (const char* s : {"K0", "K1", "K2"}) CHECK(format(parse_ok(s)) == s);
  CHECK(std::get<BackAccept>(parse_ok("K2")).code == BackCode::Decline);
  CHECK_THAT(parse_error("K"), Catch::Contains("acceptance code"));
  CHECK_THAT(parse_error("K3"), Catch::Contains("acceptance code"));
  CHECK_THAT(parse_error("K00"), Catch::Contains("too many"));
}

TEST_CASE("DXP: unknown types, empty, over-long and non-ASCII payloads", "[dxp][codec]") {
  CHECK_THAT(parse_error("X", ParseError::Kind::UnknownType), Catch::Contains("'X'"));
  CHECK_THAT(parse_error("rR01", ParseError::Kind::UnknownType), Catch::Contains("'r'"));
  CHECK_THAT(parse_error("\x01hello", ParseError::Kind::UnknownType), Catch::Contains("\\x01"));
  parse_error("");
  CHECK_THAT(parse_error("C" + std::string(127, 'a')), Catch::Contains("128 bytes"));
  CHECK_THAT(parse_error("Cna\xefve"), Catch::Contains("\\xef"));
}

TEST_CASE("DXP format: names are cut and padded, numbers kept to their width", "[dxp][codec]") {
  GameRequest r;
  r.name = "A name far longer than thirty-two characters";
  r.minutes = 5;
  r.moves = 75;
  const std::string s = format(r);
  CHECK(s.size() == 43);
  CHECK(std::get<GameRequest>(parse_ok(s)).name == "A name far longer than thirty-tw");
  MoveMessage m;
  m.seconds = 123456;  // beyond 4 digits: the largest that fits
  m.from = 46;
  m.to = 37;
  CHECK(format(m) == "M9999463700");
}

TEST_CASE("DXP framing: two messages in one read, split messages", "[dxp][framing]") {
  // docs/dxp.md: "one read: AOther ... 0\0M0000322800\0 -> two messages" (name field at 32).
  const std::string accept = "AOther                           0";
  const std::string move = "M0000322800";
  const std::string bytes = accept + kNull + move + kNull;
  Framer f;
  f.feed(bytes);
  auto frames = frames_of(f);
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].ok());
  CHECK(frames[0].payload == accept);
  CHECK(frames[1].payload == move);
  CHECK(std::holds_alternative<GameAccept>(parse_ok(frames[0].payload)));
  CHECK(std::holds_alternative<MoveMessage>(parse_ok(frames[1].payload)));

  // The same bytes in every split: one byte at a time, and cut at each position.
  Framer g;
  std::vector<Frame> one_by_one;
  for (char c : bytes) {
    g.feed(std::string_view(&c, 1));
    for (auto& fr : frames_of(g)) one_by_one.push_back(fr);
  }
  REQUIRE(one_by_one.size() == 2);
  CHECK(one_by_one[1].payload == move);
  for (std::size_t cut = 0; cut <= bytes.size(); ++cut) {
    Framer h;
    h.feed(std::string_view(bytes).substr(0, cut));
    const auto first = frames_of(h);
    h.feed(std::string_view(bytes).substr(cut));
    auto all = first;
    for (auto& fr : frames_of(h)) all.push_back(fr);
    REQUIRE(all.size() == 2);
    CHECK(all[0].payload == accept);
    CHECK(all[1].payload == move);
    CHECK(h.pending() == 0);
  }
  // An unfinished message waits for its NUL.
  Framer p;
  p.feed("M00013228");
  CHECK_FALSE(p.next());
  CHECK(p.pending() == 9);
  p.feed(std::string("00") + kNull);
  CHECK(p.next()->payload == "M0001322800");
}

TEST_CASE("DXP framing: over-long, non-ASCII and empty messages", "[dxp][framing]") {
  Framer f;
  f.feed(std::string(127, 'C') + kNull);  // the longest valid payload
  auto ok = frames_of(f);
  REQUIRE(ok.size() == 1);
  CHECK(ok[0].ok());

  // 128 bytes without a NUL: one error at once, the rest skipped up to the NUL, then resync.
  f.feed(std::string(128, 'C'));
  auto err = frames_of(f);
  REQUIRE(err.size() == 1);
  CHECK_THAT(err[0].error, Catch::Contains("longer than 127"));
  f.feed(std::string(5000, 'x'));  // still the same message: no new error, bounded memory
  CHECK(frames_of(f).empty());
  CHECK(f.pending() <= 127);
  f.feed(kNull + "E00" + kNull);
  auto after = frames_of(f);
  REQUIRE(after.size() == 1);
  CHECK(after[0].payload == "E00");

  f.feed(std::string("M00\xff") + kNull + "K0" + kNull);
  auto bad = frames_of(f);
  REQUIRE(bad.size() == 2);
  CHECK_THAT(bad[0].error, Catch::Contains("non-ASCII"));
  CHECK(bad[1].ok());
  CHECK(bad[1].payload == "K0");

  f.feed(kNull);
  auto empty = frames_of(f);
  REQUIRE(empty.size() == 1);
  CHECK_THAT(empty[0].error, Catch::Contains("empty"));
}
