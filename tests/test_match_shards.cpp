// A match split into shards: game pairs and the SPRT on them against values computed apart,
// the shards' partition of the schedule, the results file (written, read, refused when damaged
// or foreign), and `tsuru match --shard I/N --results FILE` + `tsuru match merge` against one
// run of every game with real engines.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include <catch2/catch.hpp>

#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/match/pairs.hpp"
#include "tools/match/results_file.hpp"
#include "tools/match/shard.hpp"

using namespace tsuru;
using namespace tsuru::match;
using Catch::Detail::Approx;
namespace fs = std::filesystem;

namespace {

const std::string kBinary = TSURU_BINARY;

fs::path temp_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("tsuru_shards_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

PairTally tally(std::array<int, 5> counts) {
  PairTally t;
  t.counts = counts;
  return t;
}

// What follows the progress lines: the table, the Elo, pairs and SPRT lines, the result line.
std::string report_of(const std::string& out) {
  const std::size_t at = out.find("\nengine ");
  return at == std::string::npos ? std::string() : out.substr(at);
}

MatchResults sample_results() {
  MatchResults r;
  r.run = {{"variant", "english"}, {"games", "8"}, {"seed", "1"}, {"label1", "1: a"}};
  r.shard = {1, 2};
  r.games = {{5, Side::Black, Outcome::BlackWins, "White has no legal move", "ballot 1"},
             {6, Side::White, Outcome::Draw, "threefold repetition", "ballot 1"},
             {7, Side::Black, Outcome::WhiteWins, "Black forfeits: a\tb", "ballot 2"},
             {8, Side::White, Outcome::WhiteWins, "Black has no legal move", "ballot 2"}};
  return r;
}

}  // namespace

TEST_CASE("Game pairs: the pentanomial tally", "[match][pairs]") {
  // Engine 1's results by game number; 1+2, 3+4, ... are pairs; 9 has no partner, and 5's
  // partner (6) is missing.
  const PairTally t = tally_pairs(
      {{3, 1}, {1, 1}, {2, 1}, {4, -1}, {5, 0}, {7, 0}, {8, -1}, {9, 1}, {11, -1}, {12, -1}});
  CHECK(t.counts == std::array<int, 5>{1, 1, 1, 0, 1});
  CHECK(t.pairs() == 4);
  CHECK(tally_pairs({}).pairs() == 0);
  CHECK(tally_pairs({{2, 1}, {3, 1}}).pairs() == 0);  // 2 and 3 are not a pair
}

TEST_CASE("Game pairs: SPRT log-likelihood ratio, computed apart", "[match][pairs]") {
  std::string error;
  const auto p = parse_sprt("0,50,0.05,0.05", error);
  REQUIRE(p.has_value());
  CHECK(p->lower_bound() == Approx(-2.944439));
  CHECK(p->upper_bound() == Approx(2.944439));
  // The reference values come from the weighted sample written out (x = 0, .25, .5, .75, 1
  // with weight count + prior, prior 0.75 * (1, 2, 3, 2, 1) / 9), mean and E[x^2] - mean^2:
  // counts 1 2 5 4 3 -> N = 15.75, s = 0.595238, var = 0.082200; s0 = 0.5, s1 = 0.571463;
  // LLR = 15.75 * 0.071463 * (1.190476 - 1.071463) / (2 * 0.082200) = 0.814813.
  CHECK(sprt_llr(tally({1, 2, 5, 4, 3}), *p) == Approx(0.814813).epsilon(1e-5));
  CHECK(sprt_decision(tally({1, 2, 5, 4, 3}), *p) == SprtDecision::Continue);
  // Ten even pairs: var = 0.005814, LLR -4.721400 (H0); the single-game test gave the same
  // for twenty draws, its prior being the same one and a half games.
  CHECK(sprt_llr(tally({0, 0, 10, 0, 0}), *p) == Approx(-4.721400).epsilon(1e-5));
  CHECK(sprt_decision(tally({0, 0, 10, 0, 0}), *p) == SprtDecision::AcceptH0);
  CHECK(sprt_llr(tally({0, 0, 0, 0, 10}), *p) == Approx(14.967398).epsilon(1e-5));
  CHECK(sprt_decision(tally({0, 0, 0, 0, 10}), *p) == SprtDecision::AcceptH1);
  CHECK(sprt_llr(tally({10, 0, 0, 0, 0}), *p) == Approx(-17.458444).epsilon(1e-5));
  CHECK(sprt_llr(tally({30, 40, 100, 60, 20}), *p) == Approx(-8.534327).epsilon(1e-5));
  CHECK(sprt_llr(tally({0, 1, 0, 0, 0}), *p) == Approx(-0.437754).epsilon(1e-5));
  CHECK(sprt_llr(PairTally{}, *p) == 0);
  // A symmetric hypothesis pair gives LLR 0 at an even score.
  const auto sym = parse_sprt("-10,10,0.05,0.05", error);
  REQUIRE(sym.has_value());
  CHECK(sprt_llr(tally({3, 4, 10, 4, 3}), *sym) == Approx(0).margin(1e-12));
  // Independent games: a pair's variance is half a game's, and the LLR of N pairs that of 2N
  // games. Pairs laid out as two independent games of p(win) = p(draw) = p(loss) = 1/3 would
  // fall, 900 of them (counts 100 200 300 200 100), against 600 wins, 600 draws and 600 losses
  // tested game by game (normal approximation) at 0,50, with its prior of half a win, a draw
  // and a loss: s = 0.5, var = 1/6, LLR = 1801.5 * 0.071463 * (1 - 1.071463) / (2 / 6) =
  // -27.600658. The pairs: N = 900.75, var = 1/12, the same.
  CHECK(sprt_llr(tally({100, 200, 300, 200, 100}), *p) == Approx(-27.600658).epsilon(1e-6));
}

TEST_CASE("Shards: consecutive pairs, a partition of the schedule", "[match][shards]") {
  for (const int games : {1, 2, 7, 8, 16, 157, 400}) {
    for (const int n : {1, 2, 3, 4, 7}) {
      INFO(games << " games, " << n << " shards");
      std::vector<int> all;
      for (int i = 0; i < n; ++i) {
        const std::vector<int> s = shard_games(games, {i, n});
        // Whole pairs: an even first game; every game's partner is there unless past the end.
        if (!s.empty()) CHECK(s.front() % 2 == 0);
        for (const int g : s) {
          const int partner = g ^ 1;
          if (partner < games) CHECK(std::count(s.begin(), s.end(), partner) == 1);
        }
        // Consecutive and after the shard before: the first k shards are the run's start.
        if (!s.empty()) CHECK(s.back() - s.front() + 1 == static_cast<int>(s.size()));
        if (!s.empty() && !all.empty()) CHECK(s.front() == all.back() + 1);
        all.insert(all.end(), s.begin(), s.end());
      }
      REQUIRE(static_cast<int>(all.size()) == games);
      for (int g = 0; g < games; ++g) CHECK(all[static_cast<std::size_t>(g)] == g);
    }
  }
  // Nearly equal: 8 pairs in 3 shards are 2, 3 and 3 pairs.
  CHECK(shard_games(16, {0, 3}).size() == 4);
  CHECK(shard_games(16, {1, 3}).size() == 6);
  CHECK(shard_games(16, {2, 3}).size() == 6);
  CHECK(shard_games(2, {0, 2}).empty());  // one pair for two shards

  const auto s = parse_shard("3/4");
  REQUIRE(s.has_value());
  CHECK(s->index == 3);
  CHECK(s->count == 4);
  for (const char* bad : {"", "4/4", "-1/4", "1/0", "1", "/4", "1/", "a/4", "1/4x", "1/2000000"}) {
    INFO(bad);
    CHECK_FALSE(parse_shard(bad).has_value());
  }
}

TEST_CASE("Results file: written and read back, atomically", "[match][shards]") {
  const fs::path dir = temp_dir("file");
  const MatchResults r = sample_results();
  const std::string path = (dir / "a.results").string();
  REQUIRE(check_results_output(path).empty());
  REQUIRE(write_results(path, r).empty());
  // Only the file: the temporary was renamed.
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  const auto back = read_results(path);
  REQUIRE(back.ok());
  CHECK(back->run == r.run);
  CHECK(back->shard.index == 1);
  CHECK(back->shard.count == 2);
  REQUIRE(back->games.size() == 4);
  CHECK(back->games[2].reason == "Black forfeits: a b");  // a tab would split the record
  CHECK(back->games[0].engine1_result() == 1);
  CHECK(back->games[1].engine1_result() == 0);
  CHECK(back->games[2].engine1_result() == -1);
  CHECK(back->games[3].engine1_result() == 1);
  // Written again over itself: a results file may be replaced.
  CHECK(check_results_output(path).empty());
  fs::remove_all(dir);
}

TEST_CASE("Results file: a damaged or foreign file is refused with the reason", "[match][shards]") {
  const std::string good = format_results(sample_results());
  struct Case {
    std::string text, message;
  };
  std::string flipped = good;
  flipped[flipped.find("threefold")] = 'T';
  std::string recounted = good;
  const std::vector<Case> cases = {
      {"", "not a match results file"},
      {"[Event \"Tsuru match\"]\n", "not a match results file"},
      {"tsuru match results 2\nend 0 checksum=0\n", "another version"},
      {good.substr(0, good.size() - 1), "truncated"},
      {good.substr(0, good.find("game\t7")), "truncated"},
      {flipped, "checksum does not match"},
  };
  for (const Case& c : cases) {
    INFO(c.message);
    const auto r = parse_results(c.text, "x.results");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find("x.results: ") == 0);
    CHECK(r.error().find(c.message) != std::string::npos);
  }
  // Records that do not hold, with a valid checksum: a game outside the shard, a bad count.
  MatchResults outside = sample_results();
  outside.games[0].number = 3;
  const auto r1 = parse_results(format_results(outside), "x.results");
  REQUIRE_FALSE(r1.ok());
  CHECK(r1.error().find("game 3 is not one of shard 1/2's") != std::string::npos);
  MatchResults no_games = sample_results();
  no_games.run = {{"variant", "english"}};
  const auto r2 = parse_results(format_results(no_games), "x.results");
  REQUIRE_FALSE(r2.ok());
  CHECK(r2.error().find("no run games=N") != std::string::npos);

  // A file of something else is not overwritten by --results.
  const fs::path dir = temp_dir("foreign");
  const std::string other = (dir / "notes.txt").string();
  std::ofstream(other) << "my notes\n";
  CHECK(check_results_output(other).find("will not overwrite") != std::string::npos);
  CHECK(check_results_output(dir.string()).find("is a directory") != std::string::npos);
  CHECK(check_results_output((dir / "no" / "x").string()).find("does not exist") !=
        std::string::npos);
  const auto missing = read_results((dir / "none.results").string());
  CHECK_FALSE(missing.ok());
  fs::remove_all(dir);
}

TEST_CASE("Results merge: other runs and overlapping shards are refused", "[match][shards]") {
  const MatchResults b = sample_results();
  MatchResults a = b;
  a.shard = {0, 2};
  a.games = {{1, Side::Black, Outcome::Draw, "r", "o"}, {2, Side::White, Outcome::Draw, "r", "o"}};
  const auto merged = merge_results({{"b", b}, {"a", a}});
  REQUIRE(merged.ok());
  REQUIRE(merged->games.size() == 6);
  CHECK(merged->games.front().number == 1);
  CHECK(merged->games.back().number == 8);

  const auto twice = merge_results({{"a", a}, {"b", b}, {"b2", b}});
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.error() == "game 5 is in both b and b2 (overlapping shards)");

  MatchResults other = a;
  other.run[2].second = "2";  // another seed
  const auto foreign = merge_results({{"a", a}, {"c", other}});
  REQUIRE_FALSE(foreign.ok());
  CHECK(foreign.error() == "c is from another run than a: 'seed=2' against 'seed=1'");
  MatchResults longer = a;
  longer.run.emplace_back("sprt", "0,5,0.05,0.05");
  CHECK(merge_results({{"a", a}, {"d", longer}})
            .error()
            .find("'sprt=0,5,0.05,0.05' against "
                  "'(nothing)'") != std::string::npos);
  CHECK_FALSE(merge_results({}).ok());
}

TEST_CASE("Results pool: runs of one test with other seeds, numbered one after another",
          "[match][shards]") {
  const MatchResults a = sample_results();  // seed 1, 8 games: games 5-8 (shard 1/2)
  MatchResults a0 = a;
  a0.shard = {0, 2};
  a0.games = {{1, Side::Black, Outcome::Draw, "r", "o"}, {2, Side::White, Outcome::Draw, "r", "o"}};
  MatchResults b = a;  // seed 2, 5 games (odd: its last pair is one game)
  b.run[1].second = "5";
  b.run[2].second = "2";
  b.shard = {0, 1};
  b.games = {{1, Side::Black, Outcome::WhiteWins, "r", "o"},
             {2, Side::White, Outcome::WhiteWins, "r", "o"},
             {5, Side::Black, Outcome::Draw, "r", "o"}};
  MatchResults c = b;  // seed 3, 4 games
  c.run[1].second = "4";
  c.run[2].second = "3";
  c.games = {{1, Side::Black, Outcome::Draw, "r", "o"}, {4, Side::White, Outcome::Draw, "r", "o"}};

  const auto pooled = pool_results({{"a", a}, {"b", b}, {"a0", a0}, {"c", c}});
  REQUIRE(pooled.ok());
  std::vector<int> numbers;
  for (const ResultGame& g : pooled->games) numbers.push_back(g.number);
  // Run a (games 1-8) first, then b after 8 games, c after 8 + 6 (5 rounded up to a pair).
  CHECK(numbers == std::vector<int>{1, 2, 5, 6, 7, 8, 9, 10, 13, 15, 18});
  CHECK(pooled->setting("games") == "18");
  CHECK(pooled->setting("seed") == "1,2,3");
  CHECK(pooled->setting("variant") == "english");
  // Pairs stay pairs: b's games 1 and 2 (one opening, both colours) are 9 and 10.
  CHECK(pooled->games[6].outcome == Outcome::WhiteWins);
  CHECK(pooled->games[7].outcome == Outcome::WhiteWins);

  MatchResults other = a;
  other.run[0].second = "international";
  CHECK(pool_results({{"a", a}, {"d", other}}).error() ==
        "d is from another test than a: 'variant=international' against 'variant=english'");
  MatchResults again = b;
  again.run[1].second = "6";  // the same seed with more games: the same openings again
  CHECK(pool_results({{"b", b}, {"e", again}}).error() ==
        "e and b are runs of one seed (2): their games would be the same games");
  CHECK(pool_results({{"a", a}, {"a2", a}}).error().find("overlapping shards") !=
        std::string::npos);
  CHECK_FALSE(pool_results({}).ok());
}

TEST_CASE("match --shard --results and match merge give the report of one run",
          "[match][shards][engines]") {
  const fs::path dir = temp_dir("engines");
  // The trained evaluation against the classic one at a fixed depth: one thread, a clear table
  // each game, so every game depends on its opening and colours alone. The SPRT's hypotheses are
  // close enough that ten games, however one-sided, cannot decide it and stop the run early.
  const std::vector<std::string> base = {"match",
                                         "--variant",
                                         "english",
                                         "--games",
                                         "10",
                                         "--depth",
                                         "3",
                                         "--engine",
                                         "hub:" + kBinary + " hub",
                                         "--engine",
                                         "hub:" + kBinary + " hub",
                                         "--param2",
                                         "eval-file=",
                                         "--seed",
                                         "5",
                                         "--sprt",
                                         "-10,10,0.01,0.01"};
  std::string error;
  const auto sprt = parse_sprt(base.back(), error);
  REQUIRE(sprt.has_value());
  CHECK(sprt_decision(tally({0, 0, 0, 0, 5}), *sprt) == SprtDecision::Continue);
  CHECK(sprt_decision(tally({5, 0, 0, 0, 0}), *sprt) == SprtDecision::Continue);
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const auto whole = test::run_tsuru(base);
  INFO(whole.out << whole.err);
  REQUIRE(whole.code == 0);
  // The result line ends the output, with the LLR of the pairs.
  CHECK(std::regex_search(
      whole.out,
      std::regex(R"(\nresult W=\d+ D=\d+ L=\d+ score=\S+ elo=\S+ ci95=\S+ llr=-?\d+\.\d\d\n$)")));
  CHECK(whole.out.find("game pairs by engine 1's points (0, 0.5, 1, 1.5, 2): ") !=
        std::string::npos);
  CHECK(whole.out.find("(5 pairs)") != std::string::npos);

  // Three shards (2, 1 and 2 pairs of the 5), merged in any order.
  std::vector<std::string> files;
  for (int i = 0; i < 3; ++i) {
    const std::string file = (dir / ("m." + std::to_string(i) + ".results")).string();
    const auto shard = test::run_tsuru(
        with({"--shard", std::to_string(i) + "/3", "--results", file, "--concurrency", "2"}));
    INFO(shard.out << shard.err);
    REQUIRE(shard.code == 0);
    CHECK(shard.out.find(", shard " + std::to_string(i) + "/3: games ") != std::string::npos);
    files.push_back(file);
  }
  const auto merged = test::run_tsuru({"match", "merge", files[2], files[0], files[1]});
  INFO(merged.out << merged.err);
  REQUIRE(merged.code == 0);
  CHECK(merged.out.find("match merge: 3 files, 10 of 10 games\n") == 0);
  CHECK_FALSE(report_of(whole.out).empty());
  CHECK(report_of(merged.out) == report_of(whole.out));

  // Two of the three: the games they hold, and how many are missing.
  const auto part = test::run_tsuru({"match", "merge", files[0], files[1]});
  CHECK(part.code == 0);
  CHECK(part.out.find("6 of 10 games (4 not in these files)") != std::string::npos);
  CHECK(part.out.find("(3 pairs)") != std::string::npos);

  // Refused: a file given twice, a damaged file, a shard of another run, a foreign file.
  const auto twice = test::run_tsuru({"match", "merge", files[0], files[1], files[0]});
  CHECK(twice.code == 1);
  CHECK(twice.err.find("overlapping shards") != std::string::npos);
  std::string text = test::read_file(files[1]);
  text[text.find("game\t") + 6] ^= 1;
  const std::string damaged = (dir / "damaged.results").string();
  std::ofstream(damaged, std::ios::binary) << text;
  const auto bad = test::run_tsuru({"match", "merge", files[0], damaged});
  CHECK(bad.code == 1);
  CHECK(bad.err.find("damaged.results: damaged") != std::string::npos);
  const std::string other = (dir / "other.results").string();
  std::vector<std::string> seed7 = with({"--shard", "2/3", "--results", other});
  *(std::find(seed7.begin(), seed7.end(), "--seed") + 1) = "7";
  REQUIRE(test::run_tsuru(seed7).code == 0);
  const auto foreign = test::run_tsuru({"match", "merge", files[0], files[1], other});
  CHECK(foreign.code == 1);
  CHECK(foreign.err.find("is from another run than " + files[0] + ": 'seed=7' against 'seed=5'") !=
        std::string::npos);
  const auto pdn = test::run_tsuru({"match", "merge", files[0], kBinary});
  CHECK(pdn.code == 1);
  CHECK(pdn.err.find("not a match results file") != std::string::npos);
  CHECK(test::run_tsuru({"match", "merge"}).code == 2);

  // A whole run with --results writes the file of all its games; two such runs of other seeds
  // pool into one report whose counts are their sums.
  const auto wdl = [](const std::string& out) {
    std::smatch m;
    REQUIRE(std::regex_search(out, m, std::regex(R"(\nresult W=(\d+) D=(\d+) L=(\d+))")));
    return std::array<int, 3>{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
  };
  const std::string run5 = (dir / "run5.results").string(), run7 = (dir / "run7.results").string();
  const auto first = test::run_tsuru(with({"--results", run5}));
  REQUIRE(first.code == 0);
  CHECK(report_of(first.out) == report_of(whole.out));
  std::vector<std::string> second_args = with({"--results", run7});
  *(std::find(second_args.begin(), second_args.end(), "--seed") + 1) = "7";
  const auto second = test::run_tsuru(second_args);
  REQUIRE(second.code == 0);
  const auto pooled = test::run_tsuru({"match", "merge", "--pool", run5, run7});
  INFO(pooled.out << pooled.err);
  REQUIRE(pooled.code == 0);
  // A run may stop early when its SPRT decides (seed 7 does with some searches), so the
  // pooled counts are those of the two runs' own reports.
  const auto a5 = wdl(first.out), a7 = wdl(second.out), sum = wdl(pooled.out);
  for (std::size_t k = 0; k < 3; ++k) CHECK(sum[k] == a5[k] + a7[k]);
  const int games5 = a5[0] + a5[1] + a5[2], games7 = a7[0] + a7[1] + a7[2];
  const int played = games5 + games7;
  CHECK(played >= 2);
  const std::string counted =
      std::to_string(played) + " of 20 games" +
      (played == 20 ? std::string("\n")
                    : " (" + std::to_string(20 - played) + " not in these files)");
  CHECK(pooled.out.find("match merge: 2 files (2 runs pooled, seeds 5,7), " + counted) == 0);
  CHECK(pooled.out.find("(" + std::to_string(games5 / 2 + games7 / 2) + " pairs)") !=
        std::string::npos);
  // Without --pool the seeds are two runs, refused as before.
  CHECK(test::run_tsuru({"match", "merge", run5, run7}).err.find("from another run") !=
        std::string::npos);

  // --results never replaces a file that is not one, and --shard takes I/N only.
  const std::string notes = (dir / "notes.txt").string();
  std::ofstream(notes) << "keep me\n";
  const auto keep = test::run_tsuru(with({"--results", notes}));
  CHECK(keep.code == 2);
  CHECK(keep.err.find("--results: will not overwrite") != std::string::npos);
  CHECK(test::read_file(notes) == "keep me\n");
  const auto shard_error = test::run_tsuru(with({"--shard", "3/3"}));
  CHECK(shard_error.code == 2);
  CHECK(shard_error.err.find("bad --shard '3/3'") != std::string::npos);
  fs::remove_all(dir);
}
