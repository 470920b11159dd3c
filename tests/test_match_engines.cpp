// tsuru match with real processes: `tsuru hub` against `tsuru hub` at two levels in both rule
// sets, a DXP match against a `tsuru dxp` follower, fake engines (tests/data/engines) that
// crash, hang, or move illegally losing their games while the match goes on, the SPRT stop,
// and the command line's errors.

#include <fstream>
#include <regex>
#include <sstream>

#include <catch2/catch.hpp>

#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/child_process.hpp"

using tsuru::test::count_of;
using tsuru::test::read_file;
using tsuru::tools::ChildProcess;
using namespace std::chrono_literals;

namespace {

const std::string kBinary = TSURU_BINARY;
const std::string kHub = "hub:" + kBinary + " hub";

std::string fake(const std::string& name) {
  return "hub:sh " + std::string(TSURU_TEST_DATA) + "/engines/" + name + ".sh";
}

// Runs `tsuru match` with the arguments and collects its output.
tsuru::test::TsuruRun match(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"match"};
  argv.insert(argv.end(), args.begin(), args.end());
  return tsuru::test::run_tsuru(argv, "", 300s);
}

struct Score {
  int w = -1, d = -1, l = -1;
};

// The summary line `result W=.. D=.. L=.. score=..% elo=.. ci95=..` (and ` llr=..` under an
// SPRT), which must end the output.
Score result_of(const std::string& out) {
  static const std::regex line(
      R"(result W=(\d+) D=(\d+) L=(\d+) score=\d+\.\d% elo=(-?inf|-?\d+\.\d) ci95=(inf|\d+\.\d)( llr=-?\d+\.\d\d)?\n$)");
  std::smatch m;
  if (!std::regex_search(out, m, line)) return {};
  return {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
}

}  // namespace

TEST_CASE("match: tsuru hub against tsuru hub at two levels, both rule sets", "[match][engines]") {
  for (const char* variant : {"english", "international"}) {
    INFO(variant);
    const std::string pdn = std::string("tsuru_match_") + variant + ".pdn";
    const tsuru::test::TsuruRun run = match({"--variant",     variant,
                                             "--games",       "4",
                                             "--movetime",    "0.05",
                                             "--engine",      kHub,
                                             "--engine",      kHub,
                                             "--param1",      "level=medium",
                                             "--param2",      "level=beginner",
                                             "--concurrency", "2",
                                             "--pdn",         pdn,
                                             "--seed",        "3"});
    INFO(run.out << run.err);
    CHECK(run.code == 0);
    const Score s = result_of(run.out);
    CHECK(s.w + s.d + s.l == 4);
    CHECK(count_of(run.out, "\ngame ") == 4);
    CHECK(run.out.find("forfeits") == std::string::npos);  // two sound engines
    const std::string games = read_file(pdn);
    CHECK(count_of(games, "[Event \"Tsuru match\"]") == 4);
    CHECK(count_of(games, "[Termination ") == 4);
    CHECK(count_of(games, std::string("[GameType \"") +
                              (std::string(variant) == "english" ? "21" : "20") + "\"]") == 4);
    std::remove(pdn.c_str());
  }
}

TEST_CASE("match: against a tsuru dxp follower, the runner as initiator", "[match][engines]") {
  for (const char* variant : {"english", "international"}) {
    INFO(variant);
    auto follower = ChildProcess::start(
        {kBinary, "dxp", "--listen", "127.0.0.1:0", "--level", "beginner", "--variant", variant});
    REQUIRE(follower.ok());
    std::string line;
    REQUIRE((*follower)->read_line(line, 30s) == ChildProcess::Read::Ok);
    std::smatch m;
    REQUIRE(std::regex_match(line, m, std::regex(R"(listening on 127\.0\.0\.1:(\d+))")));
    const std::string port = m[1];
    const tsuru::test::TsuruRun run =
        match({"--variant", variant, "--games", "2", "--movetime", "0.05", "--engine", kHub,
               "--engine", "dxp:127.0.0.1:" + port, "--param1", "level=beginner"});
    INFO(run.out << run.err);
    CHECK(run.code == 0);
    const Score s = result_of(run.out);
    CHECK(s.w + s.d + s.l == 2);
    CHECK(run.out.find("forfeits") == std::string::npos);
    // The follower saw the same two games, each ended with a result.
    std::string seen;
    for (int games = 0; games < 2;) {
      REQUIRE((*follower)->read_line(line, 30s) == ChildProcess::Read::Ok);
      seen += line + "\n";
      if (line.starts_with("game ")) {
        ++games;
        CHECK(line.find(" * (") == std::string::npos);  // not unfinished
      }
    }
    INFO(seen);
    (*follower)->kill();
  }
}

TEST_CASE("match: crashed, hung and illegal-moving engines lose, the match goes on",
          "[match][engines]") {
  struct Case {
    std::string engine;
    std::string reason;
    std::vector<std::string> extra;
  };
  const Case cases[] = {
      {fake("crash"), "forfeits: engine failure (engine exited with code 3)", {"--depth", "2"}},
      {fake("illegal"), "forfeits: illegal move '1-2'", {"--depth", "2"}},
      {fake("garbage"), "forfeits: illegal move 'hello'", {"--depth", "2"}},
      {fake("hang"), "forfeits: no move within", {"--movetime", "0.05", "--margin", "0.2"}},
      {fake("hang"), "forfeits: no move within", {"--depth", "3", "--timeout", "0.5"}},
  };
  for (const Case& c : cases) {
    INFO(c.engine << " " << c.extra[0]);
    const std::string pdn = "tsuru_match_faults.pdn";
    std::vector<std::string> args = {
        "--variant", "international", "--games",        "3",     "--engine", kHub, "--engine",
        c.engine,    "--param1",      "level=beginner", "--pdn", pdn};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const tsuru::test::TsuruRun run = match(args);
    INFO(run.out << run.err);
    CHECK(run.code == 0);
    const Score s = result_of(run.out);
    CHECK(s.w == 3);  // all three games, each with a fresh fake engine
    CHECK(s.d == 0);
    CHECK(s.l == 0);
    CHECK(count_of(run.out, c.reason) == 3);
    CHECK(count_of(read_file(pdn), "[Termination ") == 3);
    std::remove(pdn.c_str());
  }
}

TEST_CASE("match: the Hub driver numbers moves as pydraughts does", "[match][engines][hub]") {
  // English: the driver sends and reads plain PDN move numbers (Tsuru's default notation). An
  // engine switched to the old turned-round numbering answers moves the driver cannot take
  // (and refuses the driver's history): it loses every game; with the default, none.
  const tsuru::test::TsuruRun mixed =
      match({"--variant", "english", "--games", "2", "--depth", "2", "--engine", kHub, "--engine",
             kHub, "--param2", "notation=tsuru"});
  INFO(mixed.out << mixed.err);
  CHECK(mixed.code == 0);
  const Score lost = result_of(mixed.out);
  CHECK(lost.w == 2);
  CHECK(count_of(mixed.out, "forfeits") == 2);
  const tsuru::test::TsuruRun same = match(
      {"--variant", "english", "--games", "2", "--depth", "2", "--engine", kHub, "--engine", kHub});
  INFO(same.out << same.err);
  CHECK(same.code == 0);
  CHECK(same.out.find("forfeits") == std::string::npos);
}

TEST_CASE("match: the SPRT stops a decided match", "[match][engines]") {
  const tsuru::test::TsuruRun run =
      match({"--variant", "english", "--games", "200", "--depth", "2", "--engine", kHub, "--engine",
             fake("illegal"), "--sprt", "0,50,0.05,0.05"});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  const Score s = result_of(run.out);
  CHECK(s.w > 0);
  CHECK(s.w < 40);
  CHECK(run.out.find("SPRT: H1 accepted after") != std::string::npos);
  CHECK(run.out.find("SPRT elo0=0.0 elo1=50.0 alpha=0.050 beta=0.050: LLR ") != std::string::npos);
}

TEST_CASE("match: adjudication reads the Hub engines' info scores", "[match][engines][hub]") {
  // Any score is within 50 men: every game is a draw after one move each.
  const tsuru::test::TsuruRun draw =
      match({"--variant", "english", "--games", "2", "--depth", "4", "--engine", kHub, "--engine",
             kHub, "--adjudicate-draw", "0,1,50"});
  INFO(draw.out << draw.err);
  CHECK(draw.code == 0);
  const Score d = result_of(draw.out);
  CHECK(d.d == 2);
  CHECK(count_of(draw.out, "(adjudicated: both engines scored within +-50.00 for 1 moves)") == 2);
  // A win once both engines see one side 3 men ahead: the trained evaluation against the classic
  // one at depth 4 goes that far (two equal engines may draw every game), and each adjudicated
  // result is the side the engines named.
  const tsuru::test::TsuruRun win =
      match({"--variant", "english", "--games", "2", "--depth", "4", "--engine", kHub, "--engine",
             kHub, "--param2", "eval-file=", "--adjudicate-win", "1,3"});
  INFO(win.out);
  CHECK(win.code == 0);
  const std::regex adjudicated(
      R"(game \d/2 (1-0|0-1) \(adjudicated: both engines scored (White|Black) 3\.00 or more ahead for 1 moves\))");
  int wins = 0;
  for (auto it = std::sregex_iterator(win.out.begin(), win.out.end(), adjudicated);
       it != std::sregex_iterator(); ++it) {
    ++wins;
    CHECK(((*it)[1] == "1-0") == ((*it)[2] == "White"));
  }
  CHECK(wins >= 1);
  const tsuru::test::TsuruRun bad = match({"--games", "2", "--depth", "2", "--engine", kHub,
                                           "--engine", kHub, "--adjudicate-draw", "40,10"});
  CHECK(bad.code != 0);
  CHECK(bad.err.find("--adjudicate-draw FROM,MOVES,SCORE: expected 3 numbers") !=
        std::string::npos);
}

TEST_CASE("match: command-line errors are reported, not played", "[match][engines]") {
  const std::vector<std::string> base = {"--games", "2", "--engine", kHub, "--engine", kHub};
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const Case cases[] = {
      {base, "give exactly one of --movetime, --tc, --depth"},
      {with({"--depth", "2", "--movetime", "1"}), "give exactly one of"},
      {with({"--tc", "abc"}), "bad --tc 'abc'"},
      {with({"--depth", "2", "--sprt", "0,5"}), "--sprt needs four numbers"},
      {with({"--depth", "2", "--variant", "international", "--openings", "ballots"}),
       "the ballots are English"},
      {with({"--depth", "2", "--openings", "no-such-file"}), "cannot open openings file"},
      {with({"--depth", "2", "--param1", "novalue"}), "expected name=value"},
      {{"--games", "0", "--depth", "2", "--engine", kHub, "--engine", kHub},
       "--games must be at least 1"},
      {{"--games", "2", "--depth", "2", "--engine", kHub}, "give --engine twice"},
      {{"--games", "2", "--depth", "2", "--engine", kHub, "--engine", "uci:x"},
       "expected hub:CMD or dxp:HOST:PORT"},
      {{"--games", "2", "--depth", "2", "--engine", kHub, "--engine", "dxp:localhost:99999"},
       "expected dxp:HOST:PORT"},
      {{"--games", "2", "--depth", "2", "--engine", kHub, "--engine", "dxp:127.0.0.1:1", "--param2",
        "level=hard"},
       "DXP engines take no parameters"},
      {{"--games", "2", "--depth", "2", "--engine", kHub, "--engine", "hub:/no/such/engine"},
       "engine 2 (hub:/no/such/engine): engine exited with code 127"},
      {{"--games", "2", "--depth", "2", "--engine", kHub, "--engine", "dxp:127.0.0.1:1"},
       "engine 2 (dxp:127.0.0.1:1): cannot connect"},
      {with({"--depth", "2", "--param2", "level=superb"}),
       "engine 2 (" + kHub +
           "): engine error after set-param (variant=english level=superb) "
           "and init: bad value"},
  };
  for (const Case& c : cases) {
    INFO(c.message);
    const tsuru::test::TsuruRun run = match(c.args);
    INFO(run.out << run.err);
    CHECK(run.code == 2);
    CHECK(run.err.find(c.message) != std::string::npos);
    CHECK(run.out.find("result ") == std::string::npos);
  }
}
