#include "protocol/dxp/session.hpp"

#include <csignal>

#include <spdlog/spdlog.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

namespace tsuru::dxp {

namespace asio = boost::asio;
using asio::ip::tcp;

Session::Session(tcp::socket socket, std::shared_ptr<GameHandler> handler)
    : socket_(std::move(socket)), handler_(std::move(handler)) {}

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
  queue_.clear();
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  if (on_closed_) asio::post(socket_.get_executor(), std::move(on_closed_));
}

// ---- Service ------------------------------------------------------------------------------------

Service::Service(asio::io_context& io, HandlerFactory factory, SessionEnd on_end)
    : io_(io),
      factory_(std::move(factory)),
      on_end_(std::move(on_end)),
      acceptor_(io),
      signals_(io, SIGINT, SIGTERM) {
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
      spdlog::warn("dxp: accept failed: {}", ec.message());
    } else {
      boost::system::error_code peer_ec;
      const auto peer = socket.remote_endpoint(peer_ec);
      spdlog::info("dxp: connection from {}:{}", peer.address().to_string(), peer.port());
      start_session(std::move(socket));
    }
    accept();
  });
}

void Service::start_session(tcp::socket socket) {
  std::erase_if(sessions_, [](const std::weak_ptr<Session>& w) { return w.expired(); });
  const int id = next_id_++;
  auto handler = factory_(id);
  auto session = std::make_shared<Session>(std::move(socket), handler);
  sessions_.push_back(session);
  session->start([this, handler] {
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
  for (auto& weak : sessions_)
    if (auto s = weak.lock()) s->shutdown();
  sessions_.clear();
}

void Service::run() {
  io_.run();
}

}  // namespace tsuru::dxp
