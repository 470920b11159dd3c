#include "tests/dxp_process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <chrono>
#include <stdexcept>

#include "tests/spawn.hpp"

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

Listener::Listener(const std::vector<std::string>& args) {
  std::vector<std::string> all{TSURU_BINARY, "dxp", "--listen", "127.0.0.1:0"};
  all.insert(all.end(), args.begin(), args.end());
  process = spawn(all);
  std::string line;
  if (process->read_line_containing("listening on ", line, std::chrono::seconds(30)) !=
      tools::ChildProcess::Read::Ok)
    throw std::runtime_error("tsuru dxp did not start listening");
  port = std::stoi(line.substr(line.rfind(':') + 1));
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
