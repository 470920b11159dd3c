#include "protocol/dxp/session.hpp"

#include <algorithm>
#include <csignal>

#include <spdlog/spdlog.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include "protocol/dxp/message.hpp"

namespace tsuru::dxp {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {
std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(s));
}
}  // namespace

Session::Session(tcp::socket socket, std::shared_ptr<GameHandler> handler, double idle_timeout)
    : socket_(std::move(socket)),
      handler_(std::move(handler)),
      idle_timeout_(idle_timeout),
      idle_timer_(socket_.get_executor()),
      last_input_(std::chrono::steady_clock::now()) {}

Session::~Session() {
  handler_->attach(nullptr);
}

void Session::start(std::function<void()> on_closed) {
  on_closed_ = std::move(on_closed);
  boost::system::error_code ec;
  socket_.set_option(tcp::no_delay(true), ec);  // small messages, each sent at once
  handler_->attach(this);
  handler_->start();
  if (!closed_) read();
  if (!closed_ && idle_timeout_ > 0) watch_idle();
}

// Closes the connection once it has been idle_timeout out of a game without a word from the
// peer (a connection that never asks for a game must not hold an engine and a descriptor for
// ever). Checked when the quiet spell would end, and again a timeout later while in a game.
void Session::watch_idle() {
  idle_timer_.expires_at(
      std::max(last_input_ + seconds(idle_timeout_),
               std::chrono::steady_clock::now() + std::chrono::milliseconds(10)));
  idle_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || self->closing_ || self->closed_) return;
    const auto quiet = std::chrono::steady_clock::now() - self->last_input_;
    if (!self->handler_->idle()) {
      self->last_input_ = std::chrono::steady_clock::now();  // a game counts as activity
    } else if (quiet >= seconds(self->idle_timeout_)) {
      spdlog::warn("dxp: closing a connection idle for {:.0f} s without a game",
                   std::chrono::duration<double>(quiet).count());
      self->send(format(Chat{"idle without a game: closing the connection"}));
      self->handler_->shutdown();  // closes through close(), once the chat line is written
      self->close();
      return;
    }
    self->watch_idle();
  });
}

void Session::read() {
  socket_.async_read_some(asio::buffer(buffer_),
                          [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                            if (ec) {
                              if (ec != asio::error::operation_aborted && ec != asio::error::eof)
                                spdlog::warn("dxp: read failed: {}", ec.message());
                              self->drop();
                              return;
                            }
                            self->last_input_ = std::chrono::steady_clock::now();
                            self->framer_.feed(std::string_view(self->buffer_.data(), n));
                            while (auto frame = self->framer_.next()) {
                              if (self->closing_ || self->closed_) return;
                              self->handler_->on_frame(*frame);
                            }
                            if (!self->closing_ && !self->closed_) self->read();
                          });
}

void Session::send(const std::string& payload) {
  if (closing_ || closed_) return;
  queue_.push_back(payload + '\0');
  if (!writing_) write();
}

void Session::write() {
  writing_ = true;
  asio::async_write(socket_, asio::buffer(queue_.front()),
                    [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                      self->writing_ = false;
                      // Closed while this write was in flight (the peer left): its buffer was
                      // kept for it until now, and nothing more is sent.
                      if (self->closed_) {
                        self->queue_.clear();
                        return;
                      }
                      if (ec) {
                        if (ec != asio::error::operation_aborted)
                          spdlog::warn("dxp: write failed: {}", ec.message());
                        self->drop();
                        return;
                      }
                      self->queue_.pop_front();
                      if (!self->queue_.empty())
                        self->write();
                      else if (self->closing_)
                        self->finish_close();
                    });
}

void Session::close() {
  closing_ = true;
  if (!writing_) finish_close();
}

void Session::shutdown() {
  handler_->shutdown();  // ends a game politely, then closes through close()
  close();
}

void Session::drop() {
  if (closed_) return;
  handler_->on_disconnect();
  finish_close();
}

void Session::finish_close() {
  if (closed_) return;
  closed_ = true;
  if (!writing_) queue_.clear();  // a write in flight still reads its buffer: its handler clears
  idle_timer_.cancel();
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  if (on_closed_) asio::post(socket_.get_executor(), std::move(on_closed_));
}

// ---- Service ------------------------------------------------------------------------------------

Service::Service(asio::io_context& io, HandlerFactory factory, SessionEnd on_end,
                 ServiceOptions options)
    : io_(io),
      factory_(std::move(factory)),
      on_end_(std::move(on_end)),
      options_(options),
      acceptor_(io),
      signals_(io, SIGINT, SIGTERM),
      retry_timer_(io) {
  signals_.async_wait([this](boost::system::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("dxp: signal {}: shutting down", signal);
    stop();
  });
}

tcp::endpoint Service::listen(const std::string& host, int port) {
  const tcp::endpoint endpoint(asio::ip::make_address(host), static_cast<unsigned short>(port));
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen();
  listening_ = true;
  accept();
  return acceptor_.local_endpoint();
}

void Service::connect(const std::string& host, int port) {
  tcp::resolver resolver(io_);
  tcp::socket socket(io_);
  asio::connect(socket, resolver.resolve(host, std::to_string(port)));
  start_session(std::move(socket));
}

void Service::accept() {
  acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
    if (stopping_ || ec == asio::error::operation_aborted) return;
    if (ec) {
      on_accept_error(ec);
      return;
    }
    if (accept_failures_ > 0) {
      spdlog::warn("dxp: accepting again after {} failed attempts", accept_failures_);
      accept_failures_ = 0;
    }
    boost::system::error_code peer_ec;
    const auto peer = socket.remote_endpoint(peer_ec);
    const std::string who = peer.address().to_string() + ":" + std::to_string(peer.port());
    if (active_ >= options_.max_connections) {
      refuse(std::move(socket), who);
    } else {
      spdlog::info("dxp: connection from {}", who);
      start_session(std::move(socket));
    }
    accept();
  });
}

// The connection that could not be accepted stays in the kernel's backlog, so accepting again
// at once fails again at once: a spinning core and a log line per attempt. Wait instead, and
// log the first failure of a spell and then one line a minute while it lasts.
void Service::on_accept_error(const boost::system::error_code& ec) {
  const auto now = std::chrono::steady_clock::now();
  if (accept_failures_ == 0 || now - failure_logged_ >= std::chrono::minutes(1)) {
    spdlog::warn("dxp: accept failed: {} ({} attempts so far; retrying every {:.1f} s)",
                 ec.message(), accept_failures_ + 1, options_.accept_retry);
    failure_logged_ = now;
  }
  ++accept_failures_;
  retry_timer_.expires_after(seconds(options_.accept_retry));
  retry_timer_.async_wait([this](boost::system::error_code timer_ec) {
    if (timer_ec || stopping_) return;
    accept();
  });
}

// A connection beyond --max-connections: told why in a chat line, then closed. Logged at most
// every ten seconds (with the number refused since), so a flood of connections is no flood of
// log lines.
void Service::refuse(tcp::socket socket, const std::string& peer) {
  ++refused_;
  const auto now = std::chrono::steady_clock::now();
  if (refusal_logged_ == std::chrono::steady_clock::time_point{} ||
      now - refusal_logged_ >= std::chrono::seconds(10)) {
    spdlog::warn(
        "dxp: connection from {} refused: {} connections already (--max-connections); "
        "{} refused since the last report of this",
        peer, active_, refused_);
    refusal_logged_ = now;
    refused_ = 0;
  }
  auto s = std::make_shared<tcp::socket>(std::move(socket));
  auto text = std::make_shared<std::string>(
      format(Chat{"too many connections (" + std::to_string(options_.max_connections) +
                  "): try again later"}) +
      '\0');
  asio::async_write(*s, asio::buffer(*text), [s, text](boost::system::error_code, std::size_t) {
    boost::system::error_code ignored;
    s->shutdown(tcp::socket::shutdown_both, ignored);
    s->close(ignored);
  });
}

void Service::start_session(tcp::socket socket) {
  std::erase_if(sessions_, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  const int id = next_id_++;
  auto handler = factory_(id);
  auto session = std::make_shared<Session>(std::move(socket), handler,
                                           listening_ ? options_.idle_timeout : 0.0);
  sessions_.push_back(session);
  ++active_;
  session->start([this, handler] {
    --active_;
    if (on_end_) on_end_(*handler);
    if (!listening_) stop();
  });
}

void Service::stop() {
  if (stopping_) return;
  stopping_ = true;
  signals_.cancel();
  boost::system::error_code ec;
  acceptor_.close(ec);
  retry_timer_.cancel();
  for (auto& weak : sessions_)
    if (auto s = weak.lock()) s->shutdown();
  sessions_.clear();
}

void Service::run() {
  io_.run();
}

}  // namespace tsuru::dxp
