// The Hub session's Chinese checkers mode (Tsuru's extension, docs/hub.md "Chinese checkers"):
// after `set-param name=variant value=chinese`, the session hands init, new-game, pos, level,
// go and stop to this adapter, which drives the Chinese checkers engine (engine/chinese/) with
// the notation of docs/notation.md: `pos pos=R:R112,...:B1,... moves="113-104 7-15"`,
// `done move=116x103` (a jump with every landing). The other commands (hub, set-param, ping,
// quit) stay the session's; level, seed and tt-size come from the session's parameters.
//
// Errors, after which the session goes on, as for draughts: "bad position" (detail), "bad move"
// (not a move in the notation), "illegal move" (not legal where it is played, or played after
// the game ended), "no position" then a bare done (go after a rejected pos).
#pragma once

#include <functional>
#include <string>

#include "engine/chinese/engine.hpp"
#include "protocol/hub/line.hpp"

namespace tsuru::hub {

class ChineseSession {
 public:
  using Output = std::function<void(const std::string& line)>;

  explicit ChineseSession(Output output) : output_(std::move(output)) {}
  ~ChineseSession() { finish_search(); }

  // One of init, new-game, pos, level, go, stop; options are the session's engine settings.
  void handle(const Message& m, const chinese::EngineOptions& options);
  void finish_search();

  const chinese::Game& game() const { return game_; }

 private:
  void error(const std::string& message, const std::string& name = {},
             const std::string& value = {}) const;
  void on_pos(const Message& m);
  void on_go(const Message& m);

  Output output_;
  chinese::Engine engine_;
  chinese::Game game_;
  bool has_position_ = true;
  SearchLimits limits_;
};

}  // namespace tsuru::hub
