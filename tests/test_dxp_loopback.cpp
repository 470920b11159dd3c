// Loopback matches: two real `tsuru dxp` processes, an initiator and a follower, play complete
// games and must agree on every result and every move (their PDN files), with no protocol
// error on either side. Listening and connecting are swapped between the roles.
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "tests/dxp_process.hpp"
#include "tests/spawn.hpp"

using tsuru::test::Listener;
using tsuru::tools::ChildProcess;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("tsuru-dxp-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

struct PdnGame {
  std::string result;    // the Result tag
  std::string players;   // White and Black tags
  std::string movetext;  // everything after the tags
};

std::vector<PdnGame> read_pdn_dir(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<PdnGame> games;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    PdnGame g;
    std::istringstream lines(s);
    std::string line;
    while (std::getline(lines, line) && !line.empty()) {
      if (line.rfind("[Result ", 0) == 0) g.result = line;
      if (line.rfind("[White ", 0) == 0 || line.rfind("[Black ", 0) == 0) g.players += line;
    }
    g.movetext = s.substr(s.find("\n\n") + 2);
    games.push_back(g);
  }
  return games;
}

// "game 1.2: A - B 1-0 (reason) 94 plies" without the reason, which each side words itself.
std::string game_key(const std::string& line) {
  const auto open = line.find(" (");
  const auto close = line.rfind(") ");
  if (open == std::string::npos || close == std::string::npos) return line;
  return line.substr(0, open) + line.substr(close + 1);
}

struct MatchSetup {
  std::string variant;
  std::string level;
  int games = 2;
  bool initiator_listens = false;
  std::vector<std::string> extra;           // for the initiator
  std::vector<std::string> follower_extra;  // for the follower
};

void play_match(const MatchSetup& m) {
  TempDir initiator_pdn, follower_pdn;
  const std::vector<std::string> common = {"--variant", m.variant, "--level",       m.level,
                                           "--hash",    "16",      "--ack-timeout", "2"};
  std::vector<std::string> initiator_args = common;
  initiator_args.insert(initiator_args.end(), {"--initiator", "--games", std::to_string(m.games),
                                               "--time", "1", "--moves", "150", "--name",
                                               "Initiator", "--pdn", initiator_pdn.path.string()});
  initiator_args.insert(initiator_args.end(), m.extra.begin(), m.extra.end());
  std::vector<std::string> follower_args = common;
  follower_args.insert(follower_args.end(),
                       {"--name", "Follower", "--pdn", follower_pdn.path.string()});
  follower_args.insert(follower_args.end(), m.follower_extra.begin(), m.follower_extra.end());

  auto connect_args = [](const std::vector<std::string>& args, int port) {
    std::vector<std::string> all{TSURU_BINARY, "dxp", "--connect",
                                 "127.0.0.1:" + std::to_string(port)};
    all.insert(all.end(), args.begin(), args.end());
    return all;
  };
  const auto limit = std::chrono::seconds(120 + 60 * m.games);
  std::vector<std::string> lines[2];  // [0] initiator, [1] follower
  auto collect = [&](ChildProcess& p, std::vector<std::string>& out) {
    for (std::string line; p.read_line(line, limit) == ChildProcess::Read::Ok;) {
      out.push_back(line);
      if (line.rfind("session:", 0) == 0) break;
    }
  };
  if (m.initiator_listens) {
    Listener initiator(initiator_args);
    const auto follower = tsuru::test::spawn(connect_args(follower_args, initiator.port));
    collect(*initiator.process, lines[0]);
    collect(*follower, lines[1]);
    CHECK(follower->wait(30s) == 0);
    initiator.process->signal(SIGTERM);
    CHECK(initiator.process->wait(30s) == 0);
  } else {
    Listener follower(follower_args);
    const auto initiator = tsuru::test::spawn(connect_args(initiator_args, follower.port));
    collect(*initiator, lines[0]);
    collect(*follower.process, lines[1]);
    CHECK(initiator->wait(30s) == 0);  // every game played
    follower.process->signal(SIGTERM);
    CHECK(follower.process->wait(30s) == 0);
  }

  for (const auto& side : lines) {
    REQUIRE_FALSE(side.empty());
    INFO(side.back());
    CHECK_THAT(side.back(), Catch::Contains("games=" + std::to_string(m.games) + " "));
    CHECK_THAT(side.back(), Catch::Contains("unfinished=0 errors=0"));
  }
  CHECK_THAT(lines[0].back(), Catch::EndsWith(" complete"));
  REQUIRE(lines[0].size() == static_cast<std::size_t>(m.games) + 1);
  REQUIRE(lines[1].size() == lines[0].size());
  for (std::size_t i = 0; i < static_cast<std::size_t>(m.games); ++i) {
    INFO(lines[0][i] << " / " << lines[1][i]);
    CHECK(game_key(lines[0][i]) == game_key(lines[1][i]));
    CHECK_THAT(lines[0][i], !Catch::Contains(" * "));
  }
  // Colours alternate: the initiator is White in odd games.
  CHECK_THAT(lines[0][0], Catch::Contains(": Initiator - Follower "));
  CHECK_THAT(lines[0][1], Catch::Contains(": Follower - Initiator "));

  const auto a = read_pdn_dir(initiator_pdn.path);
  const auto b = read_pdn_dir(follower_pdn.path);
  REQUIRE(a.size() == static_cast<std::size_t>(m.games));
  REQUIRE(b.size() == a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("game " << i + 1);
    CHECK(a[i].result == b[i].result);
    CHECK(a[i].players == b[i].players);
    CHECK(a[i].movetext == b[i].movetext);
    CHECK(a[i].result != "[Result \"*\"]");
  }
}

}  // namespace

TEST_CASE("DXP loopback: English, follower listening, 3-move ballots", "[dxp][loopback]") {
  play_match({"english",
              "beginner",
              2,
              false,
              {"--openings", TSURU_TEST_DATA "/ballots-english-3move.tsv"},
              {}});
}

TEST_CASE("DXP loopback: international, initiator listening", "[dxp][loopback]") {
  play_match({"international", "beginner", 2, true, {}, {}});
}

TEST_CASE("DXP loopback: the pydraughts layout (Russian, Turkish) and the Tsuru layout (English)",
          "[dxp][loopback]") {
  SECTION("russian, rows flipped") {
    play_match({"russian", "beginner", 2, false, {}, {}});
  }
  SECTION("turkish, 64 letters") {
    play_match({"turkish", "beginner", 2, true, {}, {}});
  }
  SECTION("english, both sides --layout tsuru") {
    play_match({"english",
                "beginner",
                2,
                false,
                {"--layout", "tsuru", "--openings", TSURU_TEST_DATA "/ballots-english-3move.tsv"},
                {"--layout", "tsuru"}});
  }
}

TEST_CASE("DXP loopback soak: 10 games each, English and international", "[.soak][dxp]") {
  SECTION("english, medium, ballots") {
    play_match({"english",
                "medium",
                10,
                false,
                {"--openings", TSURU_TEST_DATA "/ballots-english-3move.tsv"},
                {}});
  }
  SECTION("international, beginner") {
    play_match({"international", "beginner", 10, true, {}, {}});
  }
  SECTION("international, medium") {
    play_match({"international", "medium", 10, false, {}, {}});
  }
}
