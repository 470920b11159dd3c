// A board written one letter per square, in square-number order, 'e' for an empty square: the
// Hub position string after its side letter (notation.hpp in PDN numbering, hub/notation.hpp in
// the Hub protocol's own) and the DXP position field (dxp/board.hpp). The three differ only in
// their letters and numbering, so they share this code; each checks the length and the position
// and words its errors itself.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "engine/rules/expected.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::notation {

struct BoardLetters {
  std::array<char, 2> man;   // by index(Side)
  std::array<char, 2> king;  // by index(Side)
  bool reversed = false;     // the i-th letter stands for square squares + 1 - i
};

std::string format_board_letters(Variant v, const Position& pos, const BoardLetters& letters);

// The position the letters show with `turn` to move; the text has one letter per square. The
// error is the place (from 1) of the first letter that is neither 'e' nor one of `letters`.
Expected<Position, int> parse_board_letters(Variant v, std::string_view text, Side turn,
                                            const BoardLetters& letters);

}  // namespace tsuru::notation
