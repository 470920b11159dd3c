// Where the pattern evaluation's windows lie on the board, and how a window's squares become an
// index (pattern_features.hpp lists the features built from them).
//
// Regions on the diagonal boards: 4x4 windows of the grid at even row and column offsets
// (10x10: offsets 0, 2, 4, 6, sixteen regions; 8x8: offsets 0, 2, 4, nine regions), overlapping
// by two rows or columns; a window holds 8 playable squares, two in each of its rows. On Turkish
// draughts' full 8x8 board: windows of 2 rows by 4 columns at every row offset (0 to 6) and the
// column offsets 0, 2, 4, twenty-one regions overlapping by a row or two columns. Either way a
// region's 8 squares are in window order (row by row, left to right). Its men state gives each
// square 3 values (empty or a king, a man of the side to move, a man of the other side): 3^8 = 6561
// states. Its king state gives each square 5 (empty, own man, other man, own king, other king): 5^8
// = 390,625 states.
//
// Colour symmetry by construction: when Black is to move the board is turned round (square s
// becomes square N-1-s) and the colours swapped. Turning the board maps each window onto the
// window at the mirrored offsets and reverses the order of its squares, which the index tables
// below absorb: no bitboard is ever reversed.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "engine/rules/geometry.hpp"
#include "engine/rules/geometry_lines.hpp"
#include "engine/rules/position.hpp"

namespace tsuru::eval {

inline constexpr int kRegionSquares = 8;
inline constexpr int kRegionStates = 6561;  // 3^8
inline constexpr int kKingStates = 390625;  // 5^8
inline constexpr int kMaxRegions = 21;
inline constexpr int kMaxSquares = 64;

// The diagonal boards (8x8 and 10x10), whose windows follow the ghost-bit layout.
template <class G>
inline constexpr bool kDiagonalBoard = std::is_same_v<G, Board8> || std::is_same_v<G, Board10>;
// Boards the regions fit: the diagonal boards and Turkish draughts' full 8x8 board.
template <class G>
inline constexpr bool kPatternBoard = kDiagonalBoard<G> || std::is_same_v<G, SquareBoard8>;

// Rule sets the pattern evaluation serves: every game, the losing games (antidraughts,
// giveaway) included, since the weights learn whatever the goal rewards.
template <class R>
inline constexpr bool kPatternRules = kPatternBoard<typename R::Geometry>;

// The value in base `Base` of an 8-bit square set, each square a digit 1, in window order
// (forward) and in reversed order (the window seen from the other side of the board).
template <int Base>
struct DigitTables {
  std::array<std::uint32_t, 256> forward{}, reversed{};
};
template <int Base>
constexpr DigitTables<Base> make_digits() {
  DigitTables<Base> t{};
  for (int b = 0; b < 256; ++b) {
    std::uint32_t f = 0, r = 0, p = 1;
    for (int k = 0; k < 8; ++k, p *= Base) {
      if (b & (1 << k)) f += p;
      if (b & (1 << (7 - k))) r += p;
    }
    t.forward[static_cast<std::size_t>(b)] = f;
    t.reversed[static_cast<std::size_t>(b)] = r;
  }
  return t;
}
inline constexpr DigitTables<3> kTernary = make_digits<3>();
inline constexpr DigitTables<5> kQuinary = make_digits<5>();

// The shape of the regions on board G: how many, the first bit of each, the bit offsets of its
// squares from that bit in window order, and gather (those bits of a bitboard shifted down to
// the first one, packed in window order).
template <class G>
struct RegionShape {
  static_assert(kDiagonalBoard<G>);
  static constexpr int kRowOffsets = (G::kRows - 4) / 2 + 1;
  static constexpr int kColOffsets = G::kPerRow - 1;
  static constexpr int kRegions = kRowOffsets * kColOffsets;

  // Region j: row offset 2 * (j / kColOffsets), column offset 2 * (j % kColOffsets).
  static constexpr int base(int j) {
    return G::square_bit((2 * (j / kColOffsets)) * G::kPerRow + j % kColOffsets);
  }
  // Rows two by two share a ghost-bit pair, so the bits lie at 0, 1, P, P+1, 2P+1, 2P+2, 3P+1,
  // 3P+2 (P squares a row).
  static constexpr int P = G::kPerRow;
  static constexpr std::array<int, kRegionSquares> kOffsets = {
      0, 1, P, P + 1, 2 * P + 1, 2 * P + 2, 3 * P + 1, 3 * P + 2};
  static constexpr unsigned gather(Bitboard x) {
    return static_cast<unsigned>((x & 3) | ((x >> (P - 2)) & 0xC) | ((x >> (2 * P - 3)) & 0x30) |
                                 ((x >> (3 * P - 5)) & 0xC0));
  }
};

// Turkish draughts: region j covers rows j / 3 and j / 3 + 1, columns 2 * (j % 3) to
// 2 * (j % 3) + 3 (bit = row * 8 + column).
template <>
struct RegionShape<SquareBoard8> {
  static constexpr int kRowOffsets = 7;
  static constexpr int kColOffsets = 3;
  static constexpr int kRegions = kRowOffsets * kColOffsets;
  static constexpr int base(int j) { return (j / kColOffsets) * 8 + 2 * (j % kColOffsets); }
  static constexpr std::array<int, kRegionSquares> kOffsets = {0, 1, 2, 3, 8, 9, 10, 11};
  static constexpr unsigned gather(Bitboard x) {
    return static_cast<unsigned>((x & 0xF) | ((x >> 4) & 0xF0));
  }
};

template <class G>
struct PatternLayout : RegionShape<G> {
  using Shape = RegionShape<G>;
  static_assert(kPatternBoard<G>);
  static constexpr int kRegions = Shape::kRegions;
  static_assert(kRegions <= kMaxRegions && G::kSquares <= kMaxSquares);

  // The region that turning the board round maps region j onto (on both shapes the regions are
  // numbered so that turning reverses the list).
  static constexpr int rotated(int j) { return kRegions - 1 - j; }

  static constexpr std::array<int, kMaxRegions> make_bases(bool turned) {
    std::array<int, kMaxRegions> b{};
    for (int j = 0; j < kRegions; ++j)
      b[static_cast<std::size_t>(j)] = Shape::base(turned ? rotated(j) : j);
    return b;
  }
  // bases[side to move][j]: where region j of the side to move's view lies on the real board.
  static constexpr std::array<std::array<int, kMaxRegions>, 2> kBases = {make_bases(false),
                                                                         make_bases(true)};

  // masks[side to move][j]: the squares of region j of the side to move's view.
  static constexpr std::array<std::array<Bitboard, kMaxRegions>, 2> make_masks() {
    std::array<std::array<Bitboard, kMaxRegions>, 2> m{};
    for (std::size_t side = 0; side < 2; ++side)
      for (int j = 0; j < kRegions; ++j)
        for (int k : Shape::kOffsets)
          m[side][static_cast<std::size_t>(j)] |=
              bit(kBases[side][static_cast<std::size_t>(j)] + k);
    return m;
  }
  static constexpr std::array<std::array<Bitboard, kMaxRegions>, 2> kMasks = make_masks();

  // square_of[side to move][bit]: the 0-based square of a bit as the side to move sees the board
  // (turned round for Black), -1 off the board.
  static constexpr std::array<std::array<std::int8_t, 64>, 2> make_squares() {
    std::array<std::array<std::int8_t, 64>, 2> s{};
    for (auto& side : s) side.fill(-1);
    for (int sq = 0; sq < G::kSquares; ++sq) {
      const auto b = static_cast<std::size_t>(G::square_bit(sq));
      s[0][b] = static_cast<std::int8_t>(sq);
      s[1][b] = static_cast<std::int8_t>(G::kSquares - 1 - sq);
    }
    return s;
  }
  static constexpr std::array<std::array<std::int8_t, 64>, 2> kSquareOf = make_squares();

  static constexpr Bitboard make_left_half() {
    Bitboard b = 0;
    for (int sq = 0; sq < G::kSquares; ++sq)
      if (G::col_of_square(sq) < G::kCols / 2) b |= bit(G::square_bit(sq));
    return b;
  }
  static constexpr Bitboard kLeftHalf = make_left_half();

  // The squares of the even columns (0, 2, ...) of the real board; turned round, they are the odd
  // ones, so the side to move's even columns are these for White and the rest for Black.
  static constexpr Bitboard make_even_columns() {
    Bitboard b = 0;
    for (int sq = 0; sq < G::kSquares; ++sq)
      if (G::col_of_square(sq) % 2 == 0) b |= bit(G::square_bit(sq));
    return b;
  }
  static constexpr Bitboard kEvenColumns = make_even_columns();

  // tempo_planes[side][b]: the squares where a man of side has advanced a number of rows from
  // its own back row whose bit b is set (so that the rows advanced are four popcounts).
  static constexpr std::array<std::array<Bitboard, 4>, 2> make_tempo_planes() {
    std::array<std::array<Bitboard, 4>, 2> planes{};
    for (int sq = 0; sq < G::kSquares; ++sq) {
      const int from_white = G::kRows - 1 - G::row_of_square(sq);
      const int advanced[2] = {from_white, G::kRows - 1 - from_white};
      for (std::size_t side = 0; side < 2; ++side)
        for (std::size_t b = 0; b < 4; ++b)
          if (advanced[side] & (1 << b)) planes[side][b] |= bit(G::square_bit(sq));
    }
    return planes;
  }
  static constexpr std::array<std::array<Bitboard, 4>, 2> kTempoPlanes = make_tempo_planes();
};

// Wide windows: 4 rows of 3 squares (6 columns of the grid) at even row offsets and every
// column offset that fits (10x10: 4 x 3 = 12 windows; 8x8: 3 x 2 = 6), 12 squares each, their
// men state in base 3 as the regions' (3^12 = 531,441 states). Row k of a window starting on an
// even row holds W consecutive squares of its grid row, at bit offset k P + k / 2 from the
// window's first bit (the ghost bit after every second row).
inline constexpr int kWideRows = 4;
inline constexpr int kWidePerRow = 3;
inline constexpr int kWideSquares = kWideRows * kWidePerRow;
inline constexpr int kWideStates = 531441;  // 3^12
inline constexpr int kMaxWide = 12;

template <int Base, int Bits>
struct WideDigits {
  std::array<std::uint32_t, 1u << Bits> forward{}, reversed{};
};
template <int Base, int Bits>
constexpr WideDigits<Base, Bits> make_wide_digits() {
  WideDigits<Base, Bits> t{};
  for (unsigned b = 0; b < (1u << Bits); ++b) {
    std::uint32_t f = 0, r = 0, p = 1;
    for (int k = 0; k < Bits; ++k, p *= Base) {
      if (b & (1u << k)) f += p;
      if (b & (1u << (Bits - 1 - k))) r += p;
    }
    t.forward[b] = f;
    t.reversed[b] = r;
  }
  return t;
}
inline constexpr WideDigits<3, kWideSquares> kWideTernary = make_wide_digits<3, kWideSquares>();

template <class G>
struct WideLayout {
  static_assert(kDiagonalBoard<G>);
  static constexpr int P = G::kPerRow;
  static constexpr int kRowOffsets = (G::kRows - kWideRows) / 2 + 1;
  static constexpr int kColOffsets = P - kWidePerRow + 1;
  static constexpr int kWindows = kRowOffsets * kColOffsets;
  static_assert(kWindows <= kMaxWide);

  // Window j: first grid row 2 * (j / kColOffsets), first square of the row j % kColOffsets.
  static constexpr int base(int j) {
    return G::square_bit(2 * (j / kColOffsets) * P + j % kColOffsets);
  }
  static constexpr int rotated(int j) { return kWindows - 1 - j; }
  static constexpr unsigned gather(Bitboard x) {
    unsigned out = 0;
    for (int k = 0; k < kWideRows; ++k)
      out |= static_cast<unsigned>((x >> (k * P + k / 2)) & ((1u << kWidePerRow) - 1))
             << (k * kWidePerRow);
    return out;
  }
  static constexpr std::array<std::array<int, kMaxWide>, 2> make_bases() {
    std::array<std::array<int, kMaxWide>, 2> b{};
    for (int j = 0; j < kWindows; ++j) {
      b[0][static_cast<std::size_t>(j)] = base(j);
      b[1][static_cast<std::size_t>(j)] = base(rotated(j));
    }
    return b;
  }
  static constexpr std::array<std::array<int, kMaxWide>, 2> kBases = make_bases();
};

// Turkish draughts has no wide windows (its regions already span four columns).
template <>
struct WideLayout<SquareBoard8> {
  static constexpr int kWindows = 0;
};

// Window j's men state of a layout L (its bases and gather) for the side to move: own men and
// the other side's men as seen by it, read through the layout's ternary table.
template <class L, class Ternary>
inline int window_state(Bitboard own, Bitboard other, int j, bool black_to_move,
                        const Ternary& ternary) {
  const int b = L::kBases[black_to_move][static_cast<std::size_t>(j)];
  const unsigned o = L::gather(own >> b), t = L::gather(other >> b);
  const auto& table = black_to_move ? ternary.reversed : ternary.forward;
  return static_cast<int>(table[o] + 2 * table[t]);
}

// Wide window j's men state for the side to move.
template <class G>
inline int wide_state(Bitboard own, Bitboard other, int j, bool black_to_move) {
  return window_state<WideLayout<G>>(own, other, j, black_to_move, kWideTernary);
}

// Region j's men state for the side to move (own men, the other side's men as seen by it).
template <class G>
inline int region_state(Bitboard own, Bitboard other, int j, bool black_to_move) {
  return window_state<PatternLayout<G>>(own, other, j, black_to_move, kTernary);
}

// The pieces of both sides, from the side to move's point of view.
struct Sides {
  Bitboard own_men, other_men, own_kings, other_kings;
};

// Region j's king state for the side to move, or -1 when the window holds no king.
template <class G>
[[gnu::always_inline]] inline int king_region_state(const Sides& s, int j, bool black_to_move) {
  using L = PatternLayout<G>;
  if (!((s.own_kings | s.other_kings) & L::kMasks[black_to_move][static_cast<std::size_t>(j)]))
    return -1;
  const int b = L::kBases[black_to_move][static_cast<std::size_t>(j)];
  const unsigned ok = L::gather(s.own_kings >> b), tk = L::gather(s.other_kings >> b);
  const unsigned om = L::gather(s.own_men >> b), tm = L::gather(s.other_men >> b);
  const auto& t = black_to_move ? kQuinary.reversed : kQuinary.forward;
  return static_cast<int>(t[om] + 2 * t[tm] + 3 * t[ok] + 4 * t[tk]);
}

// Sum of row numbers of men counted from their own back row: rows advanced.
template <class G>
inline int tempo(Bitboard men, bool black) {
  const auto& planes = PatternLayout<G>::kTempoPlanes[black];
  return popcount(men & planes[0]) + 2 * popcount(men & planes[1]) + 4 * popcount(men & planes[2]) +
         8 * popcount(men & planes[3]);
}

template <class G>
inline int balance(Bitboard men) {
  using L = PatternLayout<G>;
  return std::abs(popcount(men & L::kLeftHalf) - popcount(men & ~L::kLeftHalf));
}

}  // namespace tsuru::eval
