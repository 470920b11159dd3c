// `tsuru play`: a person against the engine in a terminal. The console reads commands and moves
// line by line from an input stream and writes to an output stream, so it works the same with a
// keyboard, a pipe or a test script; it ends at `quit` or at the end of the input.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "tools/play/draw_offers.hpp"

namespace tsuru::play {

struct PlaySettings {
  Variant variant = Variant::English;
  Level level = Level::Medium;
  Side human = Side::Black;  // the side the person plays
  Position start = start_position(Variant::English);
  std::uint64_t seed = 1;  // the engine's random choices (beginner level)
  int tt_log2 = 20;
  std::string eval_file;             // EngineOptions::eval_file
  std::string egdb_dir = "default";  // endgame databases (EngineOptions::egdb_dir)
  bool egdb_draws = true;            // EngineOptions::egdb_draws
  bool egdb_resign = true;           // EngineOptions::egdb_resign
};

class Console {
 public:
  Console(const PlaySettings& settings, std::istream& in, std::ostream& out);
  // Runs the session to `quit` or the end of the input; returns the exit code (0).
  int run();

 private:
  enum class Ending { None, HumanResigned, EngineResigned, Agreed };

  bool handle(std::string_view line);  // false on quit
  void new_game();
  void show_position();
  void show_result();
  void engine_turn();
  void human_move(std::string_view text);
  void play(const Move& m, bool offer);
  bool over() const;
  Outcome outcome() const;

  void list_moves();
  void undo();
  void offer_draw();
  void accept_draw();
  void resign();
  void save(std::string_view file);
  void set_level(std::string_view name);
  void help();

  std::string side_name(Side s) const;
  std::string describe_move(const Position& before, const Move& m) const;

  PlaySettings settings_;
  std::istream& in_;
  std::ostream& out_;
  Engine engine_;
  Game game_;
  DrawOffers offers_;
  std::vector<DrawOffers> offer_history_;  // the offer state before each move of game_
  bool offer_next_ = false;                // the person offers a draw with the next move
  Ending ending_ = Ending::None;
  Side bottom_;  // the side whose pieces the diagram shows nearest the viewer
};

}  // namespace tsuru::play
