#include "tools/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

namespace tsuru::tools {
namespace {

using Clock = std::chrono::steady_clock;

// Output beyond this without a newline is returned as a line: a broken child must not make
// us buffer without bound.
constexpr std::size_t kMaxLine = 1 << 20;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::chrono::milliseconds left_until(Clock::time_point deadline) {
  return std::max(std::chrono::milliseconds(0),
                  std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
}

// The descriptor the child's stderr is to be a copy of: -1 to inherit ours.
Expected<int> error_fd(const ChildOptions& o) {
  switch (o.error_output) {
    case ErrorOutput::Inherit:
      return -1;
    case ErrorOutput::Discard:
      return ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    case ErrorOutput::File: {
      const int fd = ::open(o.error_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0)
        return Expected<int>::failure("cannot open " + o.error_file + ": " + std::strerror(errno));
      return fd;
    }
  }
  return -1;
}

}  // namespace

Expected<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::vector<std::string>& argv,
                                                            const ChildOptions& options) {
  using E = Expected<std::unique_ptr<ChildProcess>>;
  if (argv.empty()) return E::failure("no program to start");
  // A write to a dead child must fail with EPIPE, not end this process.
  struct sigaction pipe_action {};
  if (::sigaction(SIGPIPE, nullptr, &pipe_action) == 0 && pipe_action.sa_handler == SIG_DFL)
    ::signal(SIGPIPE, SIG_IGN);

  const auto err = error_fd(options);
  if (!err) return E::failure(err.error());
  // Everything the child needs is made before fork: between fork and exec only
  // async-signal-safe calls are allowed (the caller may have other threads).
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // to_child: our writes to its stdin; from_child: its stdout; exec_error: errno of a failed
  // exec (closed unread by a successful one, thanks to O_CLOEXEC).
  int to_child[2] = {-1, -1}, from_child[2] = {-1, -1}, exec_error[2] = {-1, -1};
  auto close_all = [&] {
    for (int* fds : {to_child, from_child, exec_error}) {
      close_fd(fds[0]);
      close_fd(fds[1]);
    }
    if (*err >= 0) ::close(*err);
  };
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0 ||
      ::pipe2(exec_error, O_CLOEXEC) != 0) {
    close_all();
    return E::failure("pipe failed");
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(to_child[0], STDIN_FILENO);
    ::dup2(from_child[1], STDOUT_FILENO);
    if (*err >= 0) ::dup2(*err, STDERR_FILENO);
    // Ignored signals stay ignored across exec: the child gets the default back.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGPIPE, &dfl, nullptr);
    ::execv(args[0], args.data());
    const int e = errno;
    [[maybe_unused]] const ssize_t n = ::write(exec_error[1], &e, sizeof e);
    ::_exit(127);
  }
  if (pid < 0) {
    close_all();
    return E::failure("fork failed");
  }
  ::setpgid(pid, pid);  // also from here, so signal() works even before the child runs
  std::unique_ptr<ChildProcess> child(new ChildProcess);
  child->pid_ = pid;
  child->exit_grace_ = options.exit_grace;
  std::swap(child->in_fd_, to_child[1]);
  std::swap(child->out_fd_, from_child[0]);
  close_fd(exec_error[1]);
  int exec_errno = 0;
  ssize_t n;
  while ((n = ::read(exec_error[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  close_all();
  if (n > 0) {
    child->wait(Millis(5000));  // it has exited: reap it
    return E::failure("cannot start " + argv[0] + ": " + std::strerror(exec_errno));
  }
  return child;
}

Expected<std::unique_ptr<ChildProcess>> ChildProcess::start_shell(const std::string& command,
                                                                  const ChildOptions& options) {
  return start({"/bin/sh", "-c", command}, options);
}

ChildProcess::~ChildProcess() {
  close_input();
  if (!wait(exit_grace_)) {
    kill();
    wait(Millis(5000));
  }
  close_fd(out_fd_);
}

bool ChildProcess::write(std::string_view text) {
  while (!text.empty()) {
    if (in_fd_ < 0) return false;
    const ssize_t n = ::write(in_fd_, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      close_fd(in_fd_);  // EPIPE: the child no longer reads
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void ChildProcess::close_input() {
  close_fd(in_fd_);
}

ChildProcess::Read ChildProcess::fill(Clock::time_point deadline) {
  if (eof_ || out_fd_ < 0) return Read::Closed;
  while (true) {
    pollfd p{out_fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(left_until(deadline).count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return Read::Timeout;
    char buf[4096];
    const ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof_ = true;
      return Read::Closed;
    }
    buffer_.append(buf, static_cast<std::size_t>(n));
    return Read::Ok;
  }
}

ChildProcess::Read ChildProcess::read_line(std::string& line, Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const std::size_t nl = buffer_.find('\n');
    if (nl != std::string::npos || buffer_.size() >= kMaxLine) {
      const std::size_t len = nl != std::string::npos ? nl : buffer_.size();
      line = buffer_.substr(0, len);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, nl != std::string::npos ? nl + 1 : len);
      return Read::Ok;
    }
    const Read r = fill(deadline);
    if (r == Read::Closed && !buffer_.empty()) {
      line = std::move(buffer_);
      buffer_.clear();
      return Read::Ok;
    }
    if (r != Read::Ok) return r;
  }
}

ChildProcess::Read ChildProcess::read_line_containing(std::string_view text, std::string& line,
                                                      Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const Read r = read_line(line, left_until(deadline));
    if (r != Read::Ok || line.find(text) != std::string::npos) return r;
  }
}

ChildProcess::Read ChildProcess::read_until(std::string_view marker, std::string& text,
                                            Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const std::size_t at = buffer_.find(marker);
    if (at != std::string::npos) {
      text = buffer_.substr(0, at + marker.size());
      buffer_.erase(0, at + marker.size());
      return Read::Ok;
    }
    const Read r = fill(deadline);
    if (r != Read::Ok) {
      text = std::move(buffer_);
      buffer_.clear();
      return r;
    }
  }
}

ChildProcess::Read ChildProcess::read_all(std::string& text, Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  Read r;
  while ((r = fill(deadline)) == Read::Ok) {
  }
  text = std::move(buffer_);
  buffer_.clear();
  return r == Read::Closed ? Read::Ok : r;
}

void ChildProcess::signal(int sig) {
  if (pid_ > 0 && !status_) ::kill(-pid_, sig);
}

void ChildProcess::kill() {
  signal(SIGKILL);
}

std::optional<int> ChildProcess::wait(Millis timeout) {
  if (status_ || pid_ <= 0) return status_;
  const auto deadline = Clock::now() + timeout;
  while (true) {
    int st = 0;
    const pid_t r = ::waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
      status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      return status_;
    }
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(Millis(2));
  }
}

}  // namespace tsuru::tools
