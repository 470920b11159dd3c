// An engine that speaks Hub on stdin/stdout (`hub:CMD`): the runner spawns CMD under /bin/sh
// and plays the GUI's part of the dialogue (docs/hub.md) with the Hub codec of
// protocol/hub/: handshake, set-param for the rule set and the user's parameters, init; then
// per move `pos` with the whole game (start position and every move, so the engine sees
// repetitions), `level` and `go think`, until `done`. Every read has a timeout; an engine that
// exits, hangs or breaks the protocol is marked unusable and replaced for the next game.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tools/child_process.hpp"
#include "tools/match/player.hpp"

namespace tsuru::match {

struct HubEngineSpec {
  std::string command;
  std::vector<std::pair<std::string, std::string>> params;  // set-param name=value
  double startup_timeout = 30;  // seconds for the handshake and for init
};

class HubPlayer : public Player {
 public:
  HubPlayer(Variant v, HubEngineSpec spec);
  ~HubPlayer() override;

  // Starts the engine and runs the handshake (start_game does it when needed); an error
  // message when the engine cannot be used.
  std::optional<std::string> launch();

  std::string name() const override { return name_; }
  // The endgame databases the engine's id line names (Tsuru's `egdb` field: english:4,...);
  // empty when it names none or the engine does not say.
  const std::string& databases() const { return databases_; }
  std::optional<std::string> start_game(const Game& game, Side side,
                                        const TimeControl& tc) override;
  PlayerReply get_move(const Game& game, const MoveLimits& limits,
                       std::chrono::milliseconds timeout) override;
  void end_game(const Game&, Outcome) override {}
  bool usable() const override { return !broken_; }

 private:
  bool send(const std::string& line);
  // Marks the engine broken and ends its process; returns the reason given.
  std::string fail(const std::string& why);
  std::string exit_detail();

  Variant variant_;
  HubEngineSpec spec_;
  std::unique_ptr<tools::ChildProcess> process_;
  std::string name_;
  std::string databases_;
  bool broken_ = false;
};

}  // namespace tsuru::match
