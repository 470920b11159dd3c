#include "tools/match/dxp_player.hpp"

#include <cmath>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include "protocol/dxp/board.hpp"
#include "protocol/dxp/framer.hpp"
#include "protocol/dxp/message.hpp"

namespace tsuru::match {

namespace asio = boost::asio;
using asio::ip::tcp;
using Millis = std::chrono::milliseconds;

// A blocking DXP connection whose every wait has a deadline: each operation is started
// asynchronously and the io_context runs until it completes or the deadline passes (the
// "blocking TCP client with timeouts" of the Asio examples).
class DxpConnection {
 public:
  enum class Read { Ok, Timeout, Closed };

  std::optional<std::string> connect(const std::string& host, int port, Millis timeout) {
    boost::system::error_code ec;
    tcp::resolver resolver(io_);
    const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
    if (ec) return "cannot resolve " + host + ": " + ec.message();
    bool done = false;
    asio::async_connect(socket_, endpoints,
                        [&](const boost::system::error_code& e, const tcp::endpoint&) {
                          ec = e;
                          done = true;
                        });
    run(done, timeout);
    if (!done) return "cannot connect to " + host + ":" + std::to_string(port) + ": timed out";
    if (ec) return "cannot connect to " + host + ":" + std::to_string(port) + ": " + ec.message();
    // While nobody listens on a local port in the ephemeral range, a connection to it may be
    // given that very port as its own and connect to itself (TCP simultaneous open): a retry
    // loop waiting for a follower to restart meets this now and then.
    const auto local = socket_.local_endpoint(ec);
    if (!ec && local == socket_.remote_endpoint(ec) && !ec) {
      close();
      closed_ = false;
      return "cannot connect to " + host + ":" + std::to_string(port) +
             ": Connection refused (connected to itself)";
    }
    socket_.set_option(tcp::no_delay(true), ec);
    return std::nullopt;
  }

  bool send(const dxp::Message& m) {
    if (closed_) return false;
    const std::string bytes = dxp::format(m) + '\0';
    boost::system::error_code ec;
    asio::write(socket_, asio::buffer(bytes), ec);  // 128 bytes at most: never blocks long
    if (ec) closed_ = true;
    return !ec;
  }

  Read receive(dxp::Frame& frame, std::chrono::steady_clock::time_point deadline) {
    while (true) {
      if (auto f = framer_.next()) {
        frame = std::move(*f);
        return Read::Ok;
      }
      if (closed_) return Read::Closed;
      const auto left =
          std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
      if (left <= Millis(0)) return Read::Timeout;
      bool done = false;
      boost::system::error_code ec;
      std::size_t n = 0;
      socket_.async_read_some(asio::buffer(buffer_),
                              [&](const boost::system::error_code& e, std::size_t count) {
                                ec = e;
                                n = count;
                                done = true;
                              });
      run(done, left);
      if (!done) return Read::Timeout;
      if (ec) {
        closed_ = true;
        continue;  // frames already buffered still count
      }
      framer_.feed(std::string_view(buffer_.data(), n));
    }
  }

  void close() {
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    closed_ = true;
  }

 private:
  // Runs the io_context until `done` or the timeout; an unfinished operation is cancelled
  // and its handler run, so nothing refers to this frame's variables afterwards.
  void run(bool& done, Millis timeout) {
    io_.restart();
    io_.run_for(timeout);
    if (!done) {
      boost::system::error_code ec;
      socket_.cancel(ec);
      io_.restart();
      io_.run();
      done = false;
    }
  }

  asio::io_context io_;
  tcp::socket socket_{io_};
  dxp::Framer framer_;
  std::array<char, 512> buffer_{};
  bool closed_ = false;
};

namespace {

Millis millis(double seconds) {
  return Millis(static_cast<long long>(seconds * 1000));
}

// Whole minutes per game for a match time control (see the header).
int dxp_minutes(const TimeControl& tc) {
  switch (tc.kind) {
    case TimeControl::Kind::Clock:
      return std::clamp(static_cast<int>(std::ceil(tc.base / 60.0)), 1, 999);
    case TimeControl::Kind::MoveTime:
      return std::clamp(static_cast<int>(std::ceil(tc.move_time)), 1, 999);
    case TimeControl::Kind::Depth:
      break;
  }
  return 10;
}

dxp::EndReason reason_for(Side speaker, Outcome o) {
  if (o == Outcome::Draw) return dxp::EndReason::Draw;
  if (o == Outcome::Ongoing) return dxp::EndReason::Unknown;
  const Side winner = o == Outcome::WhiteWins ? Side::White : Side::Black;
  return winner == speaker ? dxp::EndReason::Win : dxp::EndReason::Lose;
}

}  // namespace

DxpPlayer::DxpPlayer(Variant v, DxpEngineSpec spec)
    : dialect_(v, spec.layout),
      spec_(std::move(spec)),
      name_("dxp:" + spec_.host + ":" + std::to_string(spec_.port)) {}

DxpPlayer::~DxpPlayer() {
  if (connection_) connection_->close();
}

std::string DxpPlayer::fail(const std::string& why) {
  broken_ = true;
  in_game_ = false;
  if (connection_) connection_->close();
  return why;
}

TimeControl DxpPlayer::time_control(const TimeControl& match) const {
  TimeControl tc;
  tc.kind = TimeControl::Kind::Clock;
  tc.base = 60.0 * dxp_minutes(match);
  return tc;
}

std::optional<std::string> DxpPlayer::launch() {
  if (broken_) return "connection unusable";
  if (connection_) return std::nullopt;
  const auto until = std::chrono::steady_clock::now() + millis(spec_.connect_retry);
  while (true) {
    connection_ = std::make_unique<DxpConnection>();
    played_ = false;
    const auto e = connection_->connect(spec_.host, spec_.port, millis(spec_.connect_timeout));
    if (!e) return std::nullopt;
    connection_.reset();
    // A follower that is restarting refuses connections for a moment: try again.
    if (std::chrono::steady_clock::now() >= until) return fail(*e);
    std::this_thread::sleep_for(Millis(100));
  }
}

std::optional<std::string> DxpPlayer::request(const dxp::GameRequest& r, bool& closed) {
  closed = false;
  if (!connection_->send(r)) {
    closed = true;
    return "connection closed before GAMEACC";
  }
  const auto deadline = std::chrono::steady_clock::now() + millis(spec_.connect_timeout);
  while (true) {
    dxp::Frame frame;
    const auto read = connection_->receive(frame, deadline);
    if (read == DxpConnection::Read::Timeout) return "no answer to GAMEREQ";
    if (read == DxpConnection::Read::Closed) {
      closed = true;
      return "connection closed before GAMEACC";
    }
    if (!frame.ok()) return "bad DXP message: " + frame.error;
    const auto m = dxp::parse(frame.payload);
    if (!m) return "bad DXP message: " + m.error().message;
    if (const auto* a = std::get_if<dxp::GameAccept>(&*m)) {
      if (!a->name.empty()) name_ = a->name;
      if (a->code != dxp::AcceptCode::Accept)
        return "game refused (GAMEACC code " + std::string(1, static_cast<char>(a->code)) + ")";
      return std::nullopt;
    }
    // Chat, or a late acknowledgement of an earlier GAMEEND: nothing to do.
  }
}

std::optional<std::string> DxpPlayer::start_game(const Game& game, Side side,
                                                 const TimeControl& tc) {
  if (auto e = launch()) return e;
  side_ = side;
  sent_ = game.moves().size();
  const dxp::GameRequest r = dxp::make_request(dialect_, spec_.our_name, side,
                                               static_cast<int>(tc.base / 60), 0, game.position());
  bool closed = false;
  auto error = request(r, closed);
  if (error && closed && played_) {
    // The follower closed the connection after the last game (one connection per process):
    // connect again, as to a follower that is restarting.
    connection_->close();
    connection_.reset();
    if (auto e = launch()) return e;
    error = request(r, closed);
  }
  if (error) return fail(*error);
  in_game_ = true;
  played_ = true;
  return std::nullopt;
}

bool DxpPlayer::forward(const Game& game) {
  const auto moves = game.moves();
  for (; sent_ < moves.size(); ++sent_)
    if (!connection_->send(dxp::move_message(dialect_, moves[sent_], 0))) return false;
  return true;
}

PlayerReply DxpPlayer::get_move(const Game& game, const MoveLimits&, Millis timeout) {
  PlayerReply reply;
  if (!in_game_ || !connection_) {
    reply.detail = fail("no game running on the connection");
    return reply;
  }
  if (!forward(game)) {
    reply.detail = fail("connection lost");
    return reply;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    dxp::Frame frame;
    const auto r = connection_->receive(frame, deadline);
    if (r == DxpConnection::Read::Timeout) {
      reply.status = PlayerReply::Status::TimedOut;
      connection_->send(dxp::Chat{"error: no move in time"});
      reply.detail = fail("no move");
      return reply;
    }
    if (r == DxpConnection::Read::Closed) {
      reply.detail = fail("connection closed");
      return reply;
    }
    if (!frame.ok()) {
      reply.detail = fail("bad DXP message: " + frame.error);
      return reply;
    }
    const auto m = dxp::parse(frame.payload);
    if (!m) {
      reply.detail =
          fail("bad DXP message '" + dxp::printable(frame.payload) + "': " + m.error().message);
      return reply;
    }
    if (const auto* mv = std::get_if<dxp::MoveMessage>(&*m)) {
      reply.text = dxp::move_text(*mv);
      const auto move = dxp::find_move(dialect_, game.position(), *mv);
      if (!move) {
        reply.status = PlayerReply::Status::Illegal;
        reply.detail = move.error();
        connection_->send(dxp::Chat{"error: " + move.error()});
        return reply;  // the game ends on our turn now: end_game sends GAMEEND
      }
      ++sent_;  // the engine knows its own move
      reply.status = PlayerReply::Status::Move;
      reply.move = *move;
      return reply;
    }
    if (const auto* end = std::get_if<dxp::GameEnd>(&*m)) {
      // The engine ends the game on its turn; acknowledge it.
      connection_->send(dxp::GameEnd{dxp::EndReason::Unknown, false});
      in_game_ = false;
      if (end->stop) fail("the engine ended the session");
      if (end->reason == dxp::EndReason::Lose) {
        reply.status = PlayerReply::Status::Resigned;
      } else {
        reply.status = PlayerReply::Status::Crashed;
        reply.detail = end->reason == dxp::EndReason::Draw
                           ? "claimed a draw the rules do not give"
                           : "ended the game (GAMEEND reason " +
                                 std::string(1, static_cast<char>(end->reason)) + ")";
      }
      return reply;
    }
    if (std::holds_alternative<dxp::BackRequest>(*m)) {
      connection_->send(dxp::BackAccept{dxp::BackCode::NotSupported});
    } else if (std::holds_alternative<dxp::GameRequest>(*m)) {
      connection_->send(dxp::GameAccept{spec_.our_name, dxp::AcceptCode::NoGames});
    }
    // Chat and stray acknowledgements are ignored.
  }
}

void DxpPlayer::end_game(const Game& game, Outcome outcome) {
  if (!in_game_ || !connection_ || broken_) return;
  in_game_ = false;
  const Side runner = opponent(side_);  // the side we speak for
  const auto deadline = std::chrono::steady_clock::now() + millis(spec_.ack_timeout);
  auto wait_end = [&](bool ours_sent) {
    // Waits for the engine's GAMEEND; when it plays a move instead (it does not see the end:
    // DXP gave it no history before the opening), we end the game on our turn.
    while (true) {
      dxp::Frame frame;
      if (connection_->receive(frame, deadline) != DxpConnection::Read::Ok || !frame.ok()) {
        if (!ours_sent) fail("no GAMEEND");  // leave a connection in an unknown state
        return;
      }
      const auto m = dxp::parse(frame.payload);
      if (!m) continue;
      if (std::holds_alternative<dxp::GameEnd>(*m)) {
        if (!ours_sent) connection_->send(dxp::GameEnd{dxp::EndReason::Unknown, false});
        return;
      }
      if (std::holds_alternative<dxp::MoveMessage>(*m) && !ours_sent) {
        connection_->send(dxp::GameEnd{reason_for(runner, outcome), false});
        ours_sent = true;
      }
    }
  };
  const bool engine_to_move = game.position().turn() == side_;
  if (engine_to_move && sent_ < game.moves().size() && outcome != Outcome::Ongoing &&
      game.result().outcome != Outcome::Ongoing) {
    // The other engine's move ended the game by the rules: the DXP engine, now to move, is
    // the one to say so.
    if (!forward(game)) {
      fail("connection lost");
      return;
    }
    wait_end(false);
    return;
  }
  // Our turn (or a forfeit): we declare, the engine acknowledges.
  connection_->send(dxp::GameEnd{reason_for(runner, outcome), false});
  wait_end(true);
}

}  // namespace tsuru::match
