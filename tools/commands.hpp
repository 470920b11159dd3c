// The `tsuru` subcommands. Each takes the arguments after its name and returns the exit code.
#pragma once

#include <string>
#include <vector>

namespace tsuru::tools {

using Args = std::vector<std::string>;

int run_bench(const Args& args);
int run_book(const Args& args);
int run_dxp(const Args& args);
int run_egdb(const Args& args);
int egdb_compact(const Args& args);  // tsuru egdb compact (tools/egdb_compact.cpp)
int run_hub(const Args& args);
int run_match(const Args& args);
int run_match_merge(const Args& args);  // tsuru match merge (tools/match/match_merge.cpp)
int run_perft(const Args& args);
int run_play(const Args& args);
int run_selfplay(const Args& args);
int run_train(const Args& args);

}  // namespace tsuru::tools
