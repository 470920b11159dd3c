// A child process driven through pipes, for the protocol transcript tests. Every read has a
// timeout, so a hung engine fails a test instead of hanging it; the destructor kills a child
// that is still running.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tsuru::test {

class Subprocess {
 public:
  using Millis = std::chrono::milliseconds;

  // Starts argv[0] with the given arguments; its stderr goes to stderr_path (default: none).
  explicit Subprocess(const std::vector<std::string>& argv, const std::string& stderr_path = "");
  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Writes raw bytes to the child's stdin; false when the child no longer reads.
  bool write(std::string_view data);
  bool send(std::string_view line) { return write(std::string(line) + "\n"); }
  void close_stdin();

  // The next line of the child's stdout, without its newline; nullopt on timeout or at EOF.
  std::optional<std::string> read_line(Millis timeout);
  bool at_eof() const { return eof_; }

  // The exit status once the child has exited (within the timeout), else nullopt. A child
  // killed by a signal reports 128 + the signal number.
  std::optional<int> wait_exit(Millis timeout);

 private:
  pid_t pid_ = -1;
  int in_ = -1;   // our end of the child's stdin
  int out_ = -1;  // our end of the child's stdout
  std::string buffer_;
  bool eof_ = false;
  std::optional<int> status_;
};

}  // namespace tsuru::test
