// The real `tsuru hub` binary (TSURU_BINARY) behind a small Hub client for the transcript,
// full-game, soak and latency tests. Every wait has a timeout; a timeout or an unexpected end
// of output throws, which fails the test with the lines seen so far.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tools/child_process.hpp"

namespace tsuru::test {

class HubClient {
 public:
  using Millis = std::chrono::milliseconds;

  explicit HubClient(const std::vector<std::string>& extra_args = {},
                     const std::string& stderr_path = "");

  void send(std::string_view line);
  // The next line; throws on timeout or EOF.
  std::string line(Millis timeout = Millis(10000));
  // Sends ping and returns the lines that arrived before its pong.
  std::vector<std::string> sync(Millis timeout = Millis(10000));
  // Reads up to and including the first `done` line, which it returns; the lines before it
  // (info lines) go to before when given.
  std::string until_done(std::vector<std::string>* before = nullptr,
                         Millis timeout = Millis(60000));
  // hub ... wait, then init ... ready.
  void start_session();

  tools::ChildProcess& process() { return *process_; }

 private:
  std::unique_ptr<tools::ChildProcess> process_;
  std::vector<std::string> seen_;  // recent lines, for error messages
};

// Arguments of a reply line split at spaces outside quotes, as "name=value" texts.
std::vector<std::string> fields(const std::string& line);

// English square numbers between Hub and PDN: every number n in the text becomes 33 - n
// (pydraughts' HubEngine numbers the English board from the other side).
std::string turn_round(const std::string& text);

}  // namespace tsuru::test
