#include "engine/chinese/game.hpp"

#include <algorithm>

namespace tsuru::chinese {

std::string_view describe(Outcome o) {
  switch (o) {
    case Outcome::Ongoing:
      return "ongoing";
    case Outcome::RedWins:
      return "Red wins";
    case Outcome::BlueWins:
      return "Blue wins";
    case Outcome::Draw:
      return "draw";
  }
  return "ongoing";
}

std::string_view describe(Reason r) {
  switch (r) {
    case Reason::None:
      return "";
    case Reason::AllHome:
      return "all ten pieces home";
    case Reason::Repetition:
      return "threefold repetition";
    case Reason::NoMoves:
      return "no legal move";
  }
  return "";
}

bool Game::play(Move m) {
  if (result().outcome != Outcome::Ongoing) return false;
  const MoveList moves = legal_moves(position());
  if (std::find(moves.begin(), moves.end(), m) == moves.end()) return false;
  positions_.push_back(position().after(m));
  moves_.push_back(m);
  return true;
}

bool Game::undo() {
  if (moves_.empty()) return false;
  positions_.pop_back();
  moves_.pop_back();
  return true;
}

int Game::repetitions() const {
  const Position& now = position();
  return static_cast<int>(std::count(positions_.begin(), positions_.end(), now));
}

Result Game::result() const {
  const Position& pos = position();
  if (pos.has_won(Side::Red)) return {Outcome::RedWins, Reason::AllHome};
  if (pos.has_won(Side::Blue)) return {Outcome::BlueWins, Reason::AllHome};
  if (repetitions() >= 3) return {Outcome::Draw, Reason::Repetition};
  if (legal_moves(pos).empty()) return {Outcome::Draw, Reason::NoMoves};
  return {};
}

}  // namespace tsuru::chinese
