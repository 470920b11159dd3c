#include "tools/play/board_view.hpp"

#include <cstdio>

#include "engine/rules/notation.hpp"

namespace tsuru::play {
namespace {

// The bit shown in display cell (r, c), or -1 for a light square.
Square cell_square(const BoardShape& b, int r, int c, Side bottom) {
  // The shape's own orientation (row 0 = square 1's row, column 0 = White's left) is the
  // board seen from White; Black's view turns it half round.
  const int row = bottom == Side::White ? r : b.rows - 1 - r;
  const int col = bottom == Side::White ? c : b.cols - 1 - c;
  for (int n = 1; n <= b.squares; ++n) {
    const Square sq = b.square(n);
    if (b.row_of_bit[static_cast<std::size_t>(sq)] == row &&
        b.col_of_bit[static_cast<std::size_t>(sq)] == col)
      return sq;
  }
  return -1;
}

std::string cell_text(Variant v, const Position& pos, Square sq) {
  if (sq < 0) return "   ";
  const bool king = has(pos.kings(), sq);
  if (has(pos.pieces(Side::White), sq)) return king ? " W " : " w ";
  if (has(pos.pieces(Side::Black), sq)) return king ? " B " : " b ";
  char buf[8];
  std::snprintf(buf, sizeof buf, "%2d ", info(v).board.number(sq));
  return buf;
}

}  // namespace

std::string render_board(Variant v, const Position& pos, Side bottom) {
  const BoardShape& b = info(v).board;
  // Every row and every column holds playable squares: name the frame after them.
  std::string files = "    ";
  for (int c = 0; c < b.cols; ++c) {
    for (int r = 0; r < b.rows; ++r) {
      const Square sq = cell_square(b, r, c, bottom);
      if (sq < 0) continue;
      files += "  ";
      files += notation::square_algebraic(v, sq)[0];
      if (c + 1 < b.cols) files += ' ';
      break;
    }
  }
  std::string rule = "    +";
  for (int c = 0; c < b.cols; ++c) rule += "---+";

  std::string out = files + '\n' + rule + '\n';
  for (int r = 0; r < b.rows; ++r) {
    std::string rank;
    for (int c = 0; c < b.cols && rank.empty(); ++c) {
      const Square sq = cell_square(b, r, c, bottom);
      if (sq >= 0) rank = notation::square_algebraic(v, sq).substr(1);
    }
    char label[8];
    std::snprintf(label, sizeof label, "%3s |", rank.c_str());
    out += label;
    for (int c = 0; c < b.cols; ++c) out += cell_text(v, pos, cell_square(b, r, c, bottom)) + '|';
    out += ' ' + rank + '\n' + rule + '\n';
  }
  return out + files + '\n';
}

}  // namespace tsuru::play
