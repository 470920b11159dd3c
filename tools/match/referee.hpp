// The referee of one game: it asks each engine for its move, checks every move with the rules
// core (Game), keeps the clocks, applies every draw rule (Game::result) and decides the game.
// An engine that crashes, hangs, oversteps its time, answers with an illegal or malformed
// move, or resigns loses the game; nothing an engine does can stop the referee.
#pragma once

#include <array>
#include <string>

#include "tools/match/openings.hpp"
#include "tools/match/player.hpp"
#include "tools/match/time_use.hpp"

namespace tsuru::match {

// Adjudication by the engines' own scores (PlayerReply::score), off unless set: a game both
// engines agree is drawn, or won, ends there, and the reason says so. A ply without a score
// (a book move, an engine that reports none) breaks the run.
struct Adjudication {
  // A draw: from full move draw_from (the opening's moves counted), each engine's last
  // draw_moves scores within +-draw_score centi-men. draw_moves 0: never.
  int draw_from = 0;
  int draw_moves = 0;
  int draw_score = 0;
  // A win: each engine's last win_moves scores at least win_score centi-men for one side (the
  // winner's engine ahead, the loser's behind). win_moves 0: never.
  int win_moves = 0;
  int win_score = 0;
};

// "FROM,MOVES,SCORE" (a draw) or "MOVES,SCORE" (a win), SCORE in men (0.1 = 10 centi-men);
// the error message, or empty.
std::string parse_draw_adjudication(const std::string& text, Adjudication& out);
std::string parse_win_adjudication(const std::string& text, Adjudication& out);

struct RefereeOptions {
  TimeControl tc = TimeControl::fixed_depth(4);
  double margin = 1.0;          // seconds an engine may overstep its budget
  double depth_timeout = 60.0;  // seconds to wait for a move under a fixed depth
  Adjudication adjudication;
};

struct GameRecord {
  int number = 0;  // 1-based, in schedule order
  std::string opening;
  Game game{Variant::International};
  Outcome outcome = Outcome::Ongoing;
  std::string reason;  // "Black has no legal move", "threefold repetition", "White forfeits: ..."
  std::array<std::string, 2> names;  // by Side
  Side engine1_side = Side::White;
  // What each side did with its clock (by Side), whatever the time control.
  std::array<TimeUse, 2> time_use{};
  // Set when the game could not start (Player::start_game failed for `setup_side`): the record
  // is no game, and the match stops.
  std::string setup_error;
  Side setup_side = Side::White;
  // +1 the first engine won, 0 a draw, -1 it lost.
  int engine1_result() const;
};

// Plays one game from `opening` between players[White] and players[Black].
GameRecord play_game(Variant v, const Opening& opening, std::array<Player*, 2> players,
                     const RefereeOptions& options);

}  // namespace tsuru::match
