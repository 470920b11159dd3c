// The self-play journal (tools/train/sample_journal.hpp) and the hooks of play_games it rests
// on: games read back whole, a torn last record cut off, a journal of another run refused, and
// a run that skips the games already played and hands each finished game over.
#include <unistd.h>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "tools/train/sample_journal.hpp"
#include "tools/train/selfplay.hpp"

using namespace tsuru;
using namespace tsuru::train;
namespace fs = std::filesystem;

namespace {

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("tsuru_journal_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::vector<Sample> samples_of(std::uint32_t game, int n) {
  std::vector<Sample> out;
  for (int i = 0; i < n; ++i) {
    Sample s;
    s.white = bit(static_cast<Square>(i % 12));
    s.black = bit(static_cast<Square>(20 + i % 12));
    s.game = game;
    s.ply = static_cast<std::uint16_t>(i);
    s.score = static_cast<std::int16_t>(i * 3 - 7);
    s.turn = i % 2 ? Side::Black : Side::White;
    s.result = static_cast<std::int8_t>(i % 3 - 1);
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("self-play journal: games read back, a torn record cut off, another run refused",
          "[selfplay-data][journal]") {
  const std::string path = temp_path("a.journal");
  fs::remove(path);
  const Variant v = Variant::English;
  {
    auto j = SampleJournal::open(path, v, 42);
    REQUIRE(j.ok());
    CHECK((*j)->recovered().empty());
    REQUIRE((*j)->append(7, samples_of(7, 5)).ok());
    REQUIRE((*j)->append(3, samples_of(3, 0)).ok());  // a game without a quiet position
    REQUIRE((*j)->append(9, samples_of(9, 2)).ok());
  }
  const auto whole = fs::file_size(path);
  {
    auto j = SampleJournal::open(path, v, 42);
    REQUIRE(j.ok());
    REQUIRE((*j)->recovered().size() == 3);
    CHECK((*j)->recovered()[0].index == 7);
    CHECK((*j)->recovered()[0].samples == samples_of(7, 5));
    CHECK((*j)->recovered()[1].index == 3);
    CHECK((*j)->recovered()[1].samples.empty());
    CHECK((*j)->recovered()[2].samples == samples_of(9, 2));
    CHECK((*j)->cut_off() == 0);
  }
  // Killed while appending: half a record at the end is cut off, the games before are kept,
  // and appending goes on after them.
  fs::resize_file(path, whole - 30);
  {
    auto j = SampleJournal::open(path, v, 42);
    REQUIRE(j.ok());
    REQUIRE((*j)->recovered().size() == 2);
    CHECK((*j)->cut_off() > 0);
    REQUIRE((*j)->append(11, samples_of(11, 1)).ok());
  }
  {
    auto j = SampleJournal::open(path, v, 42);
    REQUIRE(j.ok());
    REQUIRE((*j)->recovered().size() == 3);
    CHECK((*j)->recovered()[2].index == 11);
    CHECK((*j)->cut_off() == 0);
  }
  // A damaged record (a flipped byte in its samples) ends the journal there too.
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(path) - 3));
    f.put('\x55');
  }
  {
    auto j = SampleJournal::open(path, v, 42);
    REQUIRE(j.ok());
    CHECK((*j)->recovered().size() == 2);
  }
  // Another run's journal (the fingerprint: the rule set among the options), and a file that
  // is no journal.
  const auto other = SampleJournal::open(path, v, 43);
  REQUIRE_FALSE(other.ok());
  CHECK_THAT(other.error(), Catch::Contains("is the journal of a run with other options"));
  std::ofstream(path, std::ios::trunc) << "not a journal at all, longer than a header is";
  const auto foreign = SampleJournal::open(path, v, 42);
  REQUIRE_FALSE(foreign.ok());
  CHECK_THAT(foreign.error(), Catch::Contains("is not a Tsuru self-play journal"));
  // An empty file (killed before the header was written) starts afresh.
  std::ofstream(path, std::ios::trunc).close();
  {
    auto j = SampleJournal::open(path, v, 42);
    REQUIRE(j.ok());
    CHECK((*j)->recovered().empty());
    (*j)->remove();
  }
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("self-play: skipped games are not played, each finished game is handed over",
          "[selfplay-data][journal]") {
  SelfplayOptions o;
  o.variant = Variant::English;
  o.games = 6;
  o.depth = 2;
  o.threads = 2;
  const SelfplayRun all = play_games(o);
  REQUIRE(all.games.size() == 6);
  o.skip = [](std::uint32_t g) { return g % 3 == 1; };
  std::vector<std::uint32_t> handed;
  const SelfplayRun some = play_games(o, {}, nullptr, [&](const PlayedGame& g) {
    handed.push_back(g.summary.index);
    return true;
  });
  REQUIRE(some.games.size() == 4);
  std::sort(handed.begin(), handed.end());
  CHECK(handed == std::vector<std::uint32_t>{0, 2, 3, 5});
  // The games played are those of the whole run, sample for sample.
  std::vector<Sample> expected;
  for (const Sample& s : all.samples)
    if (s.game % 3 != 1) expected.push_back(s);
  CHECK(some.samples == expected);
  // A refusal stops the run: no game starts after it.
  o.skip = {};
  o.threads = 1;
  int calls = 0;
  const SelfplayRun stopped =
      play_games(o, {}, nullptr, [&](const PlayedGame&) { return ++calls < 2; });
  CHECK(calls == 2);
  CHECK(stopped.games.size() == 2);
  CHECK(stopped.stopped);
}
