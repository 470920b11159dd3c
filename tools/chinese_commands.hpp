// The subcommands for Chinese checkers (`--variant chinese`): perft, bench, play and match.
// Each draughts subcommand asks wants_chinese() before it parses its options and hands the
// arguments over when it says yes (Chinese checkers is not a draughts rule set).
#pragma once

#include "tools/commands.hpp"

namespace tsuru::tools {

// `--variant chinese` or `--variant=chinese` among the arguments.
bool wants_chinese(const Args& args);

int run_chinese_perft(const Args& args);
int run_chinese_bench(const Args& args);
int run_chinese_play(const Args& args);
int run_chinese_match(const Args& args);

}  // namespace tsuru::tools
