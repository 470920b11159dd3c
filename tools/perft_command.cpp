// tsuru perft: move-generator counts and speed.
#include <chrono>
#include <cstdio>
#include <iostream>

#include <boost/program_options.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "engine/rules/perft.hpp"
#include "tools/chinese_commands.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {

int run_perft(const Args& args) {
  if (wants_chinese(args)) return run_chinese_perft(args);
  namespace po = boost::program_options;
  std::string variant_name = "international", fen;
  int depth = 0;
  po::options_description desc("tsuru perft: count the legal move sequences of each length");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "fen", po::value(&fen), "start from this PDN FEN or Hub position (default: start position)")(
      "depth", po::value(&depth)->required(), "largest depth; every depth 1..N is printed")(
      "divide", "first print the node count below each root move")(
      "keep-duplicates", "count every capture path (the reference's `kept` convention)")(
      "no-bulk", "play every leaf move instead of counting the moves at the last ply");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;

  const Variant v = variant_from_name(variant_name);
  const Position root = position_from_text(v, fen);
  PerftOptions options;
  options.bulk = !vm.count("no-bulk");
  options.keep_duplicates = vm.count("keep-duplicates") > 0;
  std::printf("perft variant=%s bulk=%s duplicates=%s fen=%s\n", variant_name.c_str(),
              options.bulk ? "yes" : "no", options.keep_duplicates ? "kept" : "removed",
              notation::format_fen(v, root).c_str());

  if (vm.count("divide") && depth >= 1) {
    std::uint64_t total = 0;
    for (const Move& m : legal_moves(v, root)) {
      const std::uint64_t n = perft(v, root.after(m), depth - 1, options);
      total += n;
      std::printf("divide move=%s nodes=%llu\n", notation::format_move(v, m).c_str(),
                  static_cast<unsigned long long>(n));
    }
    std::printf("divide total=%llu\n", static_cast<unsigned long long>(total));
  }
  for (int d = 1; d <= depth; ++d) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t nodes = perft(v, root, d, options);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("perft depth=%d nodes=%llu time=%.3f nps=%.0f\n", d,
                static_cast<unsigned long long>(nodes), secs,
                secs > 0 ? static_cast<double>(nodes) / secs : 0.0);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace tsuru::tools
