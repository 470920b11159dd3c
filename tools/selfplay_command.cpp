// tsuru selfplay [merge]: self-play games written as training samples (tools/train/selfplay.hpp),
// and the merge of shard files into the file one run would have written.
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <boost/program_options.hpp>

#include "tools/commands.hpp"
#include "tools/match/openings.hpp"
#include "tools/options.hpp"
#include "tools/train/sample.hpp"
#include "tools/train/selfplay.hpp"

namespace tsuru::tools {
namespace {

namespace po = boost::program_options;

// Set by SIGINT or SIGTERM: no new game starts, the games in progress finish and are written.
std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
  stop_requested.store(true);
  std::signal(sig, SIG_DFL);  // a second signal ends the program at once
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Parses "I/N".
bool parse_shard(const std::string& text, int& shard, int& shards) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) return false;
  const char* b = text.data();
  const char* e = b + text.size();
  const auto [p1, e1] = std::from_chars(b, b + slash, shard);
  const auto [p2, e2] = std::from_chars(b + slash + 1, e, shards);
  return e1 == std::errc{} && p1 == b + slash && e2 == std::errc{} && p2 == e && slash > 0 &&
         shards >= 1 && shard >= 0 && shard < shards;
}

// An existing `out` is replaced only when it is a sample file of rule set v (or with --force);
// the directory it goes to must exist before hours of play, not after. The reason when not.
std::string check_output(Variant v, const std::string& out, bool force) {
  std::error_code ec;
  if (std::filesystem::is_directory(out, ec)) return out + " is a directory";
  const std::filesystem::path parent = std::filesystem::path(out).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    return "directory " + parent.string() + " does not exist";
  if (std::filesystem::exists(out, ec) && !force) {
    const auto existing = train::sample_file_variant(out);
    if (!existing)
      return "will not overwrite " + out + ", not a sample file (" + existing.error() +
             "); --force overwrites it";
    if (*existing != v)
      return "will not overwrite " + out + ", a sample file of rule set " +
             std::string(info(*existing).name) + "; --force overwrites it";
  }
  return {};
}

void print_stats(const char* what, const std::string& out, const std::vector<train::Sample>& s,
                 double seconds) {
  const train::SampleStats st = train::sample_stats(s);
  std::printf("%s %s: games=%zu positions=%zu white=%zu draws=%zu black=%zu bytes=%llu time=%.1f\n",
              what, out.c_str(), st.games, s.size(), st.white_wins, st.draws, st.black_wins,
              static_cast<unsigned long long>(train::kSampleHeaderSize +
                                              s.size() * train::kSampleRecordSize),
              seconds);
}

int selfplay_merge(const Args& args) {
  std::string out;
  std::vector<std::string> inputs;
  po::options_description desc(
      "tsuru selfplay merge: join sample files (shards of one run) into the file one run would "
      "have written: samples by game index, then ply\n"
      "usage: tsuru selfplay merge --out FILE [--force] A B ...");
  desc.add_options()("help,h", "show this help")("out", po::value(&out)->required(),
                                                 "merged sample file")(
      "input", po::value(&inputs)->multitoken(), "sample files to merge")(
      "force", "overwrite --out even when it is not a sample file of this rule set");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  if (!parse_options(args, desc, vm, &positional)) return vm.count("help") ? 0 : 2;
  if (inputs.empty()) {
    std::fprintf(stderr, "selfplay merge: no input files\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  // The first input names the rule set; every other must be of the same one.
  const auto v = train::sample_file_variant(inputs[0]);
  if (!v) {
    std::fprintf(stderr, "selfplay merge: %s\n", v.error().c_str());
    return 1;
  }
  if (const std::string bad = check_output(*v, out, vm.count("force") > 0); !bad.empty()) {
    std::fprintf(stderr, "selfplay merge: %s\n", bad.c_str());
    return 1;
  }
  std::vector<std::vector<train::Sample>> parts;
  for (const std::string& in : inputs) {
    auto samples = train::read_samples(*v, in);
    if (!samples) {
      std::fprintf(stderr, "selfplay merge: %s\n", samples.error().c_str());
      return 1;
    }
    parts.push_back(std::move(*samples));
  }
  const auto merged = train::merge_runs(std::move(parts));
  if (!merged) {
    std::fprintf(stderr, "selfplay merge: %s\n", merged.error().c_str());
    return 1;
  }
  if (merged->size() > train::kMaxSamples) {
    std::fprintf(stderr, "selfplay merge: %zu samples, more than a sample file may hold (%llu)\n",
                 merged->size(), static_cast<unsigned long long>(train::kMaxSamples));
    return 1;
  }
  if (const auto written = train::write_samples(*v, out, *merged); !written) {
    std::fprintf(stderr, "selfplay merge: %s\n", written.error().c_str());
    return 1;
  }
  print_stats("selfplay merge", out, *merged, seconds_since(start));
  return 0;
}

int selfplay_play(const Args& args) {
  std::string variant_name = "english", openings_spec, shard_text = "0/1", out;
  train::SelfplayOptions o;
  int games = 0;
  o.random_plies = 24;
  o.random_margin = 20;
  std::string eval_file;
  po::options_description desc(
      "tsuru selfplay: the engine plays itself and writes every quiet position in which it "
      "moved (no capture for the side to move) with the game's result and its score\n"
      "usage: tsuru selfplay --variant V --games N (--nodes K | --depth D) [--openings O] "
      "[--seed S] [--shard I/N] [--threads T] --out FILE\n"
      "       tsuru selfplay merge --out FILE [--force] A B ...  (see selfplay merge --help)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "games", po::value(&games)->required(), "games of the whole run (all shards together)")(
      "nodes", po::value(&o.nodes), "node limit per move")("depth", po::value(&o.depth),
                                                           "depth limit per move (plies)")(
      "openings", po::value(&openings_spec),
      "ballots (English 3-move ballots, the English default), a file of positions (FEN or Hub, "
      "one a line), or random:N (N random plies; the default of the other rule sets is "
      "random:4); game g starts from opening g modulo their number")(
      "seed", po::value(&o.seed)->default_value(o.seed),
      "game g's random choices come from (seed, g) alone")(
      "shard", po::value(&shard_text)->default_value(shard_text),
      "play the games g with g mod N = I; merge the N files with selfplay merge")(
      "threads", po::value(&o.threads)->default_value(o.threads),
      "games played at once (the file does not depend on it)")(
      "random-plies", po::value(&o.random_plies)->default_value(o.random_plies),
      "in this many plies after the opening, a second-best move within --random-margin of the "
      "best is played half the time (0: never)")(
      "random-margin", po::value(&o.random_margin)->default_value(o.random_margin), "centi-men")(
      "eval-file", po::value(&eval_file)->default_value(eval_file),
      "the evaluation both sides play: empty (the default) the classic one, default the rule "
      "set's default, builtin its trained weights, or a weights file")(
      "tt-size", po::value(&o.tt_log2)->default_value(o.tt_log2),
      "hash table entries per game in play, log2")("out", po::value(&out)->required(),
                                                   "sample file to write")(
      "force", "overwrite --out even when it is not a sample file of this rule set");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  o.variant = variant_from_name(variant_name);
  if (games < 1) {
    std::fprintf(stderr, "selfplay: --games must be at least 1\n");
    return 2;
  }
  o.games = static_cast<std::uint32_t>(games);
  if (!parse_shard(shard_text, o.shard, o.shards)) {
    std::fprintf(stderr, "selfplay: bad --shard '%s': expected I/N with 0 <= I < N\n",
                 shard_text.c_str());
    return 2;
  }
  {
    auto evaluation = eval::load_evaluation(o.variant, eval_file);
    if (!evaluation) {
      std::fprintf(stderr, "selfplay: --eval-file: %s\n", evaluation.error().c_str());
      return 2;
    }
    o.evaluation = *evaluation;
  }
  if (openings_spec.empty()) openings_spec = o.variant == Variant::English ? "ballots" : "random:4";
  auto openings = match::load_openings(o.variant, openings_spec, o.seed, games);
  if (!openings) {
    std::fprintf(stderr, "selfplay: %s\n", openings.error().c_str());
    return 2;
  }
  // The openings' moves are kept, and a game made of them when its turn comes.
  const auto list = std::make_shared<const std::vector<match::Opening>>(std::move(*openings));
  o.opening = [list, v = o.variant](std::uint32_t g) {
    return match::opening_game(v, (*list)[g % list->size()]);
  };
  if (const auto ok = train::check_options(o); !ok) {
    std::fprintf(stderr, "selfplay: %s\n", ok.error().c_str());
    return 2;
  }
  if (const std::string bad = check_output(o.variant, out, vm.count("force") > 0); !bad.empty()) {
    std::fprintf(stderr, "selfplay: %s\n", bad.c_str());
    return 1;
  }

  const auto start = std::chrono::steady_clock::now();
  double last_print = -1;
  auto progress = [&](const train::SelfplayProgress& p) {
    const double t = seconds_since(start);
    if (t - last_print < 0.5 && p.games_done < p.games_total) return;
    last_print = t;
    const int width = 30;
    const auto filled = static_cast<std::size_t>(
        p.games_total ? width * p.games_done / p.games_total : static_cast<std::size_t>(width));
    std::fprintf(stderr, "\r[%s%s] %zu/%zu games, %.2f games/s, %.0f positions/s, %.0f s",
                 std::string(filled, '#').c_str(),
                 std::string(static_cast<std::size_t>(width) - filled, '.').c_str(), p.games_done,
                 p.games_total, static_cast<double>(p.games_done) / std::max(t, 1e-9),
                 static_cast<double>(p.samples) / std::max(t, 1e-9), t);
    std::fflush(stderr);
  };
  stop_requested.store(false);
  auto old_int = std::signal(SIGINT, on_stop_signal);
  auto old_term = std::signal(SIGTERM, on_stop_signal);
  const train::SelfplayRun run = train::play_games(o, progress, &stop_requested);
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  std::fprintf(stderr, "\n");
  if (run.stopped)
    std::fprintf(stderr, "selfplay: stopped; writing the %zu games finished\n", run.games.size());
  if (run.samples.size() > train::kMaxSamples) {
    std::fprintf(stderr,
                 "selfplay: %zu samples, more than a sample file may hold (%llu): play the games "
                 "in shards (--shard) and train on several files\n",
                 run.samples.size(), static_cast<unsigned long long>(train::kMaxSamples));
    return 1;
  }
  if (const auto written = train::write_samples(o.variant, out, run.samples); !written) {
    std::fprintf(stderr, "selfplay: %s\n", written.error().c_str());
    return 1;
  }
  const double t = seconds_since(start);
  print_stats("selfplay", out, run.samples, t);
  std::size_t adjudicated = 0;
  for (const train::GameSummary& g : run.games) adjudicated += g.adjudicated ? 1 : 0;
  std::printf("games played=%zu of %zu, %.2f games/s, %.0f positions/s%s%s\n", run.games.size(),
              train::shard_games(o.games, o.shard, o.shards).size(),
              static_cast<double>(run.games.size()) / std::max(t, 1e-9),
              static_cast<double>(run.samples.size()) / std::max(t, 1e-9),
              adjudicated ? ", adjudicated draws at the ply limit: " : "",
              adjudicated ? std::to_string(adjudicated).c_str() : "");
  return run.stopped ? 3 : 0;
}

}  // namespace

int run_selfplay(const Args& args) {
  if (!args.empty() && args[0] == "merge")
    return selfplay_merge(Args(args.begin() + 1, args.end()));
  return selfplay_play(args);
}

}  // namespace tsuru::tools
