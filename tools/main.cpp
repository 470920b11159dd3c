// tsuru: the command-line entry point. `tsuru <command> [options]`; see `tsuru help`.
#include <cstdio>
#include <exception>
#include <string_view>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "engine/version.hpp"
#include "tools/commands.hpp"

namespace {

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const tsuru::tools::Args&);
};

constexpr Command kCommands[] = {
    {"bench", "fixed-depth search of the bench positions: bench [--variant V] [--depth D]",
     tsuru::tools::run_bench},
    {"book", "opening books: book build|show|merge (see book <sub> --help)",
     tsuru::tools::run_book},
    {"dxp", "play DXP matches over TCP: dxp [--listen [HOST:]PORT | --connect HOST:PORT] ...",
     tsuru::tools::run_dxp},
    {"egdb", "endgame databases: egdb build|plan|info|compact|check (see egdb <sub> --help)",
     tsuru::tools::run_egdb},
    {"hub", "the Hub protocol on stdin/stdout: hub [--log FILE]", tsuru::tools::run_hub},
    {"match", "engine against engine: match --engine SPEC --engine SPEC --games N ...",
     tsuru::tools::run_match},
    {"perft", "count move sequences: perft --variant V [--fen F] --depth N [--divide]",
     tsuru::tools::run_perft},
    {"play",
     "play the engine in the terminal (default): play [--variant V] [--level L] [--colour C]",
     tsuru::tools::run_play},
    {"selfplay",
     "training samples from self-play: selfplay --variant V --games N --nodes K --out FILE; "
     "selfplay merge; selfplay relabel",
     tsuru::tools::run_selfplay},
    {"train", "fit evaluation weights to self-play samples: train --variant V --data F... --out W",
     tsuru::tools::run_train},
};

void print_usage() {
  std::printf("%s - a draughts and checkers engine\n\nusage: tsuru <command> [options]\n\n",
              tsuru::version_line().c_str());
  for (const Command& c : kCommands)
    std::printf("  %-8.*s %.*s\n", static_cast<int>(c.name.size()), c.name.data(),
                static_cast<int>(c.summary.size()), c.summary.data());
  std::puts(
      "\n`tsuru <command> --help` describes a command's options; `tsuru --version` prints the "
      "version.");
}

}  // namespace

int main(int argc, char** argv) {
  // Logs never go to stdout: stdout belongs to the protocols.
  spdlog::set_default_logger(spdlog::stderr_color_mt("tsuru"));
  spdlog::set_level(spdlog::level::warn);
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::puts(tsuru::version_line().c_str());
    return 0;
  }
  // Without a command (or with only options) a newcomer gets a game.
  const bool bare =
      argc < 2 || (argv[1][0] == '-' && argv[1][1] == '-' && std::string_view(argv[1]) != "--help");
  const std::string_view name = bare ? "play" : argv[1];
  const tsuru::tools::Args args(argv + (bare ? 1 : 2), argv + argc);
  for (const Command& c : kCommands) {
    if (c.name != name) continue;
    try {
      return c.run(args);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tsuru %.*s: %s\n", static_cast<int>(name.size()), name.data(),
                   e.what());
      return 2;
    }
  }
  print_usage();
  if (name == "help" || name == "--help" || name == "-h") return 0;
  std::fprintf(stderr, "tsuru: unknown command '%.*s'\n", static_cast<int>(name.size()),
               name.data());
  return 2;
}
