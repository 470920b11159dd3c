#include "tools/chinese_commands.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <stdexcept>

#include <boost/program_options.hpp>

#include "engine/chinese/game_kind.hpp"
#include "engine/chinese/notation.hpp"
#include "tools/match/chinese_match.hpp"
#include "tools/options.hpp"
#include "tools/play/chinese_console.hpp"

namespace tsuru::tools {

namespace {

namespace po = boost::program_options;
namespace cc = chinese;

// The bench: the start and four positions of a medium self-play game (plies 20, 40, 60, 80).
const char* const kBenchPositions[] = {
    "R:R112,113,114,115,116,117,118,119,120,121:B1,2,3,4,5,6,7,8,9,10",
    "R:R60,69,70,80,82,93,104,112,114,117:B6,7,8,9,18,28,29,41,61,92",
    "R:R3,39,50,62,69,70,72,80,82,91:B7,40,41,42,52,60,71,94,112,114",
    "R:R3,16,28,29,39,40,50,62,63,82:B27,51,70,71,91,94,106,112,114,117",
    "R:R2,3,4,8,9,16,29,40,41,42:B39,92,94,106,112,113,117,119,120,121",
};
constexpr int kBenchDepth = 6;

cc::Position position_of(const std::string& text) {
  const auto pos = cc::parse_fen(text);
  if (!pos) throw std::runtime_error("bad position: " + pos.error());
  return *pos;
}

Level level_of(const std::string& text) {
  const auto level = parse_level(text);
  if (!level || *level == Level::None)
    throw std::runtime_error("unknown level '" + text + "'; expected beginner, medium or hard");
  return *level;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

bool wants_chinese(const Args& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--variant=" + std::string(kChineseName)) return true;
    if (args[i] == "--variant" && i + 1 < args.size() && is_chinese(args[i + 1])) return true;
  }
  return false;
}

int run_chinese_perft(const Args& args) {
  std::string variant, fen;
  int depth = 0;
  po::options_description desc("tsuru perft --variant chinese: count Chinese checkers moves");
  desc.add_options()("help,h", "show this help")("variant", po::value(&variant), "chinese")(
      "fen", po::value(&fen), "start from this position (R:R..:B..; default: the start)")(
      "depth", po::value(&depth)->required(), "largest depth; every depth 1..N is printed")(
      "divide", "first print the node count below each root move");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  if (depth < 0 || depth > 12) throw std::runtime_error("--depth must be 0-12");
  const cc::Position root = position_of(fen);
  std::printf("perft variant=chinese fen=%s\n", cc::format_fen(root).c_str());
  if (vm.count("divide") && depth >= 1) {
    std::uint64_t total = 0;
    for (const cc::Move& m : cc::legal_moves(root)) {
      const std::uint64_t n = cc::perft(root.after(m), depth - 1);
      total += n;
      std::printf("divide move=%s nodes=%llu\n", cc::format_move(root, m).c_str(),
                  static_cast<unsigned long long>(n));
    }
    std::printf("divide total=%llu\n", static_cast<unsigned long long>(total));
  }
  for (int d = 1; d <= depth; ++d) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t nodes = cc::perft(root, d);
    const double secs = seconds_since(start);
    std::printf("perft depth=%d nodes=%llu time=%.3f nps=%.0f\n", d,
                static_cast<unsigned long long>(nodes), secs,
                secs > 0 ? static_cast<double>(nodes) / secs : 0.0);
    std::fflush(stdout);
  }
  return 0;
}

int run_chinese_bench(const Args& args) {
  std::string variant;
  int depth = kBenchDepth;
  po::options_description desc(
      "tsuru bench --variant chinese: search the Chinese checkers bench positions to a depth");
  desc.add_options()("help,h", "show this help")("variant", po::value(&variant), "chinese")(
      "depth", po::value(&depth)->default_value(depth), "search depth");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  if (depth < 1 || depth > 30) throw std::runtime_error("--depth must be 1-30");
  cc::Engine engine;
  std::uint64_t total_nodes = 0;
  double total_seconds = 0;
  int n = 0;
  for (const char* fen : kBenchPositions) {
    engine.new_game();
    const cc::Position pos = position_of(fen);
    engine.set_position(cc::Game(pos));
    SearchLimits limits;
    limits.depth = depth;
    const auto start = std::chrono::steady_clock::now();
    const cc::BestMove best = engine.think(limits);
    const double secs = seconds_since(start);
    const cc::SearchResult r = engine.last_result();
    ++n;
    total_nodes += r.nodes;
    total_seconds += secs;
    std::printf("position=%d move=%s score=%d nodes=%llu time=%.3f nps=%.0f\n", n,
                best.has_move ? cc::format_move(pos, best.move).c_str() : "none", r.score,
                static_cast<unsigned long long>(r.nodes), secs,
                secs > 0 ? static_cast<double>(r.nodes) / secs : 0.0);
    std::fflush(stdout);
  }
  std::printf("total positions=%d depth=%d nodes=%llu time=%.3f nps=%.0f\n", n, depth,
              static_cast<unsigned long long>(total_nodes), total_seconds,
              total_seconds > 0 ? static_cast<double>(total_nodes) / total_seconds : 0.0);
  std::printf("bench nodes=%llu\n", static_cast<unsigned long long>(total_nodes));
  return 0;
}

int run_chinese_play(const Args& args) {
  std::string variant, level = "medium", colour = "red", fen, colours = "auto";
  std::uint64_t seed = 0;
  po::options_description desc("tsuru play --variant chinese: Chinese checkers in the terminal");
  desc.add_options()("help,h", "show this help")("variant", po::value(&variant), "chinese")(
      "level", po::value(&level)->default_value(level), "engine level: beginner, medium or hard")(
      "colour", po::value(&colour)->default_value(colour), "your side: red (moves first) or blue")(
      "color", po::value(&colour), "same as --colour")("fen", po::value(&fen),
                                                       "start from this position (R:R..:B..)")(
      "seed", po::value(&seed), "seed of the engine's random choices (default: a fresh one)")(
      "ansi", po::value(&colours)->default_value(colours),
      "colours: auto (when stdout is a terminal), on or off (letters R and B)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  play::ChinesePlaySettings settings;
  settings.level = level_of(level);
  if (colour == "red" || colour == "first")
    settings.human = cc::Side::Red;
  else if (colour == "blue" || colour == "second")
    settings.human = cc::Side::Blue;
  else
    throw std::runtime_error("unknown colour '" + colour + "'; expected red or blue");
  settings.start = position_of(fen);
  settings.seed = vm.count("seed") ? seed : std::random_device{}();
  if (colours == "auto")
    settings.colour = isatty(STDOUT_FILENO) != 0;
  else if (colours == "on" || colours == "off")
    settings.colour = colours == "on";
  else
    throw std::runtime_error("--ansi takes auto, on or off");
  return play::run_chinese_console(settings, std::cin, std::cout);
}

int run_chinese_match(const Args& args) {
  std::string variant, level1 = "hard", level2 = "medium";
  match::ChineseMatchConfig config;
  double movetime = 0;
  int concurrency = 1;
  po::options_description desc(
      "tsuru match --variant chinese: two levels of Tsuru's Chinese checkers engine, in-process\n"
      "usage: tsuru match --variant chinese --level1 L --level2 L --games N --max-moves N");
  desc.add_options()("help,h", "show this help")("variant", po::value(&variant), "chinese")(
      "level1", po::value(&level1)->default_value(level1), "engine 1: beginner, medium or hard")(
      "level2", po::value(&level2)->default_value(level2), "engine 2")(
      "games", po::value(&config.games)->default_value(config.games), "games to play")(
      "max-moves", po::value(&config.max_moves)->default_value(config.max_moves),
      "plies after which a game is adjudicated a draw (reported as such; 0 = no cap)")(
      "movetime", po::value(&movetime),
      "seconds per move for hard (shorter than its 1.5 s; for quick runs)")(
      "opening-plies", po::value(&config.opening_plies)->default_value(config.opening_plies),
      "random plies from the start before the engines play (each opening twice)")(
      "seed", po::value(&config.seed)->default_value(config.seed), "draws the openings")(
      "concurrency", po::value(&concurrency)->default_value(concurrency),
      "games at the same time (only 1: the games run one after the other)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  if (concurrency != 1) throw std::runtime_error("--concurrency: only 1 for chinese");
  if (config.games < 1) throw std::runtime_error("--games must be at least 1");
  if (config.max_moves < 0) throw std::runtime_error("--max-moves must be >= 0");
  if (config.opening_plies < 0 || config.opening_plies > 20)
    throw std::runtime_error("--opening-plies must be 0-20");
  config.level[0] = level_of(level1);
  config.level[1] = level_of(level2);
  if (vm.count("movetime")) {
    if (!(movetime > 0)) throw std::runtime_error("--movetime must be positive");
    for (auto& l : config.limits) l.move_time = movetime;  // hard takes the smaller of the two
  }
  std::cout << "match: chinese, 1: " << level_name(config.level[0])
            << " vs 2: " << level_name(config.level[1]) << ", " << config.games
            << " games, move cap " << config.max_moves << " plies" << std::endl;
  match::run_chinese_match(config, std::cout);
  return 0;
}

}  // namespace tsuru::tools
