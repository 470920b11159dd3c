// A game in progress: the start position, the moves played, and everything needed to decide
// the result under the rule set's draw rules (repetition, move counters, endgame limits).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "engine/rules/draw_rules.hpp"
#include "engine/rules/legal.hpp"

namespace tsuru {

enum class Outcome : std::uint8_t { Ongoing, WhiteWins, BlackWins, Draw };

struct GameResult {
  Outcome outcome = Outcome::Ongoing;
  ResultReason reason = ResultReason::None;
  // Plies left before an automatic draw by a move-count rule; -1 when none limits the game.
  int plies_left = -1;
};

std::string_view describe(ResultReason r);
std::string_view describe(Outcome o);

class Game {
 public:
  explicit Game(Variant v, const DrawOptions& options = {});
  Game(Variant v, const Position& start, const DrawOptions& options = {});
  // A game whose start position already has running draw counters (e.g. a PDN FEN's clock).
  Game(Variant v, const Position& start, const DrawState& counters,
       const DrawOptions& options = {});

  Variant variant() const { return variant_; }
  const DrawOptions& options() const { return options_; }
  const Position& position() const { return positions_.back(); }
  const Position& start() const { return positions_.front(); }
  std::span<const Move> moves() const { return moves_; }
  std::span<const Position> positions() const { return positions_; }
  const DrawState& draw_state() const { return states_.back(); }
  MoveList legal_moves() const { return tsuru::legal_moves(variant_, position()); }

  // Plays m if it is legal in the current position; returns whether it was played.
  bool play(const Move& m);
  // Takes back the last move; false when there is none.
  bool undo();

  // How many times the current position (with the same side to move) has occurred.
  int repetitions() const;
  GameResult result() const;

 private:
  Variant variant_;
  DrawOptions options_;
  std::vector<Position> positions_;
  std::vector<Move> moves_;
  std::vector<DrawState> states_;
};

}  // namespace tsuru
