// Faults during `tsuru match` (issue 29), with real engine processes the test harms from
// outside: a Hub engine killed with SIGKILL mid-game, one stopped with SIGSTOP (it hangs past its
// time), a DXP follower killed mid-game and restarted on its port, and the PDN file's disk
// filling up. Each game is scored as the README says (the failing engine forfeits), a fresh
// engine plays the next game, the match goes on, and the PDN file holds whole, sound games at
// every point (tests/pdn_check.hpp replays them). Hidden ([.faults]); .ci/run runs them.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <filesystem>
#include <regex>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "tests/pdn_check.hpp"
#include "tests/small_disk.hpp"
#include "tests/spawn.hpp"
#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"

using namespace tsuru;
using namespace std::chrono_literals;
using tools::ChildProcess;
namespace fs = std::filesystem;

namespace {

const std::string kBinary = TSURU_BINARY;

struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("tsuru-faults-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// A Hub engine whose every process writes its pid into dir (tests/data/engines/pidfile.sh).
std::string watched_engine(const fs::path& dir) {
  return "hub:sh " + std::string(TSURU_TEST_DATA) + "/engines/pidfile.sh " + dir.string() + " " +
         kBinary + " hub";
}

std::set<pid_t> pids_in(const fs::path& dir) {
  std::set<pid_t> pids;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".pid") pids.insert(std::stoi(e.path().stem().string()));
  return pids;
}

// The first engine process that appears in dir, waited for.
pid_t first_pid(const fs::path& dir) {
  for (int i = 0; i < 300; ++i) {
    const auto pids = pids_in(dir);
    if (!pids.empty()) return *pids.begin();
    std::this_thread::sleep_for(100ms);
  }
  FAIL("no engine process started");
  return -1;
}

bool alive(pid_t pid) {
  // A zombie is dead too: its state letter in /proc/PID/stat is Z.
  const std::string stat = test::read_file("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return false;
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

std::unique_ptr<ChildProcess> start_match(const std::vector<std::string>& args) {
  std::vector<std::string> argv{kBinary, "match"};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::spawn(argv);
}

// The match's output up to its end; the lines are kept.
std::vector<std::string> lines_to_end(ChildProcess& p, std::chrono::seconds limit = 300s) {
  std::vector<std::string> lines;
  for (std::string line; p.read_line(line, limit) == ChildProcess::Read::Ok;) lines.push_back(line);
  return lines;
}

// Reads output lines until one starts with prefix; the lines read are appended to seen.
std::string line_starting(ChildProcess& p, const std::string& prefix,
                          std::vector<std::string>& seen) {
  std::string line;
  while (p.read_line(line, 300s) == ChildProcess::Read::Ok) {
    seen.push_back(line);
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return {};
}

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  return all;
}

// The W/D/L of the summary line; {-1, -1, -1} when there is none.
std::array<int, 3> score_of(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(R"(result W=(\d+) D=(\d+) L=(\d+) )")))
    return {-1, -1, -1};
  return {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
}

// A free TCP port on 127.0.0.1 (taken, then given back).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::unique_ptr<ChildProcess> dxp_follower(int port) {
  auto p = test::spawn({kBinary, "dxp", "--listen", "127.0.0.1:" + std::to_string(port),
                        "--variant", "international", "--level", "medium", "--hash", "16"});
  std::string line;
  REQUIRE(p->read_line_containing("listening on ", line, 30s) == ChildProcess::Read::Ok);
  return p;
}

}  // namespace

TEST_CASE(
    "match faults: a Hub engine killed mid-game forfeits, a fresh one plays on, the PDN "
    "stays whole",
    "[.faults][match]") {
  TempDir dir;
  const std::string pdn = (dir.path / "match.pdn").string();
  const fs::path pids = dir.path / "pids";
  fs::create_directories(pids);
  auto match = start_match({"--variant", "international", "--games", "4", "--movetime", "0.05",
                            "--engine", "hub:" + kBinary + " hub", "--engine", watched_engine(pids),
                            "--pdn", pdn, "--seed", "5"});
  const pid_t victim = first_pid(pids);
  std::this_thread::sleep_for(1500ms);  // into game 1 (the engines started with the match)
  REQUIRE(::kill(victim, SIGKILL) == 0);
  std::vector<std::string> seen;
  const std::string game1 = line_starting(*match, "game 1/4 ", seen);
  INFO(joined(seen));
  // Engine 2 plays Black in game 1 and forfeits it: the rule the README states.
  CHECK_THAT(game1, Catch::Contains("Black forfeits: engine failure (engine "));
  CHECK_THAT(game1, Catch::Contains("2-0"));
  {
    // The PDN so far, read while game 2 is played: valid whenever it is read, and game 1 in it
    // once the runner has appended it (just after the progress line).
    std::size_t games = 0;
    for (int i = 0; i < 100 && games == 0; ++i) {
      CHECK(test::check_pdn_file(Variant::International, test::read_file(pdn), &games) == "");
      if (games == 0) std::this_thread::sleep_for(50ms);
    }
    CHECK(games == 1);
  }
  const auto rest = lines_to_end(*match);
  seen.insert(seen.end(), rest.begin(), rest.end());
  const std::string out = joined(seen);
  INFO(out);
  CHECK(match->wait(30s) == 0);
  CHECK(test::count_of(out, "forfeits") == 1);  // the three other games are sound games
  const auto score = score_of(out);
  CHECK(score[0] + score[1] + score[2] == 4);
  CHECK(score[0] >= 1);              // game 1 at least
  CHECK(pids_in(pids).size() >= 2);  // a new engine after the killed one
  CHECK_FALSE(alive(victim));
  std::size_t games = 0;
  CHECK(test::check_pdn_file(Variant::International, test::read_file(pdn), &games) == "");
  CHECK(games == 4);
}

TEST_CASE("match faults: a Hub engine that stops answering loses on time and is replaced",
          "[.faults][match]") {
  TempDir dir;
  const std::string pdn = (dir.path / "match.pdn").string();
  const fs::path pids = dir.path / "pids";
  fs::create_directories(pids);
  auto match = start_match({"--variant", "international", "--games", "2", "--movetime", "0.05",
                            "--margin", "0.5", "--engine", "hub:" + kBinary + " hub", "--engine",
                            watched_engine(pids), "--pdn", pdn});
  const pid_t victim = first_pid(pids);
  std::this_thread::sleep_for(1500ms);
  REQUIRE(::kill(victim, SIGSTOP) == 0);  // alive, holding its pipes, never answering
  const auto lines = lines_to_end(*match);
  const std::string out = joined(lines);
  INFO(out);
  CHECK(match->wait(30s) == 0);
  CHECK_THAT(out, Catch::Contains("game 1/2 2-0 (Black forfeits: no move within 0.55 s (hung))"));
  CHECK(test::count_of(out, "forfeits") == 1);
  const auto score = score_of(out);
  CHECK(score[0] + score[1] + score[2] == 2);
  CHECK(pids_in(pids).size() >= 2);
  // The runner killed the hung engine; nothing of it is left.
  for (int i = 0; i < 50 && alive(victim); ++i) std::this_thread::sleep_for(100ms);
  CHECK_FALSE(alive(victim));
  std::size_t games = 0;
  CHECK(test::check_pdn_file(Variant::International, test::read_file(pdn), &games) == "");
  CHECK(games == 2);
}

TEST_CASE("match faults: a DXP follower killed mid-game forfeits; restarted, it plays on",
          "[.faults][match][dxp]") {
  TempDir dir;
  const std::string pdn = (dir.path / "match.pdn").string();
  const int port = free_port();
  auto follower = dxp_follower(port);
  auto match =
      start_match({"--variant", "international", "--games", "3", "--movetime", "0.05", "--engine",
                   "hub:" + kBinary + " hub", "--engine", "dxp:127.0.0.1:" + std::to_string(port),
                   "--dxp-retry", "30", "--pdn", pdn});
  std::string line;
  REQUIRE(match->read_line_containing("match: ", line, 60s) == ChildProcess::Read::Ok);
  std::this_thread::sleep_for(1500ms);
  follower->kill();  // SIGKILL: the connection drops mid-game
  REQUIRE(follower->wait(10s).has_value());
  follower = dxp_follower(port);  // back on its port; the runner reconnects
  const auto lines = lines_to_end(*match);
  const std::string out = joined(lines);
  INFO(out);
  CHECK(match->wait(30s) == 0);
  CHECK_THAT(out, Catch::Contains("game 1/3 2-0 (Black forfeits: engine failure (connection"));
  CHECK(test::count_of(out, "forfeits") == 1);
  const auto score = score_of(out);
  CHECK(score[0] + score[1] + score[2] == 3);
  std::size_t games = 0;
  CHECK(test::check_pdn_file(Variant::International, test::read_file(pdn), &games) == "");
  CHECK(games == 3);
  follower->signal(SIGTERM);
  CHECK(follower->wait(30s) == 0);
}

TEST_CASE(
    "match faults: the PDN file's disk fills up: the match stops, the file holds whole "
    "games",
    "[.faults][match][disk]") {
  test::SmallDisk disk(8 * 1024);
  const std::string pdn = disk.path("match.pdn");
  std::vector<std::string> argv{kBinary,     "match",
                                "--variant", "international",
                                "--games",   "30",
                                "--depth",   "1",
                                "--engine",  "hub:" + kBinary + " hub",
                                "--engine",  "hub:" + kBinary + " hub",
                                "--pdn",     pdn};
  const test::TsuruRun run = test::run_program(disk.wrap(argv), "", 300s);
  INFO(run.out << run.err);
  CHECK(run.code == 1);
  CHECK_THAT(run.err, Catch::Contains("error: match stopped after "));
  CHECK_THAT(run.err, Catch::Contains("PDN file: cannot write " + pdn + ": " + disk.reason()));
  CHECK_THAT(run.out, Catch::Contains("cannot be written to the PDN file"));
  CHECK(run.out.find("result W=") == std::string::npos);
  std::size_t games = 0;
  CHECK(test::check_pdn_file(Variant::International, test::read_file(pdn), &games) == "");
  CHECK(games >= 1);
  CHECK(games < 30);
  CHECK_THAT(run.err,
             Catch::Contains("(the file holds the " + std::to_string(games) + " games before it)"));
}
