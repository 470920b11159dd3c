// A child process spoken to through pipes: text to its stdin, lines (or raw text) from its
// stdout, every read bounded by a timeout so a hung child cannot hang the caller. The child runs
// in its own process group; signal() and kill() reach the whole group (a shell command's
// children too). The match runner drives Hub engines with it, the tests drive `tsuru` itself.
#pragma once

#include <sys/types.h>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/expected.hpp"

namespace tsuru::tools {

// Where the child's stderr goes.
enum class ErrorOutput { Inherit, Discard, File };

struct ChildOptions {
  ErrorOutput error_output = ErrorOutput::Inherit;
  std::string error_file;  // with ErrorOutput::File: created, or truncated
  // How long the destructor lets the child end by itself once its stdin is closed, before it
  // kills it.
  std::chrono::milliseconds exit_grace{0};
};

class ChildProcess {
 public:
  using Millis = std::chrono::milliseconds;
  enum class Read { Ok, Timeout, Closed };

  // Starts argv[0] (a path: no PATH search) with argv as its arguments. The calling process
  // then ignores SIGPIPE, unless it handles it itself: a write to a child that has died fails
  // instead of killing the caller.
  static Expected<std::unique_ptr<ChildProcess>> start(const std::vector<std::string>& argv,
                                                       const ChildOptions& options = {});
  // Starts `/bin/sh -c command`.
  static Expected<std::unique_ptr<ChildProcess>> start_shell(const std::string& command,
                                                             const ChildOptions& options = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes text to the child's stdin; false once the child has closed it (or died).
  bool write(std::string_view text);
  bool write_line(std::string_view line) { return write(std::string(line) + '\n'); }
  void close_input();

  // The next line of output (without its newline or a trailing CR; a final unterminated line
  // counts).
  Read read_line(std::string& line, Millis timeout);
  // The next line that contains text; the lines before it are dropped.
  Read read_line_containing(std::string_view text, std::string& line, Millis timeout);
  // Output up to and including the first occurrence of marker (what came, on failure).
  Read read_until(std::string_view marker, std::string& text, Millis timeout);
  // Everything until the child closes its stdout.
  Read read_all(std::string& text, Millis timeout);

  // Sends sig to the child's process group, unless the child is known to have ended.
  void signal(int sig);
  void kill();  // SIGKILL
  // The exit code (128 + signal when killed by one) once the child has ended within timeout.
  std::optional<int> wait(Millis timeout);
  bool running() { return !wait(Millis(0)); }
  pid_t pid() const { return pid_; }

 private:
  ChildProcess() = default;
  // Appends what is available to buffer_, waiting for it until deadline.
  Read fill(std::chrono::steady_clock::time_point deadline);

  pid_t pid_ = -1;
  int in_fd_ = -1;   // the child's stdin (we write)
  int out_fd_ = -1;  // the child's stdout (we read)
  bool eof_ = false;
  std::optional<int> status_;
  std::string buffer_;
  Millis exit_grace_{0};
};

}  // namespace tsuru::tools
