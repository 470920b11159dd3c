// Starts a child process for a test (tools/child_process.hpp), by default with its stderr
// discarded; a child that cannot be started throws, which fails the test with the reason.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/child_process.hpp"

namespace tsuru::test {

inline std::unique_ptr<tools::ChildProcess> spawn(const std::vector<std::string>& argv,
                                                  const tools::ChildOptions& options) {
  auto child = tools::ChildProcess::start(argv, options);
  if (!child) throw std::runtime_error(child.error());
  return std::move(child.value());
}

inline std::unique_ptr<tools::ChildProcess> spawn(const std::vector<std::string>& argv) {
  tools::ChildOptions quiet;
  quiet.error_output = tools::ErrorOutput::Discard;
  return spawn(argv, quiet);
}

}  // namespace tsuru::test
