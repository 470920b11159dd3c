#include "engine/rules/board_letters.hpp"

#include "engine/rules/legal.hpp"

namespace tsuru::notation {
namespace {

// The square the i-th letter (from 1) stands for.
Square square_of(const BoardShape& b, const BoardLetters& letters, int i) {
  return b.square(letters.reversed ? b.squares + 1 - i : i);
}

}  // namespace

std::string format_board_letters(Variant v, const Position& pos, const BoardLetters& letters) {
  const BoardShape& b = info(v).board;
  std::string out;
  for (int i = 1; i <= b.squares; ++i) {
    const Square sq = square_of(b, letters, i);
    char c = 'e';
    for (Side s : {Side::White, Side::Black}) {
      const auto side = static_cast<std::size_t>(index(s));
      if (has(pos.pieces(s), sq)) c = has(pos.kings(), sq) ? letters.king[side] : letters.man[side];
    }
    out += c;
  }
  return out;
}

Expected<Position, int> parse_board_letters(Variant v, std::string_view text, Side turn,
                                            const BoardLetters& letters) {
  const BoardShape& b = info(v).board;
  Bitboard pieces[2] = {0, 0};
  Bitboard kings = 0;
  for (int i = 1; i <= b.squares; ++i) {
    const char c = text[static_cast<std::size_t>(i - 1)];
    if (c == 'e') continue;
    const Bitboard sq = bit(square_of(b, letters, i));
    bool known = false;
    for (std::size_t side = 0; side < 2; ++side) {
      if (c != letters.man[side] && c != letters.king[side]) continue;
      known = true;
      pieces[side] |= sq;
      if (c == letters.king[side]) kings |= sq;
    }
    if (!known) return Expected<Position, int>::failure(i);
  }
  return make_position(v, pieces[index(Side::White)], pieces[index(Side::Black)], kings, turn);
}

}  // namespace tsuru::notation
