// One run of the real `tsuru` binary (TSURU_BINARY) to its end: arguments, a script on stdin,
// and what it wrote to stdout and stderr, with its exit code. Every wait has a timeout, which
// fails the test.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace tsuru::test {

struct TsuruRun {
  std::string out, err;
  int code = -1;
};

// Runs `tsuru <args...>` with input on stdin (then end of input); stderr is kept apart.
TsuruRun run_tsuru(const std::vector<std::string>& args, const std::string& input = "",
                   std::chrono::seconds timeout = std::chrono::seconds(120));
// The same for any program: argv[0] is its path.
TsuruRun run_program(const std::vector<std::string>& argv, const std::string& input = "",
                     std::chrono::seconds timeout = std::chrono::seconds(120));

}  // namespace tsuru::test
