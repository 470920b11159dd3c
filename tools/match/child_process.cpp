#include "tools/match/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <thread>

namespace tsuru::match {
namespace {

// Output beyond this without a newline is returned as a line: a broken child must not make
// us buffer without bound.
constexpr std::size_t kMaxLine = 1 << 20;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

Expected<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::string& command,
                                                            bool quiet) {
  using E = Expected<std::unique_ptr<ChildProcess>>;
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) return E::failure("pipe failed");
  if (::pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    return E::failure("pipe failed");
  }
  const int null_fd = quiet ? ::open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    ::setpgid(0, 0);
    ::dup2(to_child[0], STDIN_FILENO);
    ::dup2(from_child[1], STDOUT_FILENO);
    if (null_fd >= 0) ::dup2(null_fd, STDERR_FILENO);
    ::signal(SIGPIPE, SIG_DFL);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  if (null_fd >= 0) ::close(null_fd);
  if (pid < 0) {
    ::close(to_child[1]);
    ::close(from_child[0]);
    return E::failure("fork failed");
  }
  ::setpgid(pid, pid);  // also from the parent, so kill() works even before the child runs
  std::unique_ptr<ChildProcess> child(new ChildProcess);
  child->pid_ = pid;
  child->in_fd_ = to_child[1];
  child->out_fd_ = from_child[0];
  return child;
}

ChildProcess::~ChildProcess() {
  close_fd(in_fd_);
  if (!status_) {
    if (!wait(Millis(0))) {
      kill();
      wait(Millis(2000));
    }
  }
  close_fd(out_fd_);
}

bool ChildProcess::write(std::string_view text) {
  while (!text.empty()) {
    if (in_fd_ < 0) return false;
    // MSG_NOSIGNAL exists only for sockets: the caller ignores SIGPIPE (see match_command),
    // and a closed pipe shows up here as EPIPE.
    const ssize_t n = ::write(in_fd_, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      close_fd(in_fd_);
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void ChildProcess::close_input() {
  close_fd(in_fd_);
}

ChildProcess::Read ChildProcess::fill(std::chrono::steady_clock::time_point deadline) {
  if (eof_ || out_fd_ < 0) return Read::Closed;
  while (true) {
    const auto left =
        std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
    pollfd p{out_fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::max<Millis::rep>(0, left.count())));
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
  const auto deadline = std::chrono::steady_clock::now() + timeout;
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

ChildProcess::Read ChildProcess::read_until(std::string_view marker, std::string& text,
                                            Millis timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
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
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  Read r;
  while ((r = fill(deadline)) == Read::Ok) {
  }
  text = std::move(buffer_);
  buffer_.clear();
  return r == Read::Closed ? Read::Ok : r;
}

void ChildProcess::kill() {
  if (pid_ > 0 && !status_) ::kill(-pid_, SIGKILL);
}

std::optional<int> ChildProcess::wait(Millis timeout) {
  if (status_ || pid_ <= 0) return status_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int st = 0;
    const pid_t r = ::waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
      status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      return status_;
    }
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(Millis(5));
  }
}

}  // namespace tsuru::match
