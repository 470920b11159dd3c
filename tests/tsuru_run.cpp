#include "tests/tsuru_run.hpp"

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "tools/child_process.hpp"

namespace tsuru::test {

TsuruRun run_tsuru(const std::vector<std::string>& args, const std::string& input,
                   std::chrono::seconds timeout) {
  std::vector<std::string> argv{TSURU_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, input, timeout);
}

TsuruRun run_program(const std::vector<std::string>& argv, const std::string& input,
                     std::chrono::seconds timeout) {
  // ctest runs test cases in parallel processes, and a case may run several commands: each run
  // has its own file for stderr.
  static int runs = 0;
  tools::ChildOptions options;
  options.error_output = tools::ErrorOutput::File;
  options.error_file =
      (std::filesystem::temp_directory_path() /
       ("tsuru_run_stderr_" + std::to_string(::getpid()) + "_" + std::to_string(++runs) + ".txt"))
          .string();
  auto child = tools::ChildProcess::start(argv, options);
  REQUIRE(child.ok());
  tools::ChildProcess& p = **child;
  if (!input.empty()) REQUIRE(p.write(input));
  p.close_input();
  TsuruRun run;
  REQUIRE(p.read_all(run.out, timeout) == tools::ChildProcess::Read::Ok);
  const auto code = p.wait(std::chrono::seconds(30));
  REQUIRE(code.has_value());
  run.code = *code;
  std::ifstream err(options.error_file);
  std::stringstream text;
  text << err.rdbuf();
  run.err = text.str();
  std::filesystem::remove(options.error_file);
  return run;
}

}  // namespace tsuru::test
