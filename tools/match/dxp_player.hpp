// An engine reached over DXP (`dxp:HOST:PORT`): the runner connects and acts as Initiator with
// the DXP codec of protocol/dxp/. Per game it sends GAMEREQ with the position the engines take
// over (a 'B' start: DXP cannot carry the opening moves), then forwards the other engine's
// moves and reads this engine's replies; at the end it settles GAMEEND as the protocol wants
// (only the side to move may send the first one; the other side acknowledges).
//
// Time: DXP knows only minutes per game. The engine is asked for whole minutes, and the
// referee keeps its clock by them: under --tc the base rounded up to a minute (no increment),
// under --movetime one minute per started second of move time (about 60 moves' worth), under
// --depth ten minutes. A connection that breaks, hangs or sends garbage during a game makes the
// engine lose the game; the next game reconnects.
//
// Connections: some followers (Scan 2.0) serve one connection per process and exit when it
// closes, and are restarted by a script between games. So the runner opens no connection it does
// not play on, keeps one connection for game after game, and when the follower has closed it
// connects again, retrying for `connect_retry` seconds while the follower restarts. A connection
// that cannot be made, or fails before the follower's GAMEACC (or a refused game), is a setup
// error: start_game reports it and the match stops; it is never a game. The engine's name is
// the one its GAMEACC gives.
#pragma once

#include <memory>
#include <string>

#include "protocol/dxp/board.hpp"
#include "tools/match/player.hpp"

namespace tsuru::match {

class DxpConnection;

struct DxpEngineSpec {
  std::string host;
  int port = 0;
  std::string our_name = "Tsuru match";
  dxp::Layout layout = dxp::Layout::Pydraughts;  // 8x8 and Turkish squares (dxp/board.hpp)
  double connect_timeout = 10;                   // seconds, also for the answer to GAMEREQ
  double connect_retry = 5;  // seconds to go on trying while connections are refused
  double ack_timeout = 5;    // seconds to wait for the other side's GAMEEND
};

class DxpPlayer : public Player {
 public:
  DxpPlayer(Variant v, DxpEngineSpec spec);
  ~DxpPlayer() override;

  // Connects, retrying while the connection is refused (start_game does it when needed); an
  // error message when it cannot. The connection is kept for the games that follow.
  std::optional<std::string> launch();

  std::string name() const override { return name_; }
  TimeControl time_control(const TimeControl& match) const override;
  std::optional<std::string> start_game(const Game& game, Side side,
                                        const TimeControl& tc) override;
  PlayerReply get_move(const Game& game, const MoveLimits& limits,
                       std::chrono::milliseconds timeout) override;
  void end_game(const Game& game, Outcome outcome) override;
  bool usable() const override { return !broken_; }

 private:
  std::string fail(const std::string& why);
  // Sends the moves of game the engine has not seen yet.
  bool forward(const Game& game);
  // Sends the request and reads the answer; `closed` is set when the connection turned out to be
  // closed before any answer (the follower went away after the previous game).
  std::optional<std::string> request(const dxp::GameRequest& r, bool& closed);

  dxp::Dialect dialect_;
  DxpEngineSpec spec_;
  std::unique_ptr<DxpConnection> connection_;
  std::string name_;
  bool broken_ = false;
  bool in_game_ = false;  // a game is running on the connection
  bool played_ = false;   // a game was played on the connection
  Side side_ = Side::White;
  std::size_t sent_ = 0;  // plies of the game the engine knows
};

}  // namespace tsuru::match
