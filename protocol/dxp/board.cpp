#include "protocol/dxp/board.hpp"

#include <algorithm>

#include "engine/rules/board_letters.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::dxp {

namespace {

// White w W, Black (zwart) z Z.
constexpr notation::BoardLetters kLetters{{'w', 'z'}, {'W', 'Z'}};
// pydraughts' English board: turned round, Black (the first to move) written w.
constexpr notation::BoardLetters kTurnedRound{{'z', 'w'}, {'Z', 'W'}, true};

const notation::BoardLetters& letters(const Dialect& d) {
  return d.layout == Layout::Pydraughts && d.variant == Variant::English ? kTurnedRound : kLetters;
}

// pydraughts numbers these boards from White's near-left square up, row by row.
bool rows_flipped(const Dialect& d) {
  return d.layout == Layout::Pydraughts && notation::pydraughts_flips_rows(d.variant);
}

}  // namespace

std::optional<Layout> parse_layout(std::string_view name) {
  if (name == "pydraughts") return Layout::Pydraughts;
  if (name == "tsuru") return Layout::Tsuru;
  return std::nullopt;
}

std::string_view layout_name(Layout l) {
  return l == Layout::Pydraughts ? "pydraughts" : "tsuru";
}

int wire_number(const Dialect& d, Square sq) {
  const BoardShape& b = info(d.variant).board;
  const int n = b.number(sq);
  return rows_flipped(d) && n > 0 ? notation::flip_rows(d.variant, n) : n;
}

Square wire_square(const Dialect& d, int n) {
  const BoardShape& b = info(d.variant).board;
  if (n < 1 || n > b.squares) return -1;
  return b.square(rows_flipped(d) ? notation::flip_rows(d.variant, n) : n);
}

std::string position_string(const Dialect& d, const Position& pos) {
  return notation::format_board_letters(d.variant, pos, letters(d));
}

Expected<Position> parse_position(const Dialect& d, Side to_move, std::string_view squares) {
  using E = Expected<Position>;
  const Variant v = d.variant;
  const BoardShape& b = info(v).board;
  if (squares.size() != static_cast<std::size_t>(b.squares))
    return E::failure("a position of " + std::to_string(squares.size()) + " squares for " +
                      std::string(info(v).name) + ", which has " + std::to_string(b.squares));
  const auto pos = notation::parse_board_letters(v, squares, to_move, letters(d));
  if (!pos) return E::failure("square " + std::to_string(pos.error()) + " is not one of e w z W Z");
  if (auto problem = notation::check_position(v, *pos)) return E::failure(*problem);
  return *pos;
}

Expected<Position> request_start(const Dialect& d, const GameRequest& r) {
  if (!r.setup) return start_position(d.variant);
  return parse_position(d, r.to_move, r.position);
}

GameRequest make_request(const Dialect& d, const std::string& name, Side follower_side, int minutes,
                         int moves, const Position& start) {
  const Variant v = d.variant;
  GameRequest r;
  r.name = name;
  r.follower_side = follower_side;
  r.minutes = minutes;
  r.moves = moves;
  r.setup = info(v).board.squares != 50 || !(start == start_position(v));
  if (r.setup) {
    r.to_move = start.turn();
    r.position = position_string(d, start);
  }
  return r;
}

MoveMessage move_message(const Dialect& d, const Move& m, int seconds) {
  MoveMessage msg;
  msg.seconds = seconds;
  msg.from = wire_number(d, m.from);
  msg.to = wire_number(d, m.to);
  for (Square sq : squares_of(m.captured)) msg.captured.push_back(wire_number(d, sq));
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

Expected<Move> find_move(const Dialect& d, const Position& pos, const MoveMessage& m) {
  using E = Expected<Move>;
  const Variant v = d.variant;
  auto square = [&](int n) { return wire_square(d, n); };
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
