// Board geometry: how the playable squares of a board map onto the bits of a Bitboard.
//
// Diagonal boards (8x8, 10x10) use the ghost-square layout: squares are numbered row by row
// from the top (Black's back row, square 1) and square s (0-based) lives on bit s + s / Cols,
// i.e. one unused "ghost" bit after every pair of rows. With that gap each diagonal direction
// is one constant shift on every square, and a shift that would wrap round a board edge lands
// on a ghost bit or off the board instead of on a real square.
//
//   10x10: up-left -6, up-right -5, down-left +5, down-right +6  (ghosts at bits 10, 21, 32, 43)
//    8x8 : up-left -5, up-right -4, down-left +4, down-right +5  (ghosts at bits 8, 17, 26)
//
// "Up" is towards square 1. White always moves up, Black down.
#pragma once

#include <array>

#include "engine/rules/types.hpp"

namespace tsuru {

enum class Direction : std::uint8_t { UpLeft = 0, UpRight = 1, DownLeft = 2, DownRight = 3 };

template <int Rows, int Cols>
struct DiagonalGeometry {
  static constexpr int kRows = Rows;
  static constexpr int kCols = Cols;
  static constexpr int kPerRow = Cols / 2;
  static constexpr int kSquares = Rows * Cols / 2;
  static_assert(Rows % 2 == 0 && Cols % 2 == 0);
  static_assert(kSquares + kSquares / Cols <= 64, "board does not fit a 64-bit Bitboard");

  // Bit offsets of the four diagonal directions, indexed by Direction.
  static constexpr std::array<int, 4> kShift = {-(kPerRow + 1), -kPerRow, kPerRow, kPerRow + 1};

  // 0-based square index <-> bit.
  static constexpr Square square_bit(int sq) { return sq + sq / Cols; }
  static constexpr int bit_square(Square b) {
    const int pair = b / (Cols + 1), offset = b % (Cols + 1);
    return offset == Cols ? -1 : pair * Cols + offset;
  }

  // Row 0 is the top row (square 1's row); column 0 is the left edge seen from White's side.
  static constexpr int row_of_square(int sq) { return sq / kPerRow; }
  static constexpr int col_of_square(int sq) {
    return 2 * (sq % kPerRow) + (row_of_square(sq) % 2 == 0 ? 1 : 0);
  }
  static constexpr int square_at(int row, int col) {
    if (row < 0 || row >= Rows || col < 0 || col >= Cols) return -1;
    if ((row + col) % 2 == 0) return -1;  // light square
    return row * kPerRow + col / 2;
  }

  static constexpr Bitboard make_valid() {
    Bitboard b = 0;
    for (int sq = 0; sq < kSquares; ++sq) b |= bit(square_bit(sq));
    return b;
  }
  static constexpr Bitboard kValid = make_valid();

  static constexpr Bitboard make_row(int row) {
    Bitboard b = 0;
    for (int i = 0; i < kPerRow; ++i) b |= bit(square_bit(row * kPerRow + i));
    return b;
  }
  // The row a side's men promote on: White (moving up) on row 0, Black on the last row.
  static constexpr Bitboard promotion_row(Side s) {
    return s == Side::White ? make_row(0) : make_row(Rows - 1);
  }

  // The long diagonal from White's bottom-left corner (a1) to the top-right corner.
  static constexpr Bitboard make_long_diagonal() {
    Bitboard b = 0;
    for (int r = 0; r < Rows; ++r)
      if (square_at(r, Rows - 1 - r) >= 0) b |= bit(square_bit(square_at(r, Rows - 1 - r)));
    return b;
  }
  static constexpr Bitboard kLongDiagonal = make_long_diagonal();

  // kRays[dir][bit]: every square reachable from bit in direction dir on an empty board.
  static constexpr std::array<std::array<Bitboard, 64>, 4> make_rays() {
    std::array<std::array<Bitboard, 64>, 4> rays{};
    constexpr int dr[4] = {-1, -1, 1, 1};
    constexpr int dc[4] = {-1, 1, -1, 1};
    for (int sq = 0; sq < kSquares; ++sq) {
      for (int d = 0; d < 4; ++d) {
        Bitboard ray = 0;
        int r = row_of_square(sq) + dr[d], c = col_of_square(sq) + dc[d];
        while (square_at(r, c) >= 0) {
          ray |= bit(square_bit(square_at(r, c)));
          r += dr[d];
          c += dc[d];
        }
        rays[static_cast<std::size_t>(d)][static_cast<std::size_t>(square_bit(sq))] = ray;
      }
    }
    return rays;
  }
  static constexpr std::array<std::array<Bitboard, 64>, 4> kRays = make_rays();

  static constexpr Bitboard ray(Direction d, Square from) {
    return kRays[static_cast<std::size_t>(d)][static_cast<std::size_t>(from)];
  }
  static constexpr int step(Direction d) { return kShift[static_cast<std::size_t>(d)]; }
};

using Board8 = DiagonalGeometry<8, 8>;
using Board10 = DiagonalGeometry<10, 10>;

static_assert(Board10::kShift[0] == -6 && Board10::kShift[3] == 6);
static_assert(Board8::kShift[1] == -4 && Board8::kShift[2] == 4);
static_assert(Board10::square_bit(49) == 53 && Board8::square_bit(31) == 34);

}  // namespace tsuru
