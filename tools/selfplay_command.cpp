// tsuru selfplay [merge|relabel]: self-play games written as training samples
// (tools/train/selfplay.hpp), the merge of shard files into the file one run would have written,
// and game results made exact by the endgame databases (tools/train/relabel.hpp).
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <unordered_set>
#include <vector>

#include <boost/program_options.hpp>

#include "engine/engine.hpp"
#include "engine/rules/binary_io.hpp"
#include "engine/rules/notation.hpp"
#include "tools/commands.hpp"
#include "tools/match/openings.hpp"
#include "tools/options.hpp"
#include "tools/train/relabel.hpp"
#include "tools/train/sample.hpp"
#include "tools/train/sample_journal.hpp"
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

// Everything that shapes the games of a run, hashed: a journal (tools/train/sample_journal.hpp)
// is only ever resumed by the run that wrote it. Threads and --force do not shape the games.
std::uint64_t run_fingerprint(const train::SelfplayOptions& o,
                              const std::vector<match::Opening>& openings) {
  std::string text = "selfplay 1 variant=" + std::string(info(o.variant).name) +
                     " games=" + std::to_string(o.games) + " nodes=" + std::to_string(o.nodes) +
                     " depth=" + std::to_string(o.depth) + " seed=" + std::to_string(o.seed) +
                     " shard=" + std::to_string(o.shard) + "/" + std::to_string(o.shards) +
                     " random-plies=" + std::to_string(o.random_plies) +
                     " random-margin=" + std::to_string(o.random_margin) +
                     " tt-size=" + std::to_string(o.tt_log2) +
                     " max-plies=" + std::to_string(o.max_plies) + " openings=";
  for (const match::Opening& op : openings) {
    text += notation::format_fen(o.variant, op.start);
    for (const Move& m : op.moves) text += " " + notation::format_move(o.variant, m);
    text += ";";
  }
  std::uint64_t h = fnv1a(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (o.evaluation) {
    const std::vector<std::uint8_t> weights = eval::encode_weights(*o.evaluation);
    h = fnv1a(weights.data(), weights.size(), h);
  }
  if (o.egdb) {
    // The set's slices, by name and size: the values they hold decide the probes.
    std::string set = " egdb";
    for (const egdb::SliceInfo& s : o.egdb->slices())
      set += " " + s.slice.name() + ":" + std::to_string(s.bytes);
    h = fnv1a(reinterpret_cast<const std::uint8_t*>(set.data()), set.size(), h);
  }
  return h;
}

// The endgame databases the engine would use for rule set v with egdb-dir `egdb_dir` (the data
// directory's by default), found the same way; `where` gets the directory looked in.
std::shared_ptr<const egdb::Database> engine_databases(Variant v, const std::string& egdb_dir,
                                                       std::string& where) {
  Engine engine;
  EngineOptions options;
  options.book = false;
  options.egdb_dir = egdb_dir;
  engine.set_options(options);
  where = Engine::egdb_directory(options);
  return engine.databases(v);
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

int selfplay_relabel(const Args& args) {
  std::string out, input, egdb_dir = EngineOptions{}.egdb_dir;
  po::options_description desc(
      "tsuru selfplay relabel: give each game of a sample file the result its first database "
      "position has with best play, and each later position its own database value\n"
      "usage: tsuru selfplay relabel [--egdb-dir DIR] --out FILE [--force] IN");
  desc.add_options()("help,h", "show this help")(
      "out", po::value(&out)->required(), "relabelled sample file")("input", po::value(&input),
                                                                    "sample file to relabel")(
      "egdb-dir", po::value(&egdb_dir)->default_value(egdb_dir), kEgdbDirHelp)(
      "force", "overwrite --out even when it is not a sample file of this rule set");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!parse_options(args, desc, vm, &positional)) return vm.count("help") ? 0 : 2;
  if (input.empty()) {
    std::fprintf(stderr, "selfplay relabel: no input file\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto v = train::sample_file_variant(input);
  if (!v) {
    std::fprintf(stderr, "selfplay relabel: %s\n", v.error().c_str());
    return 1;
  }
  if (const std::string bad = check_output(*v, out, vm.count("force") > 0); !bad.empty()) {
    std::fprintf(stderr, "selfplay relabel: %s\n", bad.c_str());
    return 1;
  }
  std::string where;
  const auto db = engine_databases(*v, egdb_dir, where);
  if (!db || db->probe_limit() < 2) {
    std::fprintf(stderr, "selfplay relabel: no endgame databases of rule set %s in %s\n",
                 std::string(info(*v).name).c_str(), where.c_str());
    return 1;
  }
  auto read = train::read_samples(*v, input);
  if (!read) {
    std::fprintf(stderr, "selfplay relabel: %s\n", read.error().c_str());
    return 1;
  }
  std::vector<train::Sample> samples = std::move(*read);
  const train::RelabelStats st = train::relabel_with_database(samples, *db);
  if (const auto written = train::write_samples(*v, out, samples); !written) {
    std::fprintf(stderr, "selfplay relabel: %s\n", written.error().c_str());
    return 1;
  }
  std::printf(
      "selfplay relabel: databases up to %d pieces; games=%llu reached=%llu changed=%llu "
      "positions=%llu probed=%llu changed=%llu\n",
      db->pieces(), static_cast<unsigned long long>(st.games),
      static_cast<unsigned long long>(st.games_reached),
      static_cast<unsigned long long>(st.games_changed),
      static_cast<unsigned long long>(st.samples),
      static_cast<unsigned long long>(st.samples_probed),
      static_cast<unsigned long long>(st.samples_changed));
  static constexpr const char* kNames[3] = {"white", "draw", "black"};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      if (a != b && st.transitions[a][b])
        std::printf("  played %s, databases %s: %llu games\n", kNames[a], kNames[b],
                    static_cast<unsigned long long>(st.transitions[a][b]));
  print_stats("selfplay relabel", out, samples, seconds_since(start));
  return 0;
}

int selfplay_play(const Args& args) {
  std::string variant_name = "english", openings_spec, shard_text = "0/1", out;
  train::SelfplayOptions o;
  int games = 0;
  o.random_plies = 24;
  o.random_margin = 20;
  std::string eval_file;
  std::string egdb_dir = EngineOptions{}.egdb_dir;
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
      "egdb-dir", po::value(&egdb_dir)->default_value(egdb_dir), kEgdbDirHelp)(
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
  {
    std::string where;
    o.egdb = engine_databases(o.variant, egdb_dir, where);
    if (o.egdb)
      std::fprintf(stderr, "selfplay: endgame databases %s: up to %d pieces\n", where.c_str(),
                   o.egdb->pieces());
  }
  if (openings_spec.empty()) openings_spec = o.variant == Variant::English ? "ballots" : "random:4";
  auto openings = match::load_openings(o.variant, openings_spec, o.seed, games);
  if (!openings) {
    std::fprintf(stderr, "selfplay: %s\n", openings.error().c_str());
    return 2;
  }
  // The openings' moves are kept, and a game made of them when its turn comes.
  const auto list = std::make_shared<const std::vector<match::Opening>>(std::move(*openings));
  const std::uint64_t fingerprint = run_fingerprint(o, *list);
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
  // Every finished game goes to the journal at once: a run killed at any point resumes there
  // (the same command again) and writes the bytes of one uninterrupted run.
  auto journal = train::SampleJournal::open(out + ".journal", o.variant, fingerprint);
  if (!journal) {
    std::fprintf(stderr, "selfplay: %s\n", journal.error().c_str());
    return 1;
  }
  std::vector<train::JournalGame> resumed = (*journal)->recovered();
  std::unordered_set<std::uint32_t> done;
  for (const train::JournalGame& g : resumed) done.insert(g.index);
  if (!resumed.empty())
    std::fprintf(stderr, "selfplay: resuming from %s: %zu games already played%s\n",
                 (*journal)->path().c_str(), resumed.size(),
                 (*journal)->cut_off() ? " (an unfinished record cut off)" : "");
  o.skip = [&done](std::uint32_t g) { return done.count(g) > 0; };
  std::string journal_error;
  auto on_game = [&](const train::PlayedGame& g) {
    if (!journal_error.empty()) return false;
    if (const auto w = (*journal)->append(g.summary.index, g.samples); !w) {
      journal_error = w.error();
      return false;
    }
    return true;
  };

  stop_requested.store(false);
  auto old_int = std::signal(SIGINT, on_stop_signal);
  auto old_term = std::signal(SIGTERM, on_stop_signal);
  train::SelfplayRun run = train::play_games(o, progress, &stop_requested, on_game);
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  std::fprintf(stderr, "\n");
  if (!journal_error.empty()) {
    std::fprintf(stderr,
                 "selfplay: %s; %s keeps the games finished before: the same command resumes "
                 "the run\n",
                 journal_error.c_str(), (*journal)->path().c_str());
    return 1;
  }
  if (run.stopped)
    std::fprintf(stderr, "selfplay: stopped; writing the %zu games finished\n",
                 run.games.size() + resumed.size());
  std::sort(
      resumed.begin(), resumed.end(),
      [](const train::JournalGame& a, const train::JournalGame& b) { return a.index < b.index; });
  std::vector<train::Sample> before;
  for (train::JournalGame& g : resumed) {
    before.insert(before.end(), g.samples.begin(), g.samples.end());
    std::vector<train::Sample>().swap(g.samples);
  }
  const std::size_t played = run.games.size();
  auto merged = train::merge_runs({std::move(before), std::move(run.samples)});
  if (!merged) {
    std::fprintf(stderr, "selfplay: %s\n", merged.error().c_str());
    return 1;
  }
  const std::vector<train::Sample>& samples = *merged;
  if (samples.size() > train::kMaxSamples) {
    std::fprintf(stderr,
                 "selfplay: %zu samples, more than a sample file may hold (%llu): play the games "
                 "in shards (--shard) and train on several files\n",
                 samples.size(), static_cast<unsigned long long>(train::kMaxSamples));
    return 1;
  }
  if (const auto written = train::write_samples(o.variant, out, samples); !written) {
    std::fprintf(stderr, "selfplay: %s\n", written.error().c_str());
    return 1;
  }
  // A stopped run keeps its journal: the same command plays the rest.
  if (!run.stopped) (*journal)->remove();
  const double t = seconds_since(start);
  print_stats("selfplay", out, samples, t);
  std::size_t adjudicated = 0;
  for (const train::GameSummary& g : run.games) adjudicated += g.adjudicated ? 1 : 0;
  std::printf("games played=%zu of %zu%s, %.2f games/s, %.0f positions/s%s%s\n",
              played + resumed.size(), train::shard_games(o.games, o.shard, o.shards).size(),
              resumed.empty() ? "" : (" (" + std::to_string(resumed.size()) + " resumed)").c_str(),
              static_cast<double>(played) / std::max(t, 1e-9),
              static_cast<double>(samples.size()) / std::max(t, 1e-9),
              adjudicated ? ", adjudicated draws at the ply limit: " : "",
              adjudicated ? std::to_string(adjudicated).c_str() : "");
  return run.stopped ? 3 : 0;
}

}  // namespace

int run_selfplay(const Args& args) {
  if (!args.empty() && args[0] == "merge")
    return selfplay_merge(Args(args.begin() + 1, args.end()));
  if (!args.empty() && args[0] == "relabel")
    return selfplay_relabel(Args(args.begin() + 1, args.end()));
  return selfplay_play(args);
}

}  // namespace tsuru::tools
