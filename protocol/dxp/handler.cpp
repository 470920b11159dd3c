#include "protocol/dxp/handler.hpp"

#include <cmath>
#include <cstdio>

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "engine/rules/notation.hpp"
#include "protocol/dxp/board.hpp"

namespace tsuru::dxp {
namespace {

// An assessment this far from level (in centi-men) decides a game at the move limit.
constexpr Score kAdjudicationMargin = 200;

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(std::max(0.0, s)));
}

Outcome win_for(Side s) {
  return s == Side::White ? Outcome::WhiteWins : Outcome::BlackWins;
}

const char* reason_text(EndReason r) {
  switch (r) {
    case EndReason::Unknown:
      return "no result";
    case EndReason::Lose:
      return "loses";
    case EndReason::Draw:
      return "draw";
    case EndReason::Win:
      return "wins";
  }
  return "?";
}

}  // namespace

GameHandler::GameHandler(boost::asio::io_context& io, HandlerOptions options, int session_id,
                         GameCallback on_game)
    : io_(io),
      options_(std::move(options)),
      id_(session_id),
      on_game_(std::move(on_game)),
      game_(options_.variant),
      guard_timer_(io),
      peer_timer_(io),
      wait_timer_(io) {
  engine_.set_options(options_.engine);
}

GameHandler::~GameHandler() {
  engine_.stop();
}

void GameHandler::send(const Message& m) {
  if (!transport_ || phase_ == Phase::Closed) return;
  const std::string payload = format(m);
  spdlog::info("[dxp {}] > {}", id_, printable(payload, 4 * kMaxPayload));
  transport_->send(payload);
}

void GameHandler::close() {
  stop_search();
  guard_timer_.cancel();
  peer_timer_.cancel();
  wait_timer_.cancel();
  if (phase_ == Phase::Closed) return;
  phase_ = Phase::Closed;
  if (transport_) transport_->close();
}

void GameHandler::log_in(const std::string& payload) const {
  spdlog::info("[dxp {}] < {}", id_, printable(payload, 4 * kMaxPayload));
}

bool GameHandler::our_turn_now() const {
  return game_.position().turn() == our_side_;
}

bool GameHandler::want_stop() const {
  return shutting_down_ || (options_.initiator && game_number_ >= options_.games);
}

void GameHandler::start() {
  if (options_.initiator) send_request();
}

void GameHandler::on_frame(const Frame& frame) {
  if (phase_ == Phase::Closed) return;
  log_in(frame.payload);
  if (!frame.ok()) {
    error(frame.error, false);
    return;
  }
  const auto message = parse(frame.payload);
  if (!message) {
    // An unknown type may be a later protocol's message: only a known message with bad fields
    // breaks the game. A request we cannot read is refused, not left unanswered (the peer would
    // wait for our GAMEACC for ever), and is no reason to end a game in progress.
    const bool malformed = message.error().kind == ParseError::Kind::Malformed;
    const bool request = malformed && frame.payload.starts_with('R');
    error(message.error().message, malformed && !request);
    if (request)
      send(GameAccept{options_.name,
                      options_.initiator ? AcceptCode::NoGames : AcceptCode::NotThisGame});
    return;
  }
  on_message(*message);
}

void GameHandler::on_message(const Message& m) {
  std::visit(
      [&](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, GameRequest>) {
          on_request(msg);
        } else if constexpr (std::is_same_v<T, GameAccept>) {
          on_accept(msg);
        } else if constexpr (std::is_same_v<T, MoveMessage>) {
          on_move(msg);
        } else if constexpr (std::is_same_v<T, GameEnd>) {
          on_game_end(msg);
        } else if constexpr (std::is_same_v<T, Chat>) {
          spdlog::info("[dxp {}] chat from {}: {}", id_, peer_name_, printable(msg.text));
        } else if constexpr (std::is_same_v<T, BackRequest>) {
          on_back_request(msg);
        } else {
          spdlog::warn("[dxp {}] BACKACC without a BACKREQ of ours: ignored", id_);
        }
      },
      m);
}

// ---- Game requests ----------------------------------------------------------------------------

void GameHandler::on_request(const GameRequest& r) {
  if (phase_ == Phase::Playing) {
    spdlog::warn("[dxp {}] GAMEREQ during a game: refused, the game goes on", id_);
    send(GameAccept{options_.name, AcceptCode::NotThisGame});
    return;
  }
  if (options_.initiator) {
    spdlog::warn("[dxp {}] GAMEREQ received, but we are the initiator", id_);
    send(GameAccept{options_.name, AcceptCode::NoGames});
    return;
  }
  if (phase_ == Phase::AwaitAck) {
    // A new request in place of the acknowledgement of our GAMEEND: tolerated.
    spdlog::info("[dxp {}] GAMEREQ in place of the acknowledgement of our GAMEEND", id_);
    wait_timer_.cancel();
    phase_ = Phase::Idle;
  }
  if (r.version > kVersion) {
    spdlog::warn("[dxp {}] GAMEREQ version {} refused (we speak version {})", id_, r.version,
                 kVersion);
    send(GameAccept{options_.name, AcceptCode::WrongVersion});
    return;
  }
  if (shutting_down_) {
    send(GameAccept{options_.name, AcceptCode::NoGames});
    return;
  }
  const auto start = request_start(dialect(), r);
  if (!start) {
    spdlog::warn("[dxp {}] GAMEREQ refused: {}", id_, start.error());
    send(Chat{"error: cannot play this position: " + start.error()});
    send(GameAccept{options_.name, AcceptCode::NotThisGame});
    return;
  }
  peer_name_ = r.name.empty() ? "?" : r.name;
  ++game_number_;
  send(GameAccept{options_.name, AcceptCode::Accept});
  begin_game(*start, r.follower_side, r.minutes, r.moves);
}

void GameHandler::send_request() {
  ++game_number_;
  const int n = game_number_;
  const auto& openings = options_.openings;
  request_start_ = openings.empty()
                       ? start_position(options_.variant)
                       : openings[static_cast<std::size_t>((n - 1) / 2) % openings.size()];
  our_side_ = n % 2 == 1 ? Side::White : Side::Black;
  send(make_request(dialect(), options_.name, opponent(our_side_), options_.minutes, options_.moves,
                    request_start_));
  phase_ = Phase::AwaitAccept;
  wait_timer_.expires_after(seconds(options_.accept_timeout));
  wait_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || self->phase_ != Phase::AwaitAccept) return;
    spdlog::error("[dxp {}] no answer to our GAMEREQ within {} s", self->id_,
                  self->options_.accept_timeout);
    self->close();
  });
}

void GameHandler::on_accept(const GameAccept& a) {
  if (phase_ != Phase::AwaitAccept) {
    error("GAMEACC without a GAMEREQ of ours", false);
    return;
  }
  wait_timer_.cancel();
  peer_name_ = a.name.empty() ? "?" : a.name;
  if (a.code != AcceptCode::Accept) {
    static const char* const kWhy[] = {"accepted", "wrong version", "not this game", "no games"};
    spdlog::error("[dxp {}] {} refused game {}: {}", id_, peer_name_, game_number_,
                  kWhy[static_cast<int>(a.code) - '0']);
    summary_.refused = true;
    close();
    return;
  }
  begin_game(request_start_, our_side_, options_.minutes, options_.moves);
}

// ---- Playing ------------------------------------------------------------------------------------

void GameHandler::begin_game(const Position& start, Side our_side, int minutes, int moves) {
  stop_search();
  pending_end_.reset();
  last_score_ = 0;
  game_ = Game(options_.variant, start);
  our_side_ = our_side;
  minutes_ = minutes;
  moves_ = moves;
  clock_ = GameClock(minutes, moves);
  // A seed of its own for each game, so that random choices (the beginner level) differ from
  // game to game and the match is still reproducible.
  EngineOptions engine = options_.engine;
  engine.seed = options_.engine.seed + static_cast<std::uint64_t>(game_number_ - 1);
  engine_.set_options(engine);
  engine_.new_game();
  phase_ = Phase::Playing;
  spdlog::info("[dxp {}] game {} starts: we play {}, {} min, {} moves, {}", id_, game_number_,
               our_side == Side::White ? "white" : "black", minutes, moves,
               position_string(dialect(), start));
  clock_.start_turn(start.turn(), Clock::now());
  next_turn();
}

void GameHandler::next_turn() {
  if (our_turn_now())
    our_turn();
  else
    peer_turn();
}

void GameHandler::our_turn() {
  peer_timer_.cancel();
  if (pending_end_) {
    const auto [reason, outcome, why] = *pending_end_;
    declare(reason, outcome, why);
    return;
  }
  const GameResult r = game_.result();
  if (r.reason == ResultReason::NoLegalMove) {
    // We cannot move: lost, or in antidraughts won.
    declare(r.outcome == win_for(our_side_) ? EndReason::Win : EndReason::Lose, r.outcome,
            std::string(describe(r.reason)));
    return;
  }
  if (r.outcome == Outcome::Draw) {
    declare(EndReason::Draw, Outcome::Draw, std::string(describe(r.reason)));
    return;
  }
  if (moves_ > 0 && game_.moves().size() >= 2 * static_cast<std::size_t>(moves_)) {
    adjudicate();
    return;
  }
  if (database_end()) return;
  think();
}

bool GameHandler::database_end() {
  const EngineOptions& o = options_.engine;
  if (!o.egdb_draws && !o.egdb_resign) return false;
  const auto verdict = engine_.database_verdict(game_);
  if (verdict == DatabaseVerdict::Loss && o.egdb_resign) {
    send(Chat{"game ended: the endgame databases say we have lost; we resign"});
    declare(EndReason::Lose, win_for(opponent(our_side_)), "resigned: an endgame database loss");
    return true;
  }
  if (verdict == DatabaseVerdict::Draw && o.egdb_draws) {
    send(Chat{"game ended: the endgame databases say the position is drawn"});
    declare(EndReason::Draw, Outcome::Draw, "an endgame database draw");
    return true;
  }
  return false;
}

SearchLimits GameHandler::our_limits(double& guard) const {
  const auto now = Clock::now();
  SearchLimits limits;
  guard = 0;
  if (clock_.timed()) {
    const double left = clock_.remaining(our_side_, now);
    limits.time = std::max(0.01, left);
    limits.moves_to_go = clock_.moves_to_go(our_side_);
    // The engine's time manager keeps its own reserve; this guard holds even when a level
    // replaces the clock by a fixed depth.
    guard = std::max(0.0, left - std::min(0.1, left * 0.05));
  } else {
    limits.move_time = options_.untimed_move_time;
  }
  return limits;
}

void GameHandler::think() {
  if (pondering_) {
    const bool hit = !game_.moves().empty() && game_.moves().back() == ponder_move_;
    if (hit) {
      // The search already under way becomes our move's: its clock starts now.
      ++summary_.ponder_hits;
      pondering_ = false;
      thinking_ = true;
      spdlog::info("[dxp {}] ponder hit", id_);
      double guard = 0;
      our_limits(guard);
      engine_.ponder_hit();
      arm_guard(search_id_, guard);
      return;
    }
    ++summary_.ponder_misses;
    spdlog::info("[dxp {}] ponder miss", id_);
    stop_search();
  }
  double guard = 0;
  const SearchLimits limits = our_limits(guard);
  engine_.set_position(game_);
  const std::uint64_t id = ++search_id_;
  thinking_ = true;
  go(limits, id);
  arm_guard(id, guard);
}

// Starts search id on the engine; its score and best move come back on the I/O thread.
void GameHandler::go(const SearchLimits& limits, std::uint64_t id) {
  auto weak = weak_from_this();
  boost::asio::io_context& io = io_;
  engine_.go(
      limits,
      [weak, id, &io](const SearchInfo& info) {
        boost::asio::post(io, [weak, id, score = info.score] {
          if (auto self = weak.lock(); self && self->search_id_ == id) self->last_score_ = score;
        });
      },
      [weak, id, &io](const BestMove& best) {
        boost::asio::post(io, [weak, id, best] {
          if (auto self = weak.lock()) self->on_best(id, best);
        });
      });
}

void GameHandler::arm_guard(std::uint64_t id, double guard) {
  if (!clock_.timed()) return;
  guard_timer_.expires_after(seconds(guard));
  guard_timer_.async_wait([weak = weak_from_this(), id](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || self->search_id_ != id || !self->thinking_) return;
    spdlog::warn("[dxp {}] our clock is running out: search stopped", self->id_);
    self->engine_.stop();
  });
}

// Searches the position after the reply best expects, on the peer's time. The search's limits
// are our next move's (our clock stands still meanwhile); they apply from the hit on.
void GameHandler::ponder(const BestMove& best) {
  // The beginner's moves are partly random: a search of its own each, never a pondered one.
  if (!options_.ponder || !best.has_ponder || pending_end_ ||
      options_.engine.level == Level::Beginner)
    return;
  Game next = game_;
  if (!next.legal_moves().contains(best.ponder) || !next.play(best.ponder)) return;
  if (next.result().outcome != Outcome::Ongoing || next.legal_moves().empty()) return;
  double guard = 0;
  SearchLimits limits = our_limits(guard);
  limits.ponder = true;
  engine_.set_position(next);
  const std::uint64_t id = ++search_id_;
  pondering_ = true;
  ponder_move_ = best.ponder;
  spdlog::info("[dxp {}] pondering on {}", id_,
               notation::format_move(options_.variant, best.ponder));
  go(limits, id);
}

void GameHandler::on_best(std::uint64_t id, const BestMove& best) {
  if (id != search_id_ || !thinking_ || phase_ != Phase::Playing) return;
  thinking_ = false;
  guard_timer_.cancel();
  if (!best.has_move || !game_.legal_moves().contains(best.move)) {
    spdlog::error("[dxp {}] the engine gave no legal move", id_);
    declare(EndReason::Unknown, Outcome::Ongoing, "internal error: no move from the engine");
    return;
  }
  const auto now = Clock::now();
  const double used = clock_.end_turn(now);
  const Move m = best.move;
  game_.play(m);
  send(move_message(dialect(), m, static_cast<int>(std::lround(used))));
  spdlog::debug("[dxp {}] move took {:.3f} s, {:.3f} s left", id_, used,
                clock_.remaining(our_side_));
  clock_.start_turn(opponent(our_side_), now);
  // Our move may have ended the game; the peer, now to move, should say so.
  const GameResult r = game_.result();
  if (r.reason == ResultReason::NoLegalMove)
    pending_end_ = {r.outcome == win_for(our_side_) ? EndReason::Win : EndReason::Lose, r.outcome,
                    std::string(describe(r.reason))};
  else if (r.outcome == Outcome::Draw)
    pending_end_ = {EndReason::Draw, Outcome::Draw, std::string(describe(r.reason))};
  peer_turn();
  ponder(best);
}

void GameHandler::peer_turn() {
  const Side peer = opponent(our_side_);
  const double limit =
      (clock_.timed() ? std::max(0.0, clock_.remaining(peer, Clock::now())) : 600.0) +
      options_.peer_grace;
  peer_timer_.expires_after(seconds(limit));
  peer_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || self->phase_ != Phase::Playing || self->our_turn_now()) return;
    self->error("no move within the time limit", true);
  });
}

void GameHandler::on_move(const MoveMessage& m) {
  if (phase_ != Phase::Playing) {
    error("move " + move_text(m) + " while no game is running", false);
    return;
  }
  if (our_turn_now()) {
    error("move out of turn " + move_text(m), true);
    return;
  }
  const auto move = find_move(dialect(), game_.position(), m);
  if (!move) {
    error(move.error(), true);
    return;
  }
  peer_timer_.cancel();
  const auto now = Clock::now();
  clock_.end_turn(now);
  game_.play(*move);
  clock_.start_turn(our_side_, now);
  our_turn();
}

void GameHandler::adjudicate() {
  const Score s = last_score_;
  EndReason reason = EndReason::Draw;
  Outcome outcome = Outcome::Draw;
  if (s >= kAdjudicationMargin) {
    reason = EndReason::Win;
    outcome = win_for(our_side_);
  } else if (s <= -kAdjudicationMargin) {
    reason = EndReason::Lose;
    outcome = win_for(opponent(our_side_));
  }
  char text[120];
  std::snprintf(text, sizeof text, "move limit of %d moves reached, assessment %+.2f", moves_,
                s / 100.0);
  send(Chat{std::string("game ended: ") + text});
  declare(reason, outcome, text);
}

// ---- Game ends ----------------------------------------------------------------------------------

void GameHandler::declare(EndReason reason, Outcome outcome, const std::string& why) {
  stop_search();
  send(GameEnd{reason, want_stop()});
  finish_game(outcome, why);
  await_ack();
}

void GameHandler::await_ack() {
  phase_ = Phase::AwaitAck;
  wait_timer_.expires_after(seconds(options_.ack_timeout));
  wait_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || self->phase_ != Phase::AwaitAck) return;
    spdlog::warn("[dxp {}] no acknowledgement of our GAMEEND within {} s: going on", self->id_,
                 self->options_.ack_timeout);
    self->after_game(false);
  });
}

void GameHandler::on_game_end(const GameEnd& e) {
  if (phase_ == Phase::Playing) {
    if (our_turn_now())
      spdlog::warn("[dxp {}] GAMEEND on our turn (only the side to move may end): accepted", id_);
    const Side peer = opponent(our_side_);
    Outcome outcome = Outcome::Ongoing;
    if (e.reason == EndReason::Lose) outcome = win_for(our_side_);
    if (e.reason == EndReason::Win) outcome = win_for(peer);
    if (e.reason == EndReason::Draw) outcome = Outcome::Draw;
    std::string why = peer_name_ + " " + reason_text(e.reason);
    // A position the rules decide (the side to move has no move, a rule draw) is scored by
    // the board, whatever the message says: some peers always end with reason 0.
    if (const GameResult board = game_.result();
        board.outcome != Outcome::Ongoing && board.outcome != outcome) {
      if (e.reason != EndReason::Unknown)
        spdlog::warn("[dxp {}] {} ended the game with '{}', the board says {}", id_, peer_name_,
                     reason_text(e.reason), describe(board.outcome));
      outcome = board.outcome;
      why = std::string(describe(board.reason)) + ", ended by " + peer_name_ + " (" +
            reason_text(e.reason) + ")";
    }
    finish_game(outcome, why);
    // The acknowledgement: never with a reason of our own.
    send(GameEnd{EndReason::Unknown, e.stop || want_stop()});
    after_game(e.stop);
    return;
  }
  if (phase_ == Phase::AwaitAck) {
    after_game(e.stop);
    return;
  }
  // No game running: the late acknowledgement of an earlier GAMEEND. Not acknowledged.
  spdlog::info("[dxp {}] GAMEEND outside a game: taken as an acknowledgement", id_);
  if (e.stop) close();
}

void GameHandler::after_game(bool peer_stop) {
  wait_timer_.cancel();
  phase_ = Phase::Idle;
  if (peer_stop || want_stop()) {
    close();
    return;
  }
  if (options_.initiator) send_request();
}

void GameHandler::finish_game(Outcome outcome, const std::string& reason) {
  stop_search();
  guard_timer_.cancel();
  peer_timer_.cancel();
  phase_ = Phase::Idle;
  ++summary_.games;
  if (outcome == Outcome::Ongoing)
    ++summary_.unfinished;
  else if (outcome == Outcome::Draw)
    ++summary_.draws;
  else if (outcome == win_for(our_side_))
    ++summary_.wins;
  else
    ++summary_.losses;
  if (options_.initiator && game_number_ >= options_.games) summary_.complete = true;

  GameRecord record;
  record.number = game_number_;
  record.game = game_;
  record.our_side = our_side_;
  record.white = our_side_ == Side::White ? options_.name : peer_name_;
  record.black = our_side_ == Side::Black ? options_.name : peer_name_;
  record.outcome = outcome;
  record.reason = reason;
  record.minutes = minutes_;
  record.moves = moves_;
  spdlog::info("[dxp {}] game {} over after {} plies: {} ({})", id_, game_number_,
               game_.moves().size(), describe(outcome), reason);
  if (on_game_) on_game_(record);
}

// ---- Errors, take-backs, shutdown ---------------------------------------------------------------

void GameHandler::error(const std::string& text, bool ends_game) {
  ++summary_.protocol_errors;
  spdlog::warn("[dxp {}] protocol error: {}", id_, text);
  send(Chat{"error: " + text});
  if (!ends_game || phase_ != Phase::Playing) return;
  stop_search();
  send(GameEnd{EndReason::Unknown, want_stop()});
  finish_game(Outcome::Ongoing, "protocol error: " + text);
  await_ack();
}

void GameHandler::stop_search() {
  guard_timer_.cancel();
  if (!thinking_ && !pondering_) return;
  thinking_ = false;
  pondering_ = false;
  ++search_id_;  // its best move, when it comes, is dropped
  engine_.stop();
}

void GameHandler::on_back_request(const BackRequest& b) {
  if (phase_ != Phase::Playing) {
    spdlog::warn("[dxp {}] BACKREQ while no game is running: declined", id_);
    send(BackAccept{BackCode::Decline});
    return;
  }
  // Full moves are numbered as in PDN: the rule set's first player opens each move number.
  const Side first = info(options_.variant).first_to_move;
  const long ply = 2L * (b.move_number - 1) + (b.to_move == first ? 0 : 1) -
                   (game_.start().turn() == first ? 0 : 1);
  if (ply < 0 || ply > static_cast<long>(game_.moves().size())) {
    spdlog::warn("[dxp {}] BACKREQ to move {}{}: no such position in this game: declined", id_,
                 b.move_number, side_char(b.to_move));
    send(BackAccept{BackCode::Decline});
    return;
  }
  stop_search();
  pending_end_.reset();
  while (static_cast<long>(game_.moves().size()) > ply) game_.undo();
  clock_.restart_turn(game_.position().turn(), Clock::now());
  spdlog::info("[dxp {}] took back to ply {}", id_, ply);
  send(BackAccept{BackCode::Accept});
  next_turn();
}

void GameHandler::on_disconnect() {
  if (phase_ == Phase::Playing) finish_game(Outcome::Ongoing, "peer disconnected");
  if (phase_ != Phase::Closed) spdlog::info("[dxp {}] connection closed", id_);
  close();
}

void GameHandler::shutdown() {
  shutting_down_ = true;
  if (phase_ == Phase::Closed) return;
  if (phase_ == Phase::Playing) {
    send(Chat{"shutting down"});
    send(GameEnd{EndReason::Unknown, true});
    finish_game(Outcome::Ongoing, "shutdown");
  }
  close();
}

}  // namespace tsuru::dxp
