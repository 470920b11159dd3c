// A child process spoken to through pipes: lines to its stdin, lines (or raw text) from its
// stdout, every read bounded by a timeout so a hung child cannot hang the caller. The command
// runs under /bin/sh in its own process group; kill() ends the whole group.
#pragma once

#include <sys/types.h>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/expected.hpp"

namespace tsuru::match {

class ChildProcess {
 public:
  using Millis = std::chrono::milliseconds;
  enum class Read { Ok, Timeout, Closed };

  // Starts `/bin/sh -c command`. stderr is inherited unless quiet (then it goes to /dev/null).
  static Expected<std::unique_ptr<ChildProcess>> start(const std::string& command,
                                                       bool quiet = false);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes text to the child's stdin; false once the child has closed it (or died).
  bool write(std::string_view text);
  bool write_line(std::string_view line) { return write(std::string(line) + '\n'); }
  void close_input();

  // The next line of output (without its newline; a final unterminated line counts).
  Read read_line(std::string& line, Millis timeout);
  // Output up to and including the first occurrence of marker.
  Read read_until(std::string_view marker, std::string& text, Millis timeout);
  // Everything until the child closes its stdout.
  Read read_all(std::string& text, Millis timeout);

  // Sends SIGKILL to the child's process group.
  void kill();
  // The exit code (128 + signal when killed by one) once the child has ended within timeout.
  std::optional<int> wait(Millis timeout);
  pid_t pid() const { return pid_; }

 private:
  ChildProcess() = default;
  // Reads what is available into buffer_, waiting until deadline; false on timeout or EOF.
  Read fill(std::chrono::steady_clock::time_point deadline);

  pid_t pid_ = -1;
  int in_fd_ = -1;   // the child's stdin (we write)
  int out_fd_ = -1;  // the child's stdout (we read)
  bool eof_ = false;
  std::optional<int> status_;
  std::string buffer_;
};

}  // namespace tsuru::match
