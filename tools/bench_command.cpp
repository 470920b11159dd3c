// tsuru bench: a fixed-depth search of a fixed set of positions per rule set. The node count
// is a signature of the search: identical from run to run (tests check it).
#include <algorithm>
#include <chrono>
#include <cstdio>

#include <boost/program_options.hpp>

#include "engine/engine.hpp"
#include "protocol/notation.hpp"
#include "tools/bench_positions.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {

int run_bench(const Args& args) {
  namespace po = boost::program_options;
  std::string variant_name = "international";
  int depth = 0;
  int tt_log2 = 20;
  std::string eval_file = EngineOptions{}.eval_file;
  po::options_description desc("tsuru bench: search the bench positions to a fixed depth");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "depth", po::value(&depth), "search depth (default: the rule set's bench depth)")(
      "tt-size", po::value(&tt_log2)->default_value(tt_log2), "hash table entries, log2")(
      "eval-file", po::value(&eval_file)->default_value(eval_file), kEvalFileHelp)(
      "egdb-dir", po::value<std::string>(), "probe the endgame databases in this directory")(
      "verbose", "print the info lines of every search")(
      "level", po::value<std::string>(),
      "play each position at this level (beginner|medium|hard) instead of a fixed depth; the "
      "time of each answer is measured from the request and the maximum printed");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = variant_from_name(variant_name);
  if (depth <= 0) depth = bench_depth(v);
  const bool verbose = vm.count("verbose") > 0;
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
  if (vm.count("egdb-dir")) options.egdb_dir = vm["egdb-dir"].as<std::string>();
  options.level = level;
  options.eval_file = checked_eval_file(v, eval_file);
  engine.set_options(options);
  double max_seconds = 0;
  std::uint64_t total_nodes = 0;
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
    max_seconds = std::max(max_seconds, secs);
    total_nodes += last.nodes;
    total_seconds += secs;
    std::printf("position=%d move=%s score=%d nodes=%llu time=%.3f nps=%.0f\n", n,
                best.has_move ? notation::format_move(v, best.move).c_str() : "none", last.score,
                static_cast<unsigned long long>(last.nodes), secs,
                secs > 0 ? static_cast<double>(last.nodes) / secs : 0.0);
    std::fflush(stdout);
  }
  std::printf("total positions=%d depth=%d nodes=%llu time=%.3f nps=%.0f\n", n, depth,
              static_cast<unsigned long long>(total_nodes), total_seconds,
              total_seconds > 0 ? static_cast<double>(total_nodes) / total_seconds : 0.0);
  if (level != Level::None)
    std::printf("level=%s max_time=%.3f\n", std::string(level_name(level)).c_str(), max_seconds);
  std::printf("bench nodes=%llu\n", static_cast<unsigned long long>(total_nodes));
  return 0;
}

}  // namespace tsuru::tools
