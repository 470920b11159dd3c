#include "tests/dxp_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace tsuru::test {
namespace {

using Steady = std::chrono::steady_clock;

int ms_left(Steady::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Steady::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

Steady::time_point deadline_in(double seconds) {
  return Steady::now() + std::chrono::milliseconds(static_cast<long>(seconds * 1000));
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  out_ = fds[0];
  if (rc != 0) throw std::runtime_error("cannot start " + args[0]);
}

ChildProcess::~ChildProcess() {
  if (running()) {
    ::kill(pid_, SIGKILL);
    wait(10);
  }
  if (out_ >= 0) ::close(out_);
}

std::optional<std::string> ChildProcess::read_line(double timeout_seconds) {
  const auto deadline = deadline_in(timeout_seconds);
  while (true) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    pollfd p{out_, POLLIN, 0};
    const int ready = ::poll(&p, 1, ms_left(deadline));
    if (ready <= 0) return std::nullopt;
    char chunk[4096];
    const ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::optional<std::string> ChildProcess::read_until(std::string_view text, double timeout_seconds) {
  const auto deadline = deadline_in(timeout_seconds);
  while (true) {
    const double left = ms_left(deadline) / 1000.0;
    auto line = read_line(left);
    if (!line) return std::nullopt;
    if (line->find(text) != std::string::npos) return line;
  }
}

void ChildProcess::signal(int sig) {
  if (running()) ::kill(pid_, sig);
}

bool ChildProcess::running() {
  if (status_ || pid_ < 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_)
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return !status_;
}

std::optional<int> ChildProcess::wait(double timeout_seconds) {
  const auto deadline = deadline_in(timeout_seconds);
  while (running()) {
    if (Steady::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return status_;
}

Listener::Listener(const std::vector<std::string>& args)
    : process([&] {
        std::vector<std::string> all{TSURU_BINARY, "dxp", "--listen", "127.0.0.1:0"};
        all.insert(all.end(), args.begin(), args.end());
        return all;
      }()) {
  const auto line = process.read_until("listening on ", 30);
  if (!line) throw std::runtime_error("tsuru dxp did not start listening");
  port = std::stoi(line->substr(line->rfind(':') + 1));
}

PeerSocket::PeerSocket(int port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error("cannot connect to port " + std::to_string(port));
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

std::unique_ptr<PeerSocket> PeerSocket::adopt(int fd) {
  std::unique_ptr<PeerSocket> p(new PeerSocket());
  p->fd_ = fd;
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return p;
}

PeerSocket::~PeerSocket() {
  close();
}

void PeerSocket::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void PeerSocket::send_raw(std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size() && fd_ >= 0) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error("send failed");
    done += static_cast<std::size_t>(n);
  }
}

void PeerSocket::send(std::string_view payload) {
  std::string bytes(payload);
  bytes += '\0';
  send_raw(bytes);
}

std::optional<std::string> PeerSocket::receive(double timeout_seconds) {
  const auto deadline = deadline_in(timeout_seconds);
  while (true) {
    if (auto frame = framer_.next()) {
      if (!frame->ok()) throw std::runtime_error("bad frame from tsuru: " + frame->error);
      return frame->payload;
    }
    if (eof_ || fd_ < 0) return std::nullopt;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, ms_left(deadline)) <= 0) return std::nullopt;
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      eof_ = true;
      continue;
    }
    framer_.feed(std::string_view(chunk, static_cast<std::size_t>(n)));
  }
}

bool PeerSocket::wait_closed(double timeout_seconds, std::vector<std::string>* before) {
  const auto deadline = deadline_in(timeout_seconds);
  while (true) {
    auto m = receive(ms_left(deadline) / 1000.0);
    if (m) {
      if (before) before->push_back(*m);
      continue;
    }
    return eof_;
  }
}

ServerSocket::ServerSocket() {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = 0;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 4) != 0 ||
      ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    throw std::runtime_error("cannot listen");
  port_ = ntohs(addr.sin_port);
}

ServerSocket::~ServerSocket() {
  if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<PeerSocket> ServerSocket::accept(double timeout_seconds) {
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(timeout_seconds * 1000)) <= 0) return nullptr;
  const int fd = ::accept(fd_, nullptr, nullptr);
  if (fd < 0) return nullptr;
  return PeerSocket::adopt(fd);
}

}  // namespace tsuru::test
