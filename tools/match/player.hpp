// What the referee needs from an engine, whatever protocol it speaks. A player is one engine
// instance used for one game after another; when it fails (crash, hang, broken protocol) it
// loses the game, and the scheduler replaces it before the next one.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/rules/game.hpp"
#include "tools/match/time_control.hpp"

namespace tsuru::match {

struct PlayerReply {
  enum class Status {
    Move,      // `move` is the engine's move (the referee still checks it is legal)
    Illegal,   // the engine's answer names no legal move: text is what it sent, detail why
    NoMove,    // the engine says it has no move
    Resigned,  // the engine gave the game up
    Crashed,   // the process or connection died, or the protocol broke; detail says how
    TimedOut,  // no answer in time
  };
  Status status = Status::Crashed;
  Move move{};
  std::string text;
  std::string detail;
  // The engine's last score before its move, in centi-men from its own side (a Hub engine's
  // last `info score`); none when it gave none (a book move, a DXP engine). Adjudication reads it.
  std::optional<int> score;
};

class Player {
 public:
  virtual ~Player() = default;
  // The engine's name for tables and PDN tags.
  virtual std::string name() const = 0;
  // The time control the engine actually plays under: the match's, unless its protocol
  // cannot express it (DXP knows only minutes per game); the referee keeps its clock by it.
  virtual TimeControl time_control(const TimeControl& match) const { return match; }
  // Prepares a game that starts with `game` (its opening already played); the player will
  // play `side`. An error message when the engine cannot play: a setup error (the engine cannot
  // be started, or reached, or refuses the game), which stops the match; it is never a game.
  virtual std::optional<std::string> start_game(const Game& game, Side side,
                                                const TimeControl& tc) = 0;
  // The engine's move in game (its side is to move); give up after timeout.
  virtual PlayerReply get_move(const Game& game, const MoveLimits& limits,
                               std::chrono::milliseconds timeout) = 0;
  // The game is over (result from White's point of view); `reason` for players that report it.
  virtual void end_game(const Game& game, Outcome outcome) = 0;
  // False once the engine has failed: the scheduler makes a new one for the next game.
  virtual bool usable() const = 0;
};

// Makes the player of engine 1 or 2 for one concurrency slot.
using PlayerFactory = std::function<std::unique_ptr<Player>(int engine)>;

}  // namespace tsuru::match
