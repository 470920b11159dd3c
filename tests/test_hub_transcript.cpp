// Transcripts: the real `tsuru hub` binary through pipes, exact replies to every command and
// every error, and the habits of the clients docs/hub.md lists.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "tests/hub_client.hpp"
#include "tests/hub_handshake.hpp"

using namespace tsuru;
using namespace std::chrono_literals;
using test::fields;
using test::HubClient;

namespace {

const std::string kStart10 = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
const std::string kStart8 = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";  // as pydraughts writes it
constexpr char kGarbage[] = "\0\x01\x02\xff\xfe garbage \x7f";

const std::vector<std::string> kHandshake = test::hub_handshake();

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The move of a done line, checked against the rules core; the position is advanced.
std::string play_done(Game& game, const std::string& done) {
  const auto f = fields(done);
  INFO(done);
  REQUIRE_FALSE(f.empty());
  REQUIRE(starts_with(f[0], "move="));
  REQUIRE(f.size() <= 2);
  if (f.size() == 2) REQUIRE(starts_with(f[1], "ponder="));
  const std::string text = f[0].substr(5);
  const Variant v = game.variant();
  // pydraughts' numbering (the default): English moves in plain PDN numbers, as the rules
  // core reads them; international as is.
  const std::string pdn = text;
  const auto move = notation::parse_move(v, game.position(), pdn);
  INFO(notation::format_fen(v, game.position()) << " move " << pdn);
  REQUIRE(move.ok());
  REQUIRE(game.play(*move));
  return text;
}

}  // namespace

TEST_CASE("hub transcript: handshake, init, ping, quit", "[hub][transcript]") {
  HubClient hub;
  hub.send("hub");
  for (const std::string& expected : kHandshake) CHECK(hub.line() == expected);
  hub.send("init");
  CHECK(hub.line() == "ready");
  hub.send("ping");
  CHECK(hub.line() == "pong");
  // Commands that answer nothing: the pong comes straight after them.
  for (const char* quiet : {"new-game", "pos", "pos start", "level depth=3", "stop", "ponder-hit",
                            "set-param name=seed value=3"}) {
    INFO(quiet);
    hub.send(quiet);
    CHECK(hub.sync().empty());
  }
  hub.send("quit");
  CHECK(hub.process().wait(5000ms) == 0);
}

TEST_CASE("hub transcript: every bad input gets its error and the engine goes on",
          "[hub][transcript]") {
  HubClient hub;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "error message=\"missing command\""},
      {"  \t", "error message=\"missing command\""},
      {"a=b", "error message=\"missing command\""},
      {"foo", "error message=\"bad command\""},
      {"Hub", "error message=\"bad command\""},
      {"pos pos=\"Wbbbb", "error message=\"unclosed quote\""},
      {"pos moves=", "error message=\"missing value\""},
      {"pos moves= pos=W", "error message=\"missing value\""},
      {"pos =x", "error message=\"bad argument\""},
      {"pos pos=a\"b\"", "error message=\"bad argument\""},
      {std::string(kGarbage, sizeof kGarbage - 1), "error message=\"bad character\""},
      {"\xc3\x28", "error message=\"bad character\""},
      {"pos moves=\"" + std::string(1 << 20, '9') + "\"", "error message=\"line too long\""},
      {std::string(3 << 20, 'z'), "error message=\"line too long\""},
      {"pos pos=Wbbb", "error message=\"bad position\" detail=\"a position has 51 characters\""},
      {"pos pos=" + kStart10.substr(0, 50) + "x",
       "error message=\"bad position\" detail=\"bad character at square 50\""},
      {"pos pos=W:W3:B20",
       "error message=\"bad position\" detail=\"white man on its promotion row "
       "(square 3)\""},
      {"pos moves=\"32-28 19-23 28-22\"", "error message=\"illegal move\" move=28-22"},
      {"pos moves=\"32-28 19-23 28x19x23 14x23 11-16\"",
       "error message=\"illegal move\" move=11-16"},
      {"pos moves=\"32-28 ab-cd\"", "error message=\"bad move\" move=ab-cd"},
      {"pos moves=\"32-28 19:23\"", "error message=\"bad move\" move=19:23"},
      {"pos pos=W:WK47:B14,19,29,31,42 moves=47x36", "error message=\"ambiguous move\" move=47x36"},
      {"set-param name=tt-size value=99", "error message=\"bad value\" name=tt-size"},
      {"set-param name=nonsense value=1", "error message=\"unknown parameter\" name=nonsense"},
      {"set-param value=1", "error message=\"missing name\""},
      {"level depth=deep", "error message=\"bad value\""},
  };
  for (const auto& [input, reply] : cases) {
    INFO(input.substr(0, 60));
    hub.send(input);
    CHECK(hub.sync() == std::vector<std::string>{reply});
  }
  // After all that (the last pos was rejected), a pos and the engine plays.
  hub.send("pos");
  hub.send("level depth=2");
  hub.send("go think");
  Game game(Variant::International);
  play_done(game, hub.until_done());
  // Input that ends without a newline is still a line.
  hub.process().write("quit");
  hub.process().close_input();
  CHECK(hub.process().wait(5000ms) == 0);
}

TEST_CASE("hub transcript: a bad history leaves no position to answer from", "[hub][transcript]") {
  HubClient hub;
  hub.send("pos moves=\"32-28\"");
  hub.send("pos moves=\"32-28 19-23 28-99\"");
  CHECK(hub.sync() == std::vector<std::string>{"error message=\"bad move\" move=28-99"});
  hub.send("level depth=3");
  hub.send("go think");
  // Not a Black move for the position after 32-28: an error and a bare done.
  CHECK(hub.line() == "error message=\"no position\" detail=\"the last pos was rejected\"");
  CHECK(hub.until_done() == "done");
  // The next good pos is searched.
  hub.send("pos moves=\"32-28\"");
  hub.send("level depth=3");
  hub.send("go think");
  Game game(Variant::International);
  REQUIRE(game.play(*notation::parse_move(Variant::International, game.position(), "32-28")));
  play_done(game, hub.until_done());
}

TEST_CASE("hub transcript: commands during a search", "[hub][transcript]") {
  HubClient hub;
  hub.send("pos");
  hub.send("go analyze");  // no limits: runs until something ends it
  std::this_thread::sleep_for(100ms);
  // ping is answered at once and the search goes on; so is a stray ponder-hit.
  hub.send("ponder-hit");
  const auto before_pong = hub.sync();
  for (const std::string& l : before_pong) CHECK(starts_with(l, "info "));
  // An unknown command ends the search (done), then gets its error.
  hub.send("foo");
  std::vector<std::string> infos;
  const std::string done = hub.until_done(&infos);
  CHECK(starts_with(done, "done move="));
  CHECK(hub.line() == "error message=\"bad command\"");
  CHECK(hub.sync().empty());  // exactly one done

  // pos mid-search: done, and the new position holds.
  hub.send("go analyze");
  std::this_thread::sleep_for(50ms);
  hub.send("pos moves=32-28");
  CHECK(starts_with(hub.until_done(), "done move="));
  hub.send("level depth=3");
  hub.send("go think");
  Game game(Variant::International);
  REQUIRE(game.play(*notation::parse_move(Variant::International, game.position(), "32-28")));
  play_done(game, hub.until_done());

  // go while searching: the first search answers, then the second runs.
  hub.send("pos");
  hub.send("go analyze");
  std::this_thread::sleep_for(50ms);
  hub.send("level depth=2");  // ends the search: done
  CHECK(starts_with(hub.until_done(), "done move="));
  hub.send("go think");
  CHECK(starts_with(hub.until_done(), "done move="));
  CHECK(hub.sync().empty());

  // quit mid-search: done, then the process ends.
  hub.send("go analyze");
  std::this_thread::sleep_for(50ms);
  hub.send("quit");
  CHECK(starts_with(hub.until_done(), "done move="));
  CHECK(hub.process().wait(5000ms) == 0);
}

TEST_CASE("hub transcript: EOF on stdin quits at once, even mid-search", "[hub][transcript]") {
  HubClient hub;
  hub.send("pos");
  hub.send("go analyze");
  std::this_thread::sleep_for(100ms);
  const auto start = std::chrono::steady_clock::now();
  hub.process().close_input();
  CHECK(hub.process().wait(5000ms) == 0);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 2.0);
  // And with nothing ever sent.
  HubClient idle;
  idle.process().close_input();
  CHECK(idle.process().wait(5000ms) == 0);
}

TEST_CASE("hub transcript: stdout carries protocol lines only, --log keeps a transcript",
          "[hub][transcript]") {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string log = (dir / ("tsuru-hub-log-" + std::to_string(::getpid()) + ".txt")).string();
  const std::string err = (dir / ("tsuru-hub-err-" + std::to_string(::getpid()) + ".txt")).string();
  {
    HubClient hub({"--log", log}, err);
    hub.send("hub");
    hub.send("init");
    hub.send("pos");
    hub.send("level depth=4");
    hub.send("go think");
    hub.send("garbage\x01");
    hub.send("quit");
    std::vector<std::string> out;
    for (std::string l; hub.process().read_line(l, 10000ms) == tools::ChildProcess::Read::Ok;)
      out.push_back(l);
    CHECK(hub.process().wait(5000ms) == 0);
    const std::regex protocol(R"((id|param|wait|ready|info|done|pong|error)( .*)?)");
    for (const std::string& l : out) {
      INFO(l);
      CHECK(std::regex_match(l, protocol));
    }
    CHECK(std::count_if(out.begin(), out.end(),
                        [](const std::string& l) { return starts_with(l, "done"); }) == 1);
  }
  std::ifstream in(log);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() >= 16);
  const std::regex stamped(R"(\d\d:\d\d:\d\d\.\d\d\d [<>] .*)");
  for (const std::string& l : lines) {
    INFO(l);
    CHECK(std::regex_match(l, stamped));
  }
  CHECK(lines[0].substr(13) == "> hub");
  CHECK(lines[1].substr(13) == "< " + kHandshake[0]);
  CHECK(std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
          return l.substr(13) == "> garbage\\x01";
        }) != lines.end());
  CHECK(std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
          return l.substr(13) == "< error message=\"bad character\"";
        }) != lines.end());
  CHECK(lines.back().substr(13) == "> quit");
  std::filesystem::remove(log);
  std::filesystem::remove(err);
  // A log file that cannot be written is refused before anything starts.
  HubClient bad({"--log", "/nonexistent-dir/x.log"});
  CHECK(bad.process().wait(5000ms) == 2);
}

TEST_CASE("hub transcript: pydraughts' habits", "[hub][transcript][pydraughts]") {
  HubClient hub;
  // pydraughts splits every id and param argument at '=' into exactly a key and a value.
  hub.send("hub");
  std::vector<std::string> variants;
  while (true) {
    const std::string l = hub.line();
    if (l == "wait") break;
    for (const std::string& f : fields(l)) {
      INFO(l);
      CHECK(std::count(f.begin(), f.end(), '=') == 1);
    }
    if (starts_with(l, "param name=variant ")) variants = fields(l);
  }
  REQUIRE(variants.size() == 4);
  CHECK(starts_with(variants[3], "values=\"" + std::string(variant_names()) + " "));
  // Every name pydraughts and lidraughts send is listed (and accepted, below and in
  // test_hub_pydraughts.cpp).
  for (const char* name : {"english", "international", "american", "normal", "standard", "bt",
                           "frisian", "frysk", "frysk!", "losing", "antidraughts", "russian",
                           "brazilian", "italian", "turkish", "breakthrough"}) {
    INFO(name);
    const std::string listed = " " + variants[3].substr(8, variants[3].size() - 9) + " ";
    CHECK(listed.find(std::string(" ") + name + " ") != std::string::npos);
  }
  // Values arrive unquoted; no new-game, ever.
  hub.send("set-param name=variant value=english");
  hub.send("set-param name=book value=false");
  hub.send("init");
  CHECK(hub.line() == "ready");

  // docs/rules.md worked example as pydraughts sends it: the position string turned round
  // (Black = W, h = 33-n), the move in plain PDN numbers.
  hub.send("pos pos=Wbebeebbeeeweebeeeeeeeeeeeeweeeww");
  hub.send("level time=60 inc=1");
  CHECK(hub.sync().empty());
  hub.send("go think");
  CHECK(hub.until_done() == "done move=22x31x26");  // the only move
  // The old turned-round numbering on request.
  hub.send("set-param name=notation value=tsuru");
  hub.send("pos pos=Wbebeebbeeeweebeeeeeeeeeeeeweeeww");
  hub.send("go think");
  CHECK(hub.until_done() == "done move=11x2x7");
  hub.send("pos pos=" + kStart8 + " moves=\"22-18\"");  // PDN 11-15, turned round
  CHECK(hub.sync().empty());
  hub.send("pos pos=" + kStart8 + " moves=\"11-15\"");  // not Black's move in this numbering
  CHECK(hub.sync() == std::vector<std::string>{"error message=\"illegal move\" move=11-15"});
  hub.send("set-param name=notation value=pydraughts");

  // The English opening as pydraughts sends it: start position and moves in its numbering.
  hub.send("pos pos=" + kStart8 + " moves=\"11-15 24-19\"");
  // One level line, clock below the increment (pydraughts subtracts the increment first).
  hub.send("level time=-0.6 inc=1");
  const auto start = std::chrono::steady_clock::now();
  hub.send("go think");
  const std::string done = hub.until_done();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 2.0);  // time + inc = 0.4 s: a clock, not an endless search
  // done parsed by position: move first, then only ponder.
  const auto f = fields(done);
  REQUIRE_FALSE(f.empty());
  CHECK(starts_with(f[0], "move="));
  CHECK(f.size() <= 2);
  Game game(Variant::English);
  for (const char* pdn : {"11-15", "24-19"})
    REQUIRE(game.play(*notation::parse_move(Variant::English, game.position(), pdn)));
  play_done(game, done);

  // pydraughts' other level forms, each a single line.
  for (const char* level :
       {"level moves=40 time=30 inc=1", "level time=5 inc=0.5", "level moves=40 time=30",
        "level time=2", "level move-time=0.05", "level depth=3", "level nodes=2000"}) {
    INFO(level);
    hub.send("pos pos=" + kStart8);
    hub.send(level);
    hub.send("go think");
    Game g(Variant::English);
    play_done(g, hub.until_done(nullptr, 30000ms));
  }
  hub.send("quit");
  CHECK(hub.process().wait(5000ms) == 0);
}

TEST_CASE("hub transcript: lidraughts' habits", "[hub][transcript][lidraughts]") {
  // One process per variant; new-game before each job; set-param between searches;
  // level nodes=N with go analyze; stop sent by the client, possibly several times.
  HubClient hub;
  hub.send("set-param name=variant value=normal");
  hub.start_session();
  for (int job = 0; job < 3; ++job) {
    hub.send("new-game");
    hub.send("set-param name=threads value=" + std::to_string(job + 1));
    hub.send("pos pos=" + kStart10 + " moves=\"32-28 19-23\"");
    hub.send("level nodes=20000 handicap=0 ply=2");
    hub.send("go analyze");
    std::vector<std::string> infos;
    const std::string done = hub.until_done(&infos);
    CHECK_FALSE(infos.empty());
    Game game(Variant::International);
    for (const char* m : {"32-28", "19-23"})
      REQUIRE(game.play(*notation::parse_move(Variant::International, game.position(), m)));
    play_done(game, done);
    // Its wall-clock stop arrives after the search already answered: ignored.
    hub.send("stop");
    hub.send("stop");
    CHECK(hub.sync().empty());
  }
  // A job it stops itself: one done however many stops.
  hub.send("new-game");
  hub.send("pos");
  hub.send("go analyze");
  std::this_thread::sleep_for(100ms);
  hub.send("stop");
  hub.send("stop");
  hub.send("stop");
  CHECK(starts_with(hub.until_done(), "done move="));
  const auto rest = hub.sync();
  CHECK(rest.empty());
}
