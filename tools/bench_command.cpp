// tsuru bench: a fixed-depth search of a fixed set of positions per rule set. The node count
// is a signature of the search: identical from run to run (tests check it) with one thread.
// With --threads N the count varies from run to run (the searchers race over the shared table);
// the time is then the time to depth, and each line also gives each searcher's nodes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "engine/engine.hpp"
#include "engine/rules/notation.hpp"
#include "eval/egdb/database.hpp"
#include "tools/bench_positions.hpp"
#include "tools/chinese_commands.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {

namespace {
// " threads=N split=a/b/...": the nodes of each searcher, the main one first.
std::string split_text(const std::vector<std::uint64_t>& nodes) {
  std::string text = " threads=" + std::to_string(nodes.size()) + " split=";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i) text += '/';
    text += std::to_string(nodes[i]);
  }
  return text;
}
}  // namespace

int run_bench(const Args& args) {
  if (wants_chinese(args)) return run_chinese_bench(args);
  namespace po = boost::program_options;
  std::string variant_name = "international";
  int depth = 0;
  int tt_log2 = 20;
  std::string eval_file = EngineOptions{}.eval_file;
  std::string egdb_dir = EngineOptions{}.egdb_dir;
  int threads = 1;
  po::options_description desc("tsuru bench: search the bench positions to a fixed depth");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "depth", po::value(&depth), "search depth (default: the rule set's bench depth)")(
      "tt-size", po::value(&tt_log2)->default_value(tt_log2), "hash table entries, log2")(
      "eval-file", po::value(&eval_file)->default_value(eval_file), kEvalFileHelp)(
      "egdb-dir", po::value(&egdb_dir)->default_value(egdb_dir), kEgdbDirHelp)(
      "threads", po::value(&threads)->default_value(threads),
      "searchers (1..256); with more than one the nodes per searcher are printed too")(
      "verbose", "print the info lines of every search")(
      "level", po::value<std::string>(),
      "play each position at this level (beginner|medium|hard) instead of a fixed depth; the "
      "time of each answer is measured from the request and the maximum printed");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = variant_from_name(variant_name);
  if (depth <= 0) depth = bench_depth(v);
  const bool verbose = vm.count("verbose") > 0;
  if (threads < 1 || threads > 256) {
    std::fprintf(stderr, "bench: --threads must be 1..256\n");
    return 2;
  }
  Level level = Level::None;
  if (vm.count("level")) {
    const auto parsed = parse_level(vm["level"].as<std::string>());
    if (!parsed) {
      std::fprintf(stderr, "bench: unknown level '%s'\n", vm["level"].as<std::string>().c_str());
      return 2;
    }
    level = *parsed;
  }

  Engine engine;
  EngineOptions options;
  options.tt_log2 = tt_log2;
  options.book = false;
  options.egdb_dir = egdb_dir;
  options.level = level;
  options.eval_file = checked_eval_file(v, eval_file);
  options.threads = threads;
  engine.set_options(options);
  // The databases found change the node counts: say which were used (the pinned signatures are
  // those of a run without any, tests/data/bench_signatures.tsv).
  const auto open_start = std::chrono::steady_clock::now();
  const auto db = engine.databases(v);
  if (db)
    std::printf(
        "egdb dir=%s pieces=%d probe-limit=%d open=%.3f\n", Engine::egdb_directory(options).c_str(),
        db->pieces(), db->probe_limit(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - open_start).count());
  else
    std::printf("egdb none\n");
  double max_seconds = 0;
  long long total_depth = 0;  // the depth of each answer (the last complete iteration)
  std::uint64_t total_nodes = 0;
  std::vector<std::uint64_t> total_split(static_cast<std::size_t>(threads), 0);
  double total_seconds = 0;
  int n = 0;
  for (const std::string& fen : bench_positions(v)) {
    const auto pos = notation::parse_fen(v, fen);
    if (!pos) {
      std::fprintf(stderr, "bench: bad position %s: %s\n", fen.c_str(), pos.error().c_str());
      return 1;
    }
    engine.new_game();
    engine.set_position(Game(v, *pos));
    SearchLimits limits;
    if (level == Level::None) {
      limits.depth = depth;
      limits.analyze = true;
    }
    SearchInfo last;
    const auto start = std::chrono::steady_clock::now();
    const BestMove best = engine.think(limits, [&](const SearchInfo& info) {
      last = info;
      if (verbose)
        std::printf("  info depth=%d score=%d nodes=%llu\n", info.depth, info.score,
                    static_cast<unsigned long long>(info.nodes));
    });
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++n;
    // Every searcher's nodes (a book or single move has no search: its last info line, if any).
    const SearchSummary summary = engine.last_search();
    const std::uint64_t nodes = summary.thread_nodes.empty() ? last.nodes : summary.nodes;
    max_seconds = std::max(max_seconds, secs);
    total_nodes += nodes;
    total_seconds += secs;
    for (std::size_t i = 0; i < summary.thread_nodes.size() && i < total_split.size(); ++i)
      total_split[i] += summary.thread_nodes[i];
    total_depth += last.depth;
    std::printf("position=%d move=%s score=%d depth=%d nodes=%llu time=%.3f nps=%.0f%s\n", n,
                best.has_move ? notation::format_move(v, best.move).c_str() : "none", last.score,
                last.depth, static_cast<unsigned long long>(nodes), secs,
                secs > 0 ? static_cast<double>(nodes) / secs : 0.0,
                threads > 1 ? split_text(summary.thread_nodes).c_str() : "");
    std::fflush(stdout);
  }
  std::printf("total positions=%d depth=%d nodes=%llu time=%.3f nps=%.0f%s\n", n, depth,
              static_cast<unsigned long long>(total_nodes), total_seconds,
              total_seconds > 0 ? static_cast<double>(total_nodes) / total_seconds : 0.0,
              threads > 1 ? split_text(total_split).c_str() : "");
  if (level != Level::None)
    std::printf("level=%s max_time=%.3f mean_depth=%.2f\n", std::string(level_name(level)).c_str(),
                max_seconds, n > 0 ? static_cast<double>(total_depth) / n : 0.0);
  if (db)
    std::printf("egdb cache hits=%llu misses=%llu\n",
                static_cast<unsigned long long>(db->cache_hits()),
                static_cast<unsigned long long>(db->cache_misses()));
  std::printf("bench nodes=%llu\n", static_cast<unsigned long long>(total_nodes));
  return 0;
}

}  // namespace tsuru::tools
