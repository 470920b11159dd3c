// DXP over TCP, in the shape of the Asio examples: an acceptor (or a connector) makes a Session
// per connection; the session reads whatever TCP delivers into the framer, hands each frame to
// its GameHandler, and writes the handler's messages from a queue, one write per message. A
// Service ties them to a signal_set for a clean shutdown.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>

#include "protocol/dxp/framer.hpp"
#include "protocol/dxp/handler.hpp"

namespace tsuru::dxp {

class Session : public std::enable_shared_from_this<Session>, public Transport {
 public:
  Session(boost::asio::ip::tcp::socket socket, std::shared_ptr<GameHandler> handler);
  ~Session() override;
  // on_closed runs (posted) once the connection is closed, whichever side closed it.
  void start(std::function<void()> on_closed = {});
  void send(const std::string& payload) override;
  void close() override;
  // Ends the session politely (the handler's shutdown) and closes it.
  void shutdown();
  bool closed() const { return closed_; }

 private:
  void read();
  void write();
  void drop();
  void finish_close();

  boost::asio::ip::tcp::socket socket_;
  std::shared_ptr<GameHandler> handler_;
  Framer framer_;
  std::array<char, 512> buffer_{};
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool closing_ = false;  // close once the queue is written
  bool closed_ = false;
  std::function<void()> on_closed_;
};

// A listener or a single connection, with SIGINT/SIGTERM for a clean shutdown. run() returns
// when the connection ends (connect mode) or after a signal (listen mode).
class Service {
 public:
  using HandlerFactory = std::function<std::shared_ptr<GameHandler>(int session_id)>;
  using SessionEnd = std::function<void(const GameHandler&)>;

  Service(boost::asio::io_context& io, HandlerFactory factory, SessionEnd on_end = {});
  // Binds and listens; returns the bound endpoint (port 0 picks a free port).
  boost::asio::ip::tcp::endpoint listen(const std::string& host, int port);
  // Connects (throws on failure) and starts the session.
  void connect(const std::string& host, int port);
  void run();

 private:
  void accept();
  void start_session(boost::asio::ip::tcp::socket socket);
  void stop();

  boost::asio::io_context& io_;
  HandlerFactory factory_;
  SessionEnd on_end_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  std::vector<std::weak_ptr<Session>> sessions_;
  int next_id_ = 1;
  bool listening_ = false;
  bool stopping_ = false;
};

}  // namespace tsuru::dxp
