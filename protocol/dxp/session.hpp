// DXP over TCP, in the shape of the Asio examples: an acceptor (or a connector) makes a Session
// per connection; the session reads whatever TCP delivers into the framer, hands each frame to
// its GameHandler, and writes the handler's messages from a queue, one write per message. A
// Service ties them to a signal_set for a clean shutdown.
//
// What a listener spends on its peers is bounded: at most max_connections sessions at once (each
// has an engine and its table; a connection beyond the cap gets a chat line saying why and is
// closed at once), a connection that sits idle outside a game for idle_timeout seconds is
// closed, and an accept that fails (out of file descriptors: EMFILE, ENFILE) is retried after a
// pause instead of at once, logged once per failing spell rather than once per attempt.
#pragma once

#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "protocol/dxp/framer.hpp"
#include "protocol/dxp/handler.hpp"

namespace tsuru::dxp {

class Session : public std::enable_shared_from_this<Session>, public Transport {
 public:
  // idle_timeout (seconds, 0 = none): how long the connection may stay without a game and
  // without a message from the peer before it is closed.
  Session(boost::asio::ip::tcp::socket socket, std::shared_ptr<GameHandler> handler,
          double idle_timeout = 0);
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
  void watch_idle();

  boost::asio::ip::tcp::socket socket_;
  std::shared_ptr<GameHandler> handler_;
  double idle_timeout_;
  boost::asio::steady_timer idle_timer_;
  std::chrono::steady_clock::time_point last_input_;
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
struct ServiceOptions {
  int max_connections = 4;    // listen mode: sessions at once
  double idle_timeout = 60;   // seconds; 0 = connections may idle for ever
  double accept_retry = 0.1;  // seconds between attempts while accepting fails
};

class Service {
 public:
  using HandlerFactory = std::function<std::shared_ptr<GameHandler>(int session_id)>;
  using SessionEnd = std::function<void(const GameHandler&)>;

  Service(boost::asio::io_context& io, HandlerFactory factory, SessionEnd on_end = {},
          ServiceOptions options = {});
  // Binds and listens; returns the bound endpoint (port 0 picks a free port).
  boost::asio::ip::tcp::endpoint listen(const std::string& host, int port);
  // Connects (throws on failure) and starts the session.
  void connect(const std::string& host, int port);
  void run();

 private:
  void accept();
  void on_accept_error(const boost::system::error_code& ec);
  void refuse(boost::asio::ip::tcp::socket socket, const std::string& peer);
  void start_session(boost::asio::ip::tcp::socket socket);
  void stop();

  boost::asio::io_context& io_;
  HandlerFactory factory_;
  SessionEnd on_end_;
  ServiceOptions options_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer retry_timer_;
  std::vector<std::weak_ptr<Session>> sessions_;
  int active_ = 0;            // sessions not yet closed
  long accept_failures_ = 0;  // in the current failing spell
  std::chrono::steady_clock::time_point failure_logged_;
  long refused_ = 0;  // connections refused since the last report
  std::chrono::steady_clock::time_point refusal_logged_;
  int next_id_ = 1;
  bool listening_ = false;
  bool stopping_ = false;
};

}  // namespace tsuru::dxp
