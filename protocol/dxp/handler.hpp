// The DXP dialogue of one connection: a thin adapter between the message codec and the Engine
// facade. It is the referee of its games: it keeps the authoritative Game (every incoming move
// must be legal), a clock per side, and declares the game ends that fall on its own turn (no
// legal move, rule draws, the request's move limit). Bad input from the peer gets a chat
// diagnostic; a bad move or malformed field also ends the game (E0); nothing the peer sends
// stops the process or leaves it waiting for ever.
//
// Pondering (options.ponder): after our move, the engine searches the position after the reply
// its principal variation expects, on the peer's time. When the peer plays that reply, the
// search goes on as our move's search, its clock starting then (Engine::ponder_hit); any other
// reply stops it and a fresh search starts.
//
// Threading: everything runs on the io_context's thread; the engine's callbacks come from its
// search thread and are posted back, tagged with the search they belong to, so a result that
// arrives after a take-back, an error or the end of the game is dropped.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "engine/engine.hpp"
#include "protocol/dxp/board.hpp"
#include "protocol/dxp/clock.hpp"
#include "protocol/dxp/framer.hpp"
#include "protocol/dxp/message.hpp"

namespace tsuru::dxp {

// What the handler needs from its connection.
class Transport {
 public:
  virtual ~Transport() = default;
  // Queues one message; the transport adds the NUL and writes it in one piece.
  virtual void send(const std::string& payload) = 0;
  // Closes the connection once the queued messages are written.
  virtual void close() = 0;
};

struct HandlerOptions {
  Variant variant = Variant::International;
  // How 8x8 and Turkish squares and positions are written (board.hpp); both peers must agree.
  Layout layout = Layout::Pydraughts;
  std::string name = "Tsuru";
  EngineOptions engine;
  // Initiator: the games to request. Openings are start positions, each played twice (we take
  // White in odd-numbered games, Black in even ones); none = the rule set's start position.
  bool initiator = false;
  int games = 2;
  int minutes = 5;
  int moves = 75;
  std::vector<Position> openings;
  // Seconds to wait for the acknowledgement of our GAMEEND before going on without it.
  double ack_timeout = 10;
  // Initiator: seconds to wait for the answer to a GAMEREQ.
  double accept_timeout = 60;
  // Seconds per move in a game requested with 000 minutes.
  double untimed_move_time = 1;
  // Ponder on the peer's time (see above).
  bool ponder = false;
  // A peer is given this much beyond its clock (or, untimed, beyond 10 minutes) to move before
  // the game is ended.
  double peer_grace = 30;
};

// One game, finished or abandoned, as the handler saw it.
struct GameRecord {
  int number = 0;  // 1, 2, ... within the connection
  Game game{Variant::International};
  std::string white, black;  // player names
  Side our_side = Side::White;
  Outcome outcome = Outcome::Ongoing;  // Ongoing: ended without a result
  std::string reason;
  int minutes = 0;
  int moves = 0;
};

struct SessionSummary {
  int games = 0;
  int wins = 0, draws = 0, losses = 0, unfinished = 0;
  int protocol_errors = 0;  // bad input received from the peer
  int ponder_hits = 0;      // the peer played the reply we pondered on
  int ponder_misses = 0;    // ... another one
  bool refused = false;     // initiator: the peer refused a game request
  bool complete = false;    // initiator: every requested game was played
};

class GameHandler : public std::enable_shared_from_this<GameHandler> {
 public:
  using GameCallback = std::function<void(const GameRecord&)>;

  GameHandler(boost::asio::io_context& io, HandlerOptions options, int session_id,
              GameCallback on_game = {});
  ~GameHandler();
  GameHandler(const GameHandler&) = delete;
  GameHandler& operator=(const GameHandler&) = delete;

  // The transport must outlive the handler's use of it (the session owns the handler).
  void attach(Transport* transport) { transport_ = transport; }
  // The connection is up: an initiator sends its first request.
  void start();
  void on_frame(const Frame& frame);
  // The connection is gone (peer closed it, or an error): a game in progress ends unfinished.
  void on_disconnect();
  // Clean shutdown (a signal): end a game in progress with stop = 1 and close.
  void shutdown();

  const SessionSummary& summary() const { return summary_; }
  // No game requested, in progress or ending: the connection only waits for the peer.
  bool idle() const { return phase_ == Phase::Idle; }

 private:
  enum class Phase { Idle, AwaitAccept, Playing, AwaitAck, Closed };

  void send(const Message& m);
  void close();
  void on_message(const Message& m);
  void on_request(const GameRequest& r);
  void on_accept(const GameAccept& a);
  void on_move(const MoveMessage& m);
  void on_game_end(const GameEnd& e);
  void on_back_request(const BackRequest& b);

  void send_request();
  void begin_game(const Position& start, Side our_side, int minutes, int moves);
  void next_turn();
  void our_turn();
  void peer_turn();
  void think();
  // The search limits of our move, as the clocks stand now.
  SearchLimits our_limits(double& guard) const;
  void go(const SearchLimits& limits, std::uint64_t id);
  void arm_guard(std::uint64_t id, double guard);
  void ponder(const BestMove& best);
  void on_best(std::uint64_t id, const BestMove& best);
  void declare(EndReason reason, Outcome outcome, const std::string& why);
  void adjudicate();
  // On our turn in a position the databases decide (EngineOptions egdb_resign, egdb_draws):
  // resign a loss (E1) or declare a draw (E2), each after a chat line; true when it did.
  bool database_end();
  void error(const std::string& text, bool ends_game);
  void stop_search();
  void finish_game(Outcome outcome, const std::string& reason);
  void await_ack();
  void after_game(bool peer_stop);
  bool want_stop() const;
  bool our_turn_now() const;
  Dialect dialect() const { return {options_.variant, options_.layout}; }
  void log_in(const std::string& payload) const;

  boost::asio::io_context& io_;
  HandlerOptions options_;
  int id_;
  GameCallback on_game_;
  Transport* transport_ = nullptr;
  Engine engine_;

  Phase phase_ = Phase::Idle;
  bool shutting_down_ = false;
  SessionSummary summary_;
  int game_number_ = 0;
  std::string peer_name_ = "?";
  // The game in progress (or the last one).
  Game game_;
  Side our_side_ = Side::White;
  GameClock clock_;
  int minutes_ = 0, moves_ = 0;
  Position request_start_;  // initiator: the start position of the request awaiting an answer
  // A game end that our own move brought about; the peer should declare it, and if it plays
  // on instead, we declare it on our next turn.
  struct PendingEnd {
    EndReason reason;
    Outcome outcome;
    std::string why;
  };
  std::optional<PendingEnd> pending_end_;

  bool thinking_ = false;
  bool pondering_ = false;  // a ponder search runs on ponder_move_
  Move ponder_move_{};
  std::uint64_t search_id_ = 0;
  Score last_score_ = 0;

  boost::asio::steady_timer guard_timer_;  // our time limit: stops the search
  boost::asio::steady_timer peer_timer_;   // the peer's time limit
  boost::asio::steady_timer wait_timer_;   // acknowledgement / accept timeouts
};

}  // namespace tsuru::dxp
