#include "protocol/dxp/board.hpp"

#include <algorithm>

#include "engine/legal.hpp"
#include "protocol/board_letters.hpp"
#include "protocol/notation.hpp"

namespace tsuru::dxp {

namespace {

// White w W, Black (zwart) z Z.
constexpr notation::BoardLetters kLetters{{'w', 'z'}, {'W', 'Z'}};

}  // namespace

std::string position_string(Variant v, const Position& pos) {
  return notation::format_board_letters(v, pos, kLetters);
}

Expected<Position> parse_position(Variant v, Side to_move, std::string_view squares) {
  using E = Expected<Position>;
  const BoardShape& b = info(v).board;
  if (squares.size() != static_cast<std::size_t>(b.squares))
    return E::failure("a position of " + std::to_string(squares.size()) + " squares for " +
                      std::string(info(v).name) + ", which has " + std::to_string(b.squares));
  const auto pos = notation::parse_board_letters(v, squares, to_move, kLetters);
  if (!pos) return E::failure("square " + std::to_string(pos.error()) + " is not one of e w z W Z");
  if (auto problem = notation::check_position(v, *pos)) return E::failure(*problem);
  return *pos;
}

Expected<Position> request_start(Variant v, const GameRequest& r) {
  if (!r.setup) return start_position(v);
  return parse_position(v, r.to_move, r.position);
}

GameRequest make_request(Variant v, const std::string& name, Side follower_side, int minutes,
                         int moves, const Position& start) {
  GameRequest r;
  r.name = name;
  r.follower_side = follower_side;
  r.minutes = minutes;
  r.moves = moves;
  r.setup = info(v).board.squares != 50 || !(start == start_position(v));
  if (r.setup) {
    r.to_move = start.turn();
    r.position = position_string(v, start);
  }
  return r;
}

MoveMessage move_message(Variant v, const Move& m, int seconds) {
  const BoardShape& b = info(v).board;
  MoveMessage msg;
  msg.seconds = seconds;
  msg.from = b.number(m.from);
  msg.to = b.number(m.to);
  for (Square sq : squares_of(m.captured)) msg.captured.push_back(b.number(sq));
  std::sort(msg.captured.begin(), msg.captured.end());
  return msg;
}

std::string move_text(const MoveMessage& m) {
  std::string out = std::to_string(m.from);
  out += m.captured.empty() ? '-' : 'x';
  out += std::to_string(m.to);
  for (int c : m.captured) out += "x" + std::to_string(c);
  return out;
}

Expected<Move> find_move(Variant v, const Position& pos, const MoveMessage& m) {
  using E = Expected<Move>;
  const BoardShape& b = info(v).board;
  auto square = [&](int n) { return b.square(n); };
  for (int n : {m.from, m.to})
    if (square(n) < 0) return E::failure("square " + std::to_string(n) + " is not on the board");
  Bitboard captured = 0;
  for (int n : m.captured) {
    if (square(n) < 0) return E::failure("square " + std::to_string(n) + " is not on the board");
    if (has(captured, square(n)))
      return E::failure("captured square " + std::to_string(n) + " listed twice in " +
                        move_text(m));
    captured |= bit(square(n));
  }
  for (const Move& legal : legal_moves(v, pos))
    if (legal.from == square(m.from) && legal.to == square(m.to) && legal.captured == captured)
      return legal;
  return E::failure("illegal move " + move_text(m));
}

}  // namespace tsuru::dxp
