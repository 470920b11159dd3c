#include "engine/rules/game.hpp"

namespace tsuru {

std::string_view describe(ResultReason r) {
  switch (r) {
    case ResultReason::None:
      return "none";
    case ResultReason::NoLegalMove:
      return "no legal move";
    case ResultReason::Repetition:
      return "threefold repetition";
    case ResultReason::ReversibleMoves:
      return "move-count rule (no man move and no capture)";
    case ResultReason::EndgameLimit:
      return "endgame move limit";
    case ResultReason::MoveCap:
      return "move cap reached";
    case ResultReason::OneKingEach:
      return "one king each";
    case ResultReason::OnePieceEach:
      return "one piece each";
    case ResultReason::KingReached:
      return "first king (breakthrough)";
  }
  return "unknown";
}

std::string_view describe(Outcome o) {
  switch (o) {
    case Outcome::Ongoing:
      return "*";
    case Outcome::WhiteWins:
      return "white wins";
    case Outcome::BlackWins:
      return "black wins";
    case Outcome::Draw:
      return "draw";
  }
  return "unknown";
}

Game::Game(Variant v, const DrawOptions& options) : Game(v, start_position(v), options) {}

Game::Game(Variant v, const Position& start, const DrawOptions& options)
    : Game(v, start, with_rules(v, [&]<class R>(R) { return initial_draw_state<R>(start); }),
           options) {}

Game::Game(Variant v, const Position& start, const DrawState& counters, const DrawOptions& options)
    : variant_(v), options_(options), positions_{start}, states_{counters} {}

bool Game::play(const Move& m) {
  if (!legal_moves().contains(m)) return false;
  const Position next = position().after(m);
  states_.push_back(with_rules(variant_, [&]<class R>(R) {
    return advance_draw_state<R>(states_.back(), position(), m, next);
  }));
  positions_.push_back(next);
  moves_.push_back(m);
  return true;
}

bool Game::undo() {
  if (moves_.empty()) return false;
  moves_.pop_back();
  positions_.pop_back();
  states_.pop_back();
  return true;
}

int Game::repetitions() const {
  // Only positions since the last man move or capture can repeat the current one.
  const auto last = static_cast<std::ptrdiff_t>(positions_.size()) - 1;
  const std::ptrdiff_t window = draw_state().reversible;
  int count = 1;
  for (std::ptrdiff_t i = last - 2; i >= 0 && i >= last - window; i -= 2)
    if (positions_[static_cast<std::size_t>(i)] == position()) ++count;
  return count;
}

GameResult Game::result() const {
  return with_rules(variant_, [&]<class R>(R) {
    GameResult r;
    r.plies_left = plies_to_counter_draw<R>(draw_state(), options_);
    if constexpr (R::kFirstKingWins) {
      // The side that made a king has won (if both have one, in a set-up position, the side
      // that just moved).
      const Position& p = position();
      if (p.kings()) {
        const Side winner = p.kings(opponent(p.turn())) ? opponent(p.turn()) : p.turn();
        r.outcome = winner == Side::White ? Outcome::WhiteWins : Outcome::BlackWins;
        r.reason = ResultReason::KingReached;
        return r;
      }
    }
    if (legal_moves().empty()) {
      // The side to move is blocked or has no pieces: it has lost, or in antidraughts won.
      const Side winner = R::kNoMoveWins ? position().turn() : opponent(position().turn());
      r.outcome = winner == Side::White ? Outcome::WhiteWins : Outcome::BlackWins;
      r.reason = ResultReason::NoLegalMove;
      return r;
    }
    if (repetitions() >= R::kDraws.repetitions) {
      r.outcome = Outcome::Draw;
      r.reason = ResultReason::Repetition;
      return r;
    }
    r.reason = counter_draw<R>(draw_state(), position(), options_);
    if (r.reason != ResultReason::None) r.outcome = Outcome::Draw;
    return r;
  });
}

}  // namespace tsuru
