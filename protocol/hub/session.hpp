// A Hub session: carries out the client's lines on the engine facade and writes the replies
// through an output callback, so it runs the same over stdin/stdout (tools/hub_command.cpp)
// and in-process in the tests.
//
// Commands: hub, set-param, init, new-game, pos, level, go think|ponder|analyze, ponder-hit,
// stop, ping, quit. While a search runs, ping (answered with pong) and ponder-hit are handled
// at once; any other line first ends the search (its `done` is written) and is then carried
// out, so every go gets exactly one done. stop and ponder-hit with no search running are
// ignored (lidraughts may send stop several times).
//
// Tsuru's extension: variant chinese plays two-player Chinese checkers (chinese_session.hpp).
//
// Error replies, after which the session goes on (see also line.hpp for the syntax errors):
//   error message="bad command"                       unknown command
//   error message="bad position" detail="..."         pos: the old position stays
//   error message="bad move" move=...                 pos moves=: not a move in Hub notation
//   error message="illegal move" move=...             pos moves=: not legal where it is played
//   error message="ambiguous move" move=...           pos moves=: short form of several captures
//   error message="missing name" / "missing value"    set-param without name= or value=
//   error message="unknown parameter" name=...        set-param of a parameter we do not have
//   error message="bad value" name=...                set-param value of the wrong type or range
//   error message="bad value"                         level value that is not a number in range
//   error message="bad argument" detail=...           go without exactly one of think, ponder,
//                                                     analyze (no search starts, no done)
//   error message="no position" detail=..., then a bare done
//                                                     go after a rejected pos
// A pos with a bad position or a bad move leaves no position to search: the next go answers
// the error above and a bare done, never a move of an older position, until a pos is accepted
// (or new-game, or a change of variant, sets the start position).
//
// Output is called from the caller's thread and from the engine's search thread (info, done):
// it must be thread-safe.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include <memory>

#include "engine/engine.hpp"
#include "protocol/hub/chinese_session.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/params.hpp"

namespace tsuru::hub {

class Session {
 public:
  using Output = std::function<void(const std::string& line)>;

  Session(Engine& engine, Output output);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Carries out one input line (its newline may be left on). Returns false after quit.
  bool handle(std::string_view line);
  // The client is gone (EOF on stdin): stops a search at once.
  void end_of_input();

  // State, for tests.
  const Settings& settings() const { return settings_; }
  Variant variant() const { return variant_; }
  const Game& game() const { return game_; }
  const SearchLimits& limits() const { return limits_; }
  // The Chinese checkers mode (variant chinese), or null.
  const ChineseSession* chinese() const { return chinese_.get(); }

 private:
  using Extra = std::initializer_list<std::pair<const char*, std::string>>;

  void send(const Message& m) const;
  void error(const std::string& message, Extra extra = {}) const;
  void finish_search();
  // Engine options with the heavy ones as last applied.
  EngineOptions light_options() const;
  void apply_heavy();

  void on_hub();
  void on_set_param(const Message& m);
  void on_init();
  void on_new_game();
  void on_pos(const Message& m);
  void on_level(const Message& m);
  void on_go(const Message& m);

  Engine& engine_;
  Output output_;
  Settings settings_;
  Variant variant_;      // the rule set in force (settings_.variant once applied)
  bool frysk_ = false;   // from the Frysk! start (settings_.frysk once applied)
  int tt_log2_applied_;  // the table size in force
  Game game_;
  bool has_position_ = true;  // false after a rejected pos, until a good pos or new-game
  SearchLimits limits_;
  // Chinese checkers is not a draughts rule set: `set-param name=variant value=chinese` turns
  // this on, any other variant off; while on, it carries out init, new-game, pos, level, go, stop.
  std::unique_ptr<ChineseSession> chinese_;
};

}  // namespace tsuru::hub
