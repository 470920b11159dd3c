// Boards seen as sets of lines, for the line generator (movegen_lines.hpp): the rule sets whose
// pieces move or capture along more than the four diagonals of the ghost-square layout
// (Frisian: orthogonal captures; Turkish: orthogonal moves on all 64 squares), or whose kings
// capture unlike the FMJD ones (Thai).
//
// A line geometry numbers its directions 0..kCount-1 and gives, per direction, every square's
// ray plus one bit shift and two masks, so that "the neighbour in direction d" and "pieces that
// can jump in direction d" are one shift each on any board: the masks keep only the squares that
// have one (two) squares beyond them in that direction, so a shift never wraps round an edge.
#pragma once

#include <array>
#include <utility>

#include "engine/rules/geometry.hpp"

namespace tsuru {

// The full 8x8 board of Turkish draughts: every square is used; bit = row * 8 + col, row 0 is
// rank 8 (Black's back rank), column 0 is the a-file.
struct SquareBoard8 {
  static constexpr int kRows = 8;
  static constexpr int kCols = 8;
  static constexpr int kPerRow = 8;
  static constexpr int kSquares = 64;
  static constexpr Square square_bit(int sq) { return sq; }
  static constexpr int bit_square(Square b) { return b; }
  static constexpr int row_of_square(int sq) { return sq / kCols; }
  static constexpr int col_of_square(int sq) { return sq % kCols; }
  static constexpr int square_at(int row, int col) {
    return row < 0 || row >= kRows || col < 0 || col >= kCols ? -1 : row * kCols + col;
  }
  static constexpr Bitboard kValid = ~Bitboard{0};
  static constexpr Bitboard make_row(int row) { return Bitboard{0xFF} << (8 * row); }
  static constexpr Bitboard promotion_row(Side s) {
    return s == Side::White ? make_row(0) : make_row(kRows - 1);
  }
};

template <class Board, std::size_t N>
struct LineTables {
  std::array<std::array<Bitboard, 64>, N> rays{};
  std::array<int, N> shift{};
  std::array<Bitboard, N> one{};  // squares with a square beyond them in the direction
  std::array<Bitboard, N> two{};  // ... with two squares beyond them
};

// Builds the tables from (row, column) steps; every direction must be one constant bit shift.
template <class Board, std::size_t N>
constexpr LineTables<Board, N> make_line_tables(const std::array<std::pair<int, int>, N>& steps) {
  LineTables<Board, N> t{};
  for (std::size_t d = 0; d < N; ++d) {
    const auto [dr, dc] = steps[d];
    bool shift_known = false;
    for (int sq = 0; sq < Board::kSquares; ++sq) {
      const int r = Board::row_of_square(sq), c = Board::col_of_square(sq);
      const Square from = Board::square_bit(sq);
      Bitboard ray = 0;
      int n = 0;
      for (int rr = r + dr, cc = c + dc; Board::square_at(rr, cc) >= 0; rr += dr, cc += dc, ++n) {
        const Square to = Board::square_bit(Board::square_at(rr, cc));
        ray |= bit(to);
        if (n == 0) {
          if (!shift_known) t.shift[d] = to - from;
          shift_known = true;
          // A direction that is not one constant shift cannot use the step masks.
          if (to - from != t.shift[d]) throw "direction is not a constant bit shift";
        }
      }
      t.rays[d][static_cast<std::size_t>(from)] = ray;
      if (n >= 1) t.one[d] |= bit(from);
      if (n >= 2) t.two[d] |= bit(from);
    }
  }
  return t;
}

// A line geometry: Board for square names and rows, Steps for the directions.
template <class Board, std::size_t N, const std::array<std::pair<int, int>, N>& Steps,
          const std::array<int, N>& Reverse>
struct Lines {
  using BoardType = Board;
  static constexpr int kCount = static_cast<int>(N);
  static constexpr LineTables<Board, N> kTables = make_line_tables<Board, N>(Steps);

  static constexpr Bitboard ray(int d, Square from) {
    return kTables.rays[static_cast<std::size_t>(d)][static_cast<std::size_t>(from)];
  }
  static constexpr int shift_of(int d) { return kTables.shift[static_cast<std::size_t>(d)]; }
  static constexpr bool positive(int d) { return shift_of(d) > 0; }
  static constexpr int reverse(int d) { return Reverse[static_cast<std::size_t>(d)]; }
  // The nearest set bit of b seen from a square looking in direction d.
  static constexpr Square nearest(Bitboard b, int d) { return positive(d) ? lsb(b) : msb(b); }
  static constexpr Square farthest(Bitboard b, int d) { return positive(d) ? msb(b) : lsb(b); }
  // The neighbours in direction d of the squares of b.
  static constexpr Bitboard step(Bitboard b, int d) {
    return shift(b & kTables.one[static_cast<std::size_t>(d)], shift_of(d));
  }
  // The squares of b that have a target next to them in direction d and an empty square after.
  static constexpr Bitboard jumpers(Bitboard b, int d, Bitboard targets, Bitboard empty) {
    const int s = shift_of(d);
    return b & kTables.two[static_cast<std::size_t>(d)] & shift(targets, -s) & shift(empty, -2 * s);
  }
};

namespace lines_detail {
// Diagonals first, numbered as Direction (UpLeft, UpRight, DownLeft, DownRight); then the
// orthogonals Up, Down, Left, Right. On the dark squares of a 10x10 board the orthogonal
// neighbour is two rows or two files away.
inline constexpr std::array<std::pair<int, int>, 8> kDiagonalAndStraight = {
    {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}, {-2, 0}, {2, 0}, {0, -2}, {0, 2}}};
inline constexpr std::array<int, 8> kDiagonalAndStraightReverse = {3, 2, 1, 0, 5, 4, 7, 6};
inline constexpr std::array<std::pair<int, int>, 4> kDiagonal = {
    {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}};
inline constexpr std::array<int, 4> kDiagonalReverse = {3, 2, 1, 0};
// Up, Down, Left, Right on the full board.
inline constexpr std::array<std::pair<int, int>, 4> kOrthogonal = {
    {{-1, 0}, {1, 0}, {0, -1}, {0, 1}}};
inline constexpr std::array<int, 4> kOrthogonalReverse = {1, 0, 3, 2};
}  // namespace lines_detail

// Frisian: the 10x10 dark squares, diagonal and orthogonal lines.
using FrisianLines = Lines<Board10, 8, lines_detail::kDiagonalAndStraight,
                           lines_detail::kDiagonalAndStraightReverse>;
// Thai: the 8x8 dark squares, diagonals only.
using Diagonal8Lines = Lines<Board8, 4, lines_detail::kDiagonal, lines_detail::kDiagonalReverse>;
// Turkish: every square of the 8x8 board, orthogonal lines only.
using OrthogonalLines =
    Lines<SquareBoard8, 4, lines_detail::kOrthogonal, lines_detail::kOrthogonalReverse>;

namespace line_dir {
// Direction numbers of FrisianLines and Diagonal8Lines (diagonals) ...
inline constexpr int kUpLeft = 0, kUpRight = 1, kDownLeft = 2, kDownRight = 3;
inline constexpr int kUpStraight = 4, kDownStraight = 5, kLeftStraight = 6, kRightStraight = 7;
// ... and of OrthogonalLines.
inline constexpr int kUp = 0, kDown = 1, kLeft = 2, kRight = 3;
}  // namespace line_dir

static_assert(FrisianLines::shift_of(4) == -11 && FrisianLines::shift_of(7) == 1);
static_assert(OrthogonalLines::shift_of(0) == -8 && OrthogonalLines::shift_of(3) == 1);
static_assert(Diagonal8Lines::shift_of(0) == Board8::kShift[0]);

}  // namespace tsuru
