// Self-play training data (tools/train/selfplay.hpp, `tsuru selfplay`): samples that are the
// quiet positions of the game record with its result, the same bytes from the same seed, from
// shards merged and from several threads, and a merge that refuses what it cannot join.
#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/match/openings.hpp"
#include "tools/train/selfplay.hpp"

using namespace tsuru;
using namespace std::chrono_literals;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("tsuru_selfplay_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// Tiny budgets: a game takes milliseconds.
train::SelfplayOptions options(Variant v, std::uint32_t games, std::uint64_t seed = 7) {
  train::SelfplayOptions o;
  o.variant = v;
  o.games = games;
  o.nodes = 300;
  o.seed = seed;
  o.random_plies = 8;
  o.random_margin = 20;
  o.tt_log2 = 12;
  const auto openings = v == Variant::English ? match::ballot_openings(v, seed)
                                              : match::random_openings(v, 4, seed, int(games));
  REQUIRE(openings.ok());
  std::vector<Game> games_from;
  for (const match::Opening& op : *openings) games_from.push_back(match::opening_game(v, op));
  o.opening = [games_from](std::uint32_t g) { return games_from[g % games_from.size()]; };
  REQUIRE(train::check_options(o).ok());
  return o;
}

std::vector<std::uint8_t> bytes_of(Variant v, const train::SelfplayRun& run) {
  return train::encode_samples(v, run.samples);
}

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

test::TsuruRun selfplay(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"selfplay"};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_tsuru(argv, "", 120s);
}

}  // namespace

TEST_CASE("self-play samples are the game's quiet positions with its result", "[selfplay-data]") {
  for (Variant v : {Variant::English, Variant::International, Variant::Russian}) {
    const train::SelfplayOptions o = options(v, 3);
    TranspositionTable tt(o.tt_log2);
    for (std::uint32_t g = 0; g < 3; ++g) {
      const train::PlayedGame p = train::play_game(o, g, tt);
      INFO(info(v).name << " game " << g << ": " << p.game.moves().size() << " plies");
      const GameResult r = p.game.result();
      REQUIRE(r.outcome != Outcome::Ongoing);
      CHECK(p.summary.outcome == r.outcome);
      CHECK_FALSE(p.summary.adjudicated);
      CHECK(p.summary.plies == static_cast<int>(p.game.moves().size()));
      // The record replays from its start, every move legal.
      Game replay(v, p.game.start());
      for (const Move& m : p.game.moves()) REQUIRE(replay.play(m));
      CHECK(replay.result().outcome == r.outcome);

      // Exactly the quiet positions from the engine's first move to the last one.
      const std::size_t opening = o.opening(g).moves().size();
      std::vector<std::size_t> quiet;
      for (std::size_t i = opening; i + 1 < p.game.positions().size(); ++i)
        if (!has_capture(v, p.game.positions()[i])) quiet.push_back(i);
      REQUIRE(p.samples.size() == quiet.size());
      REQUIRE_FALSE(quiet.empty());
      int scored = 0;
      for (std::size_t k = 0; k < quiet.size(); ++k) {
        const train::Sample& s = p.samples[k];
        const Position& pos = p.game.positions()[quiet[k]];
        CHECK(s.game == g);
        CHECK(s.ply == quiet[k]);
        CHECK(s.white == pos.pieces(Side::White));
        CHECK(s.black == pos.pieces(Side::Black));
        CHECK(s.kings == pos.kings());
        CHECK(s.turn == pos.turn());
        CHECK_FALSE(has_capture(v, s.position()));
        CHECK_FALSE(legal_moves(v, s.position()).empty());
        const int expected = r.outcome == Outcome::Draw                                     ? 0
                             : (r.outcome == Outcome::WhiteWins) == (s.turn == Side::White) ? 1
                                                                                            : -1;
        CHECK(s.result == expected);
        if (s.score != train::kNoScore) {
          CHECK(std::abs(int{s.score}) <= kWin);
          ++scored;
        }
      }
      CHECK(scored > 0);
      // The file format takes them back unchanged.
      const auto decoded = train::decode_samples(v, train::encode_samples(v, p.samples));
      REQUIRE(decoded.ok());
      CHECK(*decoded == p.samples);
    }
  }
}

TEST_CASE("self-play: the same seed gives the same bytes, another seed other games",
          "[selfplay-data]") {
  const Variant v = Variant::International;
  const auto one = bytes_of(v, train::play_games(options(v, 4, 11)));
  const auto again = bytes_of(v, train::play_games(options(v, 4, 11)));
  const auto other = bytes_of(v, train::play_games(options(v, 4, 12)));
  CHECK(one == again);
  CHECK(one != other);
  // English from the ballots: the seed's near-equal choices alone make the games differ.
  const Variant e = Variant::English;
  train::SelfplayOptions a = options(e, 2, 5), b = a;
  b.seed = 6;
  CHECK(bytes_of(e, train::play_games(a)) == bytes_of(e, train::play_games(a)));
  CHECK(bytes_of(e, train::play_games(a)) != bytes_of(e, train::play_games(b)));
}

TEST_CASE("self-play: shards merged and several threads give the single run's samples",
          "[selfplay-data]") {
  for (Variant v : {Variant::English, Variant::International}) {
    INFO(info(v).name);
    const train::SelfplayOptions o = options(v, 7);
    const train::SelfplayRun whole = train::play_games(o);
    REQUIRE(whole.games.size() == 7);
    CHECK_FALSE(whole.stopped);
    std::vector<std::vector<train::Sample>> parts;
    std::set<std::uint32_t> seen;
    for (int shard = 0; shard < 3; ++shard) {
      train::SelfplayOptions s = o;
      s.shard = shard;
      s.shards = 3;
      const train::SelfplayRun run = train::play_games(s);
      for (const train::GameSummary& g : run.games) {
        CHECK(g.index % 3 == static_cast<std::uint32_t>(shard));
        CHECK(seen.insert(g.index).second);
      }
      parts.push_back(run.samples);
    }
    CHECK(seen.size() == 7);
    // Given in any order.
    std::swap(parts[0], parts[2]);
    const auto merged = train::merge_runs(parts);
    REQUIRE(merged.ok());
    CHECK(train::encode_samples(v, *merged) == bytes_of(v, whole));

    train::SelfplayOptions threaded = o;
    threaded.threads = 2;
    CHECK(bytes_of(v, train::play_games(threaded)) == bytes_of(v, whole));

    // A shard given twice is refused.
    parts.push_back(parts[1]);
    const auto twice = train::merge_runs(parts);
    REQUIRE_FALSE(twice.ok());
    CHECK_THAT(twice.error(), Catch::Contains("same shard given twice"));
  }
}

TEST_CASE("self-play: a stop request ends the run after the games in progress", "[selfplay-data]") {
  const train::SelfplayOptions o = options(Variant::English, 5);
  std::atomic<bool> stop{false};
  const train::SelfplayRun run = train::play_games(
      o, [&](const train::SelfplayProgress& p) { stop.store(p.games_done >= 2); }, &stop);
  CHECK(run.stopped);
  REQUIRE(run.games.size() == 2);
  // Those two are the single run's first two games.
  const train::SelfplayRun whole = train::play_games(o);
  std::vector<train::Sample> first_two;
  for (const train::Sample& s : whole.samples)
    if (s.game < 2) first_two.push_back(s);
  CHECK(run.samples == first_two);
}

TEST_CASE("self-play: bad options are refused with the reason", "[selfplay-data]") {
  train::SelfplayOptions o;
  o.games = 1;
  CHECK_THAT(train::check_options(o).error(), Catch::Contains("node or depth limit"));
  o.nodes = 100;
  CHECK(train::check_options(o).ok());
  o.shard = 3;
  o.shards = 3;
  CHECK_THAT(train::check_options(o).error(), Catch::Contains("shard"));
  o.shard = 0;
  o.opening = [](std::uint32_t) { return Game(Variant::International); };
  CHECK_THAT(train::check_options(o).error(), Catch::Contains("another rule set"));
  CHECK(train::shard_games(10, 1, 3) == std::vector<std::uint32_t>{1, 4, 7});
  CHECK(train::shard_games(2, 2, 3).empty());
}

TEST_CASE("tsuru selfplay: shard files merge into the single run's file", "[selfplay-data]") {
  const std::string whole = temp_path("whole.samples");
  const std::string merged = temp_path("merged.samples");
  std::vector<std::string> shards;
  const std::vector<std::string> common{
      "--variant", "international", "--games", "5",         "--nodes",
      "200",       "--seed",        "3",       "--tt-size", "12"};
  auto args = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = common;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const test::TsuruRun one = selfplay(args({"--out", whole}));
  INFO(one.err);
  REQUIRE(one.code == 0);
  CHECK_THAT(one.out, Catch::Contains("games=5 "));
  CHECK_THAT(one.err, Catch::Contains("5/5 games"));
  CHECK_THAT(one.err, Catch::Contains("games/s"));
  for (int i = 0; i < 2; ++i) {
    shards.push_back(temp_path("shard" + std::to_string(i) + ".samples"));
    const test::TsuruRun r = selfplay(
        args({"--shard", std::to_string(i) + "/2", "--threads", "2", "--out", shards.back()}));
    INFO(r.err);
    REQUIRE(r.code == 0);
  }
  const test::TsuruRun m = selfplay({"merge", "--out", merged, shards[1], shards[0]});
  INFO(m.err);
  REQUIRE(m.code == 0);
  CHECK_THAT(m.out, Catch::Contains("games=5 "));
  CHECK(file_bytes(merged) == file_bytes(whole));

  // Overwriting its own kind of file is fine; anything else needs --force.
  CHECK(selfplay(args({"--out", whole})).code == 0);
  const std::string notes = temp_path("notes.txt");
  std::ofstream(notes) << "not samples\n";
  const test::TsuruRun refused = selfplay({"merge", "--out", notes, shards[0]});
  CHECK(refused.code == 1);
  CHECK_THAT(refused.err, Catch::Contains("will not overwrite"));
  CHECK(test::read_file(notes) == "not samples\n");
  CHECK(selfplay(args({"--out", notes})).code == 1);
  CHECK(test::read_file(notes) == "not samples\n");
  CHECK(selfplay({"merge", "--force", "--out", notes, shards[0]}).code == 0);
  CHECK(file_bytes(notes) == file_bytes(shards[0]));

  for (const std::string& f : {whole, merged, notes, shards[0], shards[1]})
    std::filesystem::remove(f);
}

TEST_CASE("tsuru selfplay merge: mixed rule sets, damaged files and repeats are refused",
          "[selfplay-data]") {
  const std::string english = temp_path("english.samples");
  const std::string intl = temp_path("intl.samples");
  const std::string out = temp_path("out.samples");
  REQUIRE(
      selfplay({"--variant", "english", "--games", "2", "--nodes", "200", "--out", english}).code ==
      0);
  REQUIRE(selfplay({"--variant", "international", "--games", "2", "--nodes", "200", "--out", intl})
              .code == 0);

  const test::TsuruRun mixed = selfplay({"merge", "--out", out, english, intl});
  CHECK(mixed.code == 1);
  CHECK_THAT(mixed.err, Catch::Contains("rule set 'international', not 'english'"));
  CHECK_FALSE(std::filesystem::exists(out));

  const test::TsuruRun repeated = selfplay({"merge", "--out", out, english, english});
  CHECK(repeated.code == 1);
  CHECK_THAT(repeated.err, Catch::Contains("same shard given twice"));

  // One byte of a record changed: the checksum gives it away.
  std::vector<std::uint8_t> bytes = file_bytes(english);
  REQUIRE(bytes.size() > train::kSampleHeaderSize + 40);
  bytes[train::kSampleHeaderSize + 30] ^= 1;  // a score
  const std::string damaged = temp_path("damaged.samples");
  std::ofstream(damaged, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  const test::TsuruRun bad = selfplay({"merge", "--out", out, damaged});
  CHECK(bad.code == 1);
  CHECK_THAT(bad.err, Catch::Contains("checksum"));
  // Cut short.
  std::filesystem::resize_file(damaged, bytes.size() - 5);
  const test::TsuruRun cut = selfplay({"merge", "--out", out, english, damaged});
  CHECK(cut.code == 1);
  CHECK_THAT(cut.err, Catch::Contains("truncated"));
  CHECK_FALSE(std::filesystem::exists(out));

  // Bad options.
  CHECK(selfplay({"--games", "2", "--out", out}).code == 2);  // no limit
  CHECK(selfplay({"--games", "2", "--nodes", "100", "--shard", "2/2", "--out", out}).code == 2);
  CHECK(selfplay({"--variant", "international", "--games", "2", "--nodes", "100", "--openings",
                  "ballots", "--out", out})
            .code == 2);
  CHECK(selfplay({"merge", "--out", out}).code == 2);
  CHECK_FALSE(std::filesystem::exists(out));

  for (const std::string& f : {english, intl, damaged}) std::filesystem::remove(f);
}

TEST_CASE("self-play with a depth limit per move", "[selfplay-data]") {
  train::SelfplayOptions o = options(Variant::Brazilian, 2);
  o.nodes = 0;
  o.depth = 3;
  const train::SelfplayRun run = train::play_games(o);
  REQUIRE(run.games.size() == 2);
  REQUIRE_FALSE(run.samples.empty());
  for (const train::Sample& s : run.samples) CHECK_FALSE(has_capture(o.variant, s.position()));
  // Depth 3 is always reached: every position with a choice has a score.
  std::size_t scored = 0;
  for (const train::Sample& s : run.samples) scored += s.score != train::kNoScore ? 1 : 0;
  CHECK(scored * 10 >= run.samples.size() * 8);
  CHECK(train::encode_samples(o.variant, run.samples) ==
        train::encode_samples(o.variant, train::play_games(o).samples));
}

TEST_CASE("self-play: the games of the evaluation chosen", "[selfplay-data]") {
  // The trained English weights play other games than the classic evaluation (the data of one
  // evaluation trains the next).
  const Variant v = Variant::English;
  train::SelfplayOptions classic = options(v, 4, 11);
  train::SelfplayOptions trained = classic;
  trained.evaluation = eval::builtin_weights(v);
  REQUIRE(trained.evaluation != nullptr);
  CHECK(bytes_of(v, train::play_games(trained)) == bytes_of(v, train::play_games(trained)));
  CHECK(bytes_of(v, train::play_games(trained)) != bytes_of(v, train::play_games(classic)));
  const auto bad = selfplay({"--variant", "english", "--games", "1", "--nodes", "100",
                             "--eval-file", "/nonexistent.weights", "--out", "/tmp/unused"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--eval-file"));
}
