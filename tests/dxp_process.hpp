// Test support for DXP: a listening `tsuru dxp` child process, and a raw TCP peer that sends
// exact bytes and reads NUL-framed messages, every wait bounded.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/dxp/framer.hpp"
#include "tools/child_process.hpp"

namespace tsuru::test {

// Starts `tsuru dxp --listen 127.0.0.1:0 <args>` and reads the port it listens on.
struct Listener {
  explicit Listener(const std::vector<std::string>& args);
  std::unique_ptr<tools::ChildProcess> process;
  int port = 0;
};

class PeerSocket {
 public:
  explicit PeerSocket(int port);
  // Takes over a connected socket.
  static std::unique_ptr<PeerSocket> adopt(int fd);
  ~PeerSocket();
  PeerSocket(const PeerSocket&) = delete;
  PeerSocket& operator=(const PeerSocket&) = delete;

  void send_raw(std::string_view bytes);
  void send(std::string_view payload);  // payload + NUL, in one write
  // The next message; nullopt on timeout or when the other side closed the connection.
  std::optional<std::string> receive(double timeout_seconds = 10);
  // True when the other side closes the connection within the timeout; messages that arrive
  // before are collected in `before`.
  bool wait_closed(double timeout_seconds, std::vector<std::string>* before = nullptr);
  void close();
  bool connected() const { return fd_ >= 0; }

 private:
  PeerSocket() = default;
  int fd_ = -1;
  bool eof_ = false;
  dxp::Framer framer_;
};

// A listening socket on 127.0.0.1 (free port), for a test that plays the follower's part
// against a connecting `tsuru dxp --initiator`.
class ServerSocket {
 public:
  ServerSocket();
  ~ServerSocket();
  ServerSocket(const ServerSocket&) = delete;
  ServerSocket& operator=(const ServerSocket&) = delete;
  int port() const { return port_; }
  // The next connection, or nullptr on timeout.
  std::unique_ptr<PeerSocket> accept(double timeout_seconds);

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace tsuru::test
