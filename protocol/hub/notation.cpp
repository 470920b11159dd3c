#include "protocol/hub/notation.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "engine/rules/board_letters.hpp"
#include "engine/rules/legal.hpp"

namespace tsuru::hub {
namespace {

// Hub number <-> PDN number (the same map both ways).
int flip(Variant v, int number) {
  return mirrored(v) ? info(v).board.squares + 1 - number : number;
}

// Hub's colour for a side: the first player is W.
bool written_white(Variant v, Side s) {
  return s == info(v).first_to_move;
}

// The letters of a Hub board: w W for the first player, b B for the other; numbered from the
// other side where the rule set is mirrored.
notation::BoardLetters letters(Variant v) {
  notation::BoardLetters l{{'b', 'b'}, {'B', 'B'}, mirrored(v)};
  const auto first = static_cast<std::size_t>(index(info(v).first_to_move));
  l.man[first] = 'w';
  l.king[first] = 'W';
  return l;
}

// How pydraughts 0.6.7 numbers v's moves, from the rules core's (PDN) number.
enum class Client { AsString, Pdn, RowsFlipped };
Client pydraughts_numbering(Variant v) {
  if (v == Variant::English) return Client::Pdn;
  if (notation::pydraughts_flips_rows(v)) return Client::RowsFlipped;
  return Client::AsString;
}

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

std::string_view move_numbers_name(MoveNumbers n) {
  return n == MoveNumbers::Tsuru ? "tsuru" : "pydraughts";
}

std::optional<MoveNumbers> parse_move_numbers(std::string_view name) {
  if (name == "pydraughts") return MoveNumbers::Pydraughts;
  if (name == "tsuru") return MoveNumbers::Tsuru;
  return std::nullopt;
}

std::string_view move_numbers_names() {
  return "pydraughts tsuru";
}

bool mirrored(Variant v) {
  return info(v).first_to_move != Side::White;
}

int hub_number(Variant v, Square sq) {
  return flip(v, info(v).board.number(sq));
}

int move_number(Variant v, Square sq, MoveNumbers n) {
  if (n == MoveNumbers::Tsuru) return hub_number(v, sq);
  const int pdn = info(v).board.number(sq);
  switch (pydraughts_numbering(v)) {
    case Client::Pdn:
      return pdn;
    case Client::RowsFlipped:
      return notation::flip_rows(v, pdn);
    case Client::AsString:
      break;
  }
  return hub_number(v, sq);
}

Square move_square(Variant v, int number, MoveNumbers n) {
  const BoardShape& b = info(v).board;
  if (number < 1 || number > b.squares) return -1;
  if (n == MoveNumbers::Tsuru) return b.square(flip(v, number));
  switch (pydraughts_numbering(v)) {
    case Client::Pdn:
      return b.square(number);
    case Client::RowsFlipped:
      return b.square(notation::flip_rows(v, number));
    case Client::AsString:
      break;
  }
  return b.square(flip(v, number));
}

Expected<Position> parse_position(Variant v, std::string_view text) {
  using E = Expected<Position>;
  if (text.find(':') != std::string_view::npos) return notation::parse_fen(v, text);
  const BoardShape& b = info(v).board;
  if (text.size() != static_cast<std::size_t>(b.squares) + 1)
    return E::failure("a position has " + std::to_string(b.squares + 1) + " characters");
  const Side first = info(v).first_to_move;
  Side turn;
  if (text[0] == 'W')
    turn = first;
  else if (text[0] == 'B')
    turn = opponent(first);
  else
    return E::failure("a position starts with W or B");
  const auto parsed = notation::parse_board_letters(v, text.substr(1), turn, letters(v));
  if (!parsed) return E::failure("bad character at square " + std::to_string(parsed.error()));
  const Position& pos = *parsed;
  for (Side s : {Side::White, Side::Black}) {
    const Bitboard bad = pos.men(s) & b.promotion_row[static_cast<std::size_t>(index(s))];
    if (bad)
      return E::failure("a man on its promotion row at square " +
                        std::to_string(hub_number(v, lsb(bad))));
  }
  if (!pos.pieces(opponent(turn))) return E::failure("the side not to move has no pieces");
  // The rules core's own checks, should it ever have more than the two above.
  if (auto problem = notation::check_position(v, pos)) return E::failure(*problem);
  return pos;
}

std::string format_position(Variant v, const Position& pos) {
  return (written_white(v, pos.turn()) ? "W" : "B") +
         notation::format_board_letters(v, pos, letters(v));
}

Expected<Move, notation::MoveError> parse_move(Variant v, const Position& pos,
                                               std::string_view text, MoveNumbers n) {
  using E = Expected<Move, notation::MoveError>;
  auto malformed = [](std::string why) {
    return E::failure({notation::MoveError::Kind::Malformed, std::move(why)});
  };
  if (text.empty()) return malformed("empty move");
  if (text.size() > 200) return malformed("move text too long");
  // Algebraic squares (`c3-d4`, Turkish `a2-a3`) name squares the same in every convention:
  // every square must then be algebraic, and the rules core reads the move as it is.
  if (is_letter(text[0]) && text[0] != 'x' && text[0] != 'X') {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const bool starts_square = i == 0 || text[i - 1] == '-' || text[i - 1] == 'x' ||
                                 text[i - 1] == 'X' || text[i - 1] == ':';
      if (starts_square && !is_letter(text[i]))
        return malformed("mixed algebraic and numeric squares in move '" + std::string(text) + "'");
    }
    return notation::parse_move(v, pos, text);
  }
  // Translate the convention's numbers to the rules core's square names and let it find the
  // move.
  std::string pdn;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    int number = 0;
    const auto parsed = std::from_chars(text.data() + start, text.data() + i, number);
    const Square sq = start == i || i - start > 3 || parsed.ec != std::errc{}
                          ? Square{-1}
                          : move_square(v, number, n);
    if (sq < 0) return malformed("bad square in move '" + std::string(text) + "'");
    // The rules core's name for the square: its number, or algebraic where squares have none.
    pdn += notation::square_name(v, sq);
    if (i == text.size()) break;
    const char sep = text[i];
    if (sep != '-' && sep != 'x' && sep != 'X')
      return malformed("bad separator in move '" + std::string(text) + "'");
    pdn += sep;
    ++i;
    if (i == text.size()) return malformed("move '" + std::string(text) + "' ends early");
  }
  return notation::parse_move(v, pos, pdn);
}

std::string format_move(Variant v, const Move& m, MoveNumbers n) {
  std::vector<int> captured;
  for (Square sq : squares_of(m.captured)) captured.push_back(move_number(v, sq, n));
  std::sort(captured.begin(), captured.end());
  const char sep = m.is_capture() ? 'x' : '-';
  std::string out = std::to_string(move_number(v, m.from, n));
  out += sep;
  out += std::to_string(move_number(v, m.to, n));
  for (int c : captured) {
    out += sep;
    out += std::to_string(c);
  }
  return out;
}

}  // namespace tsuru::hub
