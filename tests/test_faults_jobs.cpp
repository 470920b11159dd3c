// The long jobs under faults (issue 29), run as processes: `selfplay`, `train`, `book build`
// and `egdb build` killed with SIGKILL part-way and run again must end with the bytes of one
// uninterrupted run (self-play resumes from its journal, a book build from its progress file,
// an endgame build from the slices already written; training starts afresh and writes nothing
// before it is done); and with the disk full under each writer (tests/small_disk.hpp) each says
// so, leaves no file half written under its final name and no temporary file, and what it kept
// is whole (a self-play journal or a book build resumes from it once there is room). Hidden
// ([.faults]); .ci/run runs them.
#include <unistd.h>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include <catch2/catch.hpp>

#include "tests/dxp_process.hpp"
#include "tests/pdn_check.hpp"
#include "tests/small_disk.hpp"
#include "tests/spawn.hpp"
#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/match/results_file.hpp"

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
           ("tsuru-jobs-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::vector<std::string> command(const std::vector<std::string>& args) {
  std::vector<std::string> argv{kBinary};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

test::TsuruRun run(const std::vector<std::string>& args) {
  return test::run_tsuru(args, "", 600s);
}

// Starts argv and kills it (SIGKILL) once ready(stdout so far, stderr so far) holds; fails when
// the program ends first. The output seen, for messages.
std::string kill_when(const std::vector<std::string>& argv,
                      const std::function<bool(const std::string&, const std::string&)>& ready) {
  const fs::path err =
      fs::temp_directory_path() / ("tsuru-jobs-stderr-" + std::to_string(::getpid()) + ".txt");
  tools::ChildOptions options;
  options.error_output = tools::ErrorOutput::File;
  options.error_file = err.string();
  auto child = test::spawn(argv, options);
  std::string out, line;
  bool killed = false;
  for (int i = 0; i < 6000 && !killed; ++i) {
    const auto r = child->read_line(line, 20ms);
    if (r == ChildProcess::Read::Closed) break;
    if (r == ChildProcess::Read::Ok) out += line + "\n";
    if (ready(out, test::read_file(err.string()))) {
      child->kill();
      killed = true;
    }
  }
  const auto code = child->wait(30s);
  const std::string seen = out + test::read_file(err.string());
  fs::remove(err);
  INFO(seen);
  REQUIRE(killed);
  REQUIRE(code == 128 + 9);
  return seen;
}

// The largest N of "N/M" progress counts in a progress bar's text.
int progress(const std::string& text, const std::string& unit) {
  int best = 0;
  for (std::size_t at = text.find(unit); at != std::string::npos; at = text.find(unit, at + 1)) {
    std::size_t slash = text.rfind('/', at);
    std::size_t start = text.rfind(' ', slash);
    if (slash == std::string::npos || start == std::string::npos) continue;
    best = std::max(best, std::atoi(text.substr(start + 1, slash - start - 1).c_str()));
  }
  return best;
}

bool same_bytes(const std::string& a, const std::string& b) {
  const std::string x = test::read_file(a), y = test::read_file(b);
  return !x.empty() && x == y;
}

// Files in dir whose name holds ".tmp" (a temporary file left behind).
std::vector<std::string> leftovers(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos)
      out.push_back(e.path().string());
  return out;
}

std::vector<std::string> selfplay_args(const std::string& out, int games) {
  return {"selfplay", "--variant", "english",   "--games", std::to_string(games),
          "--nodes",  "2000",      "--threads", "2",       "--seed",
          "29",       "--out",     out};
}

std::vector<std::string> book_args(const std::string& out) {
  return {"book", "build",   "--variant", "international", "--out", out, "--positions",
          "60",   "--depth", "8",         "--tt-size",     "16"};
}

}  // namespace

TEST_CASE("job faults: selfplay killed mid-run resumes from its journal, the same bytes",
          "[.faults][selfplay]") {
  TempDir dir;
  const auto reference = run(selfplay_args(dir / "reference.samples", 60));
  INFO(reference.out << reference.err);
  REQUIRE(reference.code == 0);
  const std::string out = dir / "run.samples";
  kill_when(command(selfplay_args(out, 60)), [&](const std::string&, const std::string& err) {
    return progress(err, " games") >= 15;
  });
  CHECK_FALSE(fs::exists(out));  // nothing under the final name before the end
  CHECK(fs::file_size(out + ".journal") > 32);
  const auto resumed = run(selfplay_args(out, 60));
  INFO(resumed.out << resumed.err);
  CHECK(resumed.code == 0);
  CHECK_THAT(resumed.err, Catch::Contains("selfplay: resuming from " + out + ".journal: "));
  CHECK(same_bytes(out, dir / "reference.samples"));
  CHECK_FALSE(fs::exists(out + ".journal"));  // a complete run leaves no journal
  // Killed twice, the second time right away: still the same bytes.
  fs::remove(out);
  kill_when(command(selfplay_args(out, 60)), [&](const std::string&, const std::string& err) {
    return progress(err, " games") >= 5;
  });
  kill_when(command(selfplay_args(out, 60)), [&](const std::string&, const std::string& err) {
    return err.find("resuming") != std::string::npos;
  });
  CHECK(run(selfplay_args(out, 60)).code == 0);
  CHECK(same_bytes(out, dir / "reference.samples"));
  // A journal of other options is refused, not mixed in.
  kill_when(command(selfplay_args(out + "2", 60)), [&](const std::string&, const std::string& err) {
    return progress(err, " games") >= 5;
  });
  auto other = selfplay_args(out + "2", 60);
  other[other.size() - 3] = "30";  // another seed
  const auto refused = run(other);
  CHECK(refused.code == 1);
  CHECK_THAT(refused.err, Catch::Contains("is the journal of a run with other options"));
}

TEST_CASE("job faults: match killed mid-run leaves the results of the games it finished",
          "[.faults][jobs][match]") {
  TempDir dir;
  const std::string results = dir / "m.results";
  const std::vector<std::string> args = {"match",
                                         "--variant",
                                         "english",
                                         "--games",
                                         "200",
                                         "--depth",
                                         "3",
                                         "--engine",
                                         "hub:" + kBinary + " hub",
                                         "--engine",
                                         "hub:" + kBinary + " hub",
                                         "--seed",
                                         "3",
                                         "--results",
                                         results};
  kill_when(command(args), [](const std::string& out, const std::string&) {
    return out.find(" | after 4: ") != std::string::npos;
  });
  // The file is whole (written through a temporary and renamed) and holds the games finished
  // before the kill: at least the three before the fourth's progress line.
  const auto r = match::read_results(results);
  REQUIRE(r.ok());
  CHECK(r->games.size() >= 3);
  CHECK(r->games.size() < 200);
  // (A kill between a write and its rename may leave the temporary beside it: the file named
  // is always whole.)
  const auto merged = run({"match", "merge", results});
  CHECK(merged.code == 0);
  CHECK(merged.out.find(" of 200 games (") != std::string::npos);
}

TEST_CASE("job faults: train killed mid-run writes nothing; the rerun writes the same bytes",
          "[.faults][trainer]") {
  TempDir dir;
  REQUIRE(run(selfplay_args(dir / "data.samples", 120)).code == 0);
  auto train = [&](const std::string& out) {
    return std::vector<std::string>{
        "train",    "--variant", "english",   "--data", dir / "data.samples", "--out", out,
        "--epochs", "300",       "--threads", "2"};
  };
  const auto reference = run(train(dir / "reference.weights"));
  INFO(reference.out << reference.err);
  REQUIRE(reference.code == 0);
  const std::string out = dir / "run.weights";
  kill_when(command(train(out)), [](const std::string& stdout_text, const std::string&) {
    return stdout_text.find("epoch=20 ") != std::string::npos;
  });
  CHECK_FALSE(fs::exists(out));
  CHECK(leftovers(dir.path.string()).empty());
  CHECK(run(train(out)).code == 0);
  CHECK(same_bytes(out, dir / "reference.weights"));
}

TEST_CASE("job faults: book build killed mid-run resumes from its progress file, the same bytes",
          "[.faults][book]") {
  TempDir dir;
  const auto reference = run(book_args(dir / "reference.book"));
  INFO(reference.out << reference.err);
  REQUIRE(reference.code == 0);
  CHECK_FALSE(fs::exists(dir / "reference.book.build"));
  const std::string out = dir / "run.book";
  kill_when(command(book_args(out)), [&](const std::string&, const std::string& err) {
    return progress(err, " positions") >= 25;
  });
  CHECK(fs::exists(out + ".build"));
  const auto resumed = run(book_args(out));
  INFO(resumed.out << resumed.err);
  CHECK(resumed.code == 0);
  CHECK_THAT(resumed.err, Catch::Contains("book build: resumed " + out + ".build: "));
  CHECK_THAT(resumed.out, Catch::Contains("analysed=60 positions=60 "));
  CHECK(same_bytes(out, dir / "reference.book"));
  CHECK_FALSE(fs::exists(out + ".build"));
  CHECK(leftovers(dir.path.string()).empty());
  // Once done, the same command is a new build that extends the book.
  const auto again = run(book_args(out));
  CHECK(again.code == 0);
  CHECK_THAT(again.out, Catch::Contains("analysed=60 positions=120 "));
}

TEST_CASE("job faults: egdb build killed mid-run: the rerun writes the same files",
          "[.faults][egdb]") {
  TempDir reference, dir;
  auto build = [](const std::string& d) {
    return std::vector<std::string>{"egdb", "build", "--variant", "english", "--pieces",
                                    "4",    "--dir", d,           "--quiet"};
  };
  REQUIRE(run(build(reference.path.string())).code == 0);
  kill_when(command(build(dir.path.string())), [](const std::string& out, const std::string&) {
    return test::count_of(out, "\n") >= 13;  // the heading and a dozen slices
  });
  const auto resumed = run(build(dir.path.string()));
  INFO(resumed.out << resumed.err);
  CHECK(resumed.code == 0);
  CHECK_THAT(resumed.out, Catch::Contains("(exists)"));
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(reference.path)) {
    ++files;
    INFO(e.path().filename());
    CHECK(same_bytes(e.path().string(), (dir.path / e.path().filename()).string()));
  }
  CHECK(files == 41);
}

TEST_CASE("disk full: selfplay stops with the reason; its journal resumes where there is room",
          "[.faults][disk][selfplay]") {
  TempDir dir;
  REQUIRE(run(selfplay_args(dir / "reference.samples", 40)).code == 0);
  test::SmallDisk disk(16 * 1024);
  const std::string out = disk.path("run.samples");
  const auto full = test::run_program(disk.wrap(command(selfplay_args(out, 40))), "", 600s);
  INFO(full.out << full.err);
  CHECK(full.code == 1);
  CHECK_THAT(full.err,
             Catch::Contains("selfplay: cannot write " + out + ".journal: " + disk.reason()));
  CHECK_THAT(full.err, Catch::Contains("the same command resumes the run"));
  CHECK_FALSE(fs::exists(out));
  CHECK(leftovers(disk.dir()).empty());
  // The journal holds whole games: moved where there is room, the run resumes from it.
  fs::copy_file(out + ".journal", dir / "run.samples.journal");
  const auto resumed = run(selfplay_args(dir / "run.samples", 40));
  INFO(resumed.out << resumed.err);
  CHECK(resumed.code == 0);
  CHECK_THAT(resumed.err, Catch::Contains("selfplay: resuming from "));
  CHECK(same_bytes(dir / "run.samples", dir / "reference.samples"));
}

TEST_CASE("disk full: book build keeps the last whole book, and resumes where there is room",
          "[.faults][disk][book]") {
  TempDir dir;
  auto args = [](const std::string& out) {
    return std::vector<std::string>{"book",    "build", "--variant",   "international",
                                    "--out",   out,     "--positions", "120",
                                    "--depth", "2",     "--tt-size",   "16"};
  };
  REQUIRE(run(args(dir / "reference.book")).code == 0);
  test::SmallDisk disk(16 * 1024);
  const std::string out = disk.path("run.book");
  const auto full = test::run_program(disk.wrap(command(args(out))), "", 600s);
  INFO(full.out << full.err);
  CHECK(full.code == 1);
  CHECK_THAT(full.err, Catch::Contains("book build: cannot write " + out + ": " + disk.reason() +
                                       " (nothing written under that name)"));
  CHECK(leftovers(disk.dir()).empty());
  const auto shown = run({"book", "show", "--variant", "international", out});
  INFO(shown.out << shown.err);
  CHECK(shown.code == 0);  // the last book saved whole
  fs::copy_file(out, dir / "run.book");
  fs::copy_file(out + ".build", dir / "run.book.build");
  const auto resumed = run(args(dir / "run.book"));
  INFO(resumed.out << resumed.err);
  CHECK(resumed.code == 0);
  CHECK(same_bytes(dir / "run.book", dir / "reference.book"));
}

TEST_CASE("disk full: train and book merge say so and write nothing", "[.faults][disk][trainer]") {
  TempDir dir;
  REQUIRE(run(selfplay_args(dir / "data.samples", 40)).code == 0);
  test::SmallDisk disk(64 * 1024);  // the English weights take 236 KB
  const std::string weights = disk.path("w.weights");
  const auto train = test::run_program(
      disk.wrap(command({"train", "--variant", "english", "--data", dir / "data.samples", "--out",
                         weights, "--epochs", "2"})),
      "", 600s);
  INFO(train.out << train.err);
  CHECK(train.code == 1);
  CHECK_THAT(train.err, Catch::Contains("train: cannot write " + weights + ": " + disk.reason()));
  CHECK_FALSE(fs::exists(weights));
  // A book merge whose output does not fit, over an existing book it must not harm.
  // 1,000 positions: about 6,000 records, 140 KB, twice the disk whatever the evaluation (400
  // took 67 KB with one set of weights and 58 KB with the next).
  REQUIRE(run({"book", "build", "--variant", "international", "--out", dir / "a.book",
               "--positions", "1000", "--depth", "1", "--tt-size", "14"})
              .code == 0);
  REQUIRE(fs::file_size(dir / "a.book") > 2 * 64 * 1024);
  const std::string merged = disk.path("m.book");
  REQUIRE(run({"book", "build", "--variant", "international", "--out", merged, "--positions", "3",
               "--depth", "1", "--tt-size", "14"})
              .code == 0);
  const std::string before = test::read_file(merged);
  const auto merge =
      test::run_program(disk.wrap(command({"book", "merge", "--variant", "international", "--out",
                                           merged, dir / "a.book"})),
                        "", 600s);
  INFO(merge.out << merge.err);
  CHECK(merge.code == 1);
  CHECK_THAT(merge.err, Catch::Contains("cannot write " + merged + ": " + disk.reason()));
  CHECK(test::read_file(merged) == before);  // the old book, untouched
  CHECK(leftovers(disk.dir()).empty());
}

TEST_CASE("disk full: egdb build stops with the reason; every slice file left is whole",
          "[.faults][disk][egdb]") {
  test::SmallDisk disk(16 * 1024);  // English up to 3 pieces take 218 KB, some slices 30 KB
  const auto full =
      test::run_program(disk.wrap(command({"egdb", "build", "--variant", "english", "--pieces", "3",
                                           "--dir", disk.dir(), "--quiet"})),
                        "", 600s);
  INFO(full.out << full.err);
  CHECK(full.code != 0);
  CHECK_THAT(full.err, Catch::Contains("cannot write " + disk.dir() + "/english-"));
  CHECK_THAT(full.err, Catch::Contains(disk.reason()));
  CHECK(leftovers(disk.dir()).empty());
  const auto info = run({"egdb", "info", "--variant", "english", "--dir", disk.dir()});
  INFO(info.out << info.err);
  CHECK(info.code == 0);  // no slice rejected: the ones written are whole
  CHECK(info.out.find("rejected") == std::string::npos);
}

TEST_CASE("disk full: a DXP follower's PDN directory fills up; the games go on, the files whole",
          "[.faults][disk][dxp]") {
  test::SmallDisk disk(8 * 1024);
  // A file-size limit does not fill a directory of small files: this one needs the tmpfs.
  if (!disk.tmpfs()) {
    WARN("skipped: a full directory needs a tmpfs (the tests as root)");
    return;
  }
  const auto follower_argv =
      disk.wrap(command({"dxp", "--listen", "127.0.0.1:0", "--variant", "international", "--level",
                         "beginner", "--hash", "16", "--pdn", disk.dir()}));
  tools::ChildOptions options;
  options.error_output = tools::ErrorOutput::File;
  const std::string err = disk.dir() + "/../" + fs::path(disk.dir()).filename().string() + ".err";
  options.error_file = err;
  auto follower = test::spawn(follower_argv, options);
  std::string line;
  REQUIRE(follower->read_line_containing("listening on ", line, 30s) == ChildProcess::Read::Ok);
  const std::string port = line.substr(line.rfind(':') + 1);
  const auto initiator =
      run({"dxp", "--connect", "127.0.0.1:" + port, "--initiator", "--games", "16", "--time", "1",
           "--variant", "international", "--level", "beginner", "--hash", "16"});
  INFO(initiator.out << initiator.err);
  CHECK(initiator.code == 0);  // every game played
  CHECK_THAT(initiator.out, Catch::Contains("games=16 ") && Catch::EndsWith("complete\n"));
  follower->signal(SIGTERM);
  CHECK(follower->wait(30s) == 0);
  const std::string errors = test::read_file(err);
  fs::remove(err);
  INFO(errors);
  CHECK_THAT(errors, Catch::Contains("dxp: cannot write " + disk.dir() + "/dxp-"));
  CHECK_THAT(errors, Catch::Contains(disk.reason()));
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(disk.dir())) {
    ++files;
    INFO(e.path());
    CHECK(test::check_pdn_file(Variant::International, test::read_file(e.path().string())) == "");
  }
  CHECK(files >= 1);
  CHECK(files < 16);
}

TEST_CASE("disk full: saving a console game says so and leaves no file", "[.faults][disk][play]") {
  test::SmallDisk disk(4096);
  // A file-size limit cannot make a game of a few hundred bytes too large: the full disk needs
  // the tmpfs, filled to its last page first.
  if (!disk.tmpfs()) {
    WARN("skipped: a full disk needs a tmpfs (the tests as root)");
    return;
  }
  { std::ofstream(disk.path("filler")) << std::string(4096, 'x'); }
  const std::string pdn = disk.path("game.pdn");
  const test::TsuruRun session =
      test::run_tsuru({"play", "--variant", "english", "--level", "beginner"},
                      "11-15\nsave " + pdn + "\nquit\n", 120s);
  INFO(session.out << session.err);
  CHECK(session.code == 0);
  CHECK_THAT(session.out, Catch::Contains("Cannot write '" + pdn + "': cannot write " + pdn + ": " +
                                          disk.reason()));
  CHECK_FALSE(fs::exists(pdn));
  CHECK(leftovers(disk.dir()).empty());
}
