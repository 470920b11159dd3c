// The features of the pattern evaluation, shared by the evaluation (pattern.hpp) and the trainer
// (tools/train/trainer.cpp), always from the side to move's point of view.
//
// Regions: 4x4 windows of the grid at even row and column offsets (10x10: offsets 0, 2, 4, 6,
// sixteen regions; 8x8: offsets 0, 2, 4, nine regions), overlapping by two rows or columns. A
// window holds 8 playable squares, two in each of its rows; each square is empty (or holds a
// king), holds a man of the side to move or a man of the other side: 3^8 = 6561 states, one
// weight each per region and per phase (weights in pattern_weights.hpp).
//
// Colour symmetry by construction: when Black is to move the board is turned round (square s
// becomes square N-1-s) and the colours swapped, so a position and its colour-reversed copy
// (board turned round, colours swapped, the other side to move) have the same features. Turning
// the board maps each window onto the window at the mirrored offsets and reverses the order of
// its squares (row by row, left to right), which the index tables below absorb: no bitboard is
// ever reversed.
//
// Linear terms (one weight each per phase): men and kings (own minus other's), tempo (rows
// advanced by own men minus the other side's), and each side's balance (men on the left half
// against men on the right half, as an absolute difference). The phase is the number of pieces
// on the board: all of them weigh the opening set, none the endgame set, linearly between.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "engine/rules/geometry.hpp"
#include "engine/rules/position.hpp"

namespace tsuru::eval {

inline constexpr int kRegionSquares = 8;
inline constexpr int kRegionStates = 6561;  // 3^8
inline constexpr int kPhases = 2;           // 0 = opening set, 1 = endgame set
inline constexpr int kMaxRegions = 16;

enum Linear : int { kMen, kKings, kTempo, kOwnBalance, kOtherBalance, kLinearCount };

// Boards the regions fit: the 8x8 and 10x10 diagonal boards.
template <class G>
inline constexpr bool kPatternBoard = std::is_same_v<G, Board8> || std::is_same_v<G, Board10>;

// Rule sets the pattern evaluation serves: diagonal boards, and not antidraughts (whose
// evaluation turns material and mobility round; Turkish has a square board).
template <class R>
inline constexpr bool kPatternRules = kPatternBoard<typename R::Geometry> && !R::kNoMoveWins;

// Base-3 value of an 8-bit square set, in window order (kTernary) and reversed (kTernaryReversed:
// the window seen from the other side of the board).
struct TernaryTables {
  std::array<std::uint16_t, 256> forward{}, reversed{};
};
constexpr TernaryTables make_ternary() {
  TernaryTables t{};
  for (int b = 0; b < 256; ++b) {
    int f = 0, r = 0, p = 1;
    for (int k = 0; k < 8; ++k, p *= 3) {
      if (b & (1 << k)) f += p;
      if (b & (1 << (7 - k))) r += p;
    }
    t.forward[static_cast<std::size_t>(b)] = static_cast<std::uint16_t>(f);
    t.reversed[static_cast<std::size_t>(b)] = static_cast<std::uint16_t>(r);
  }
  return t;
}
inline constexpr TernaryTables kTernary = make_ternary();

template <class G>
struct PatternLayout {
  static_assert(kPatternBoard<G>);
  static constexpr int kRowOffsets = (G::kRows - 4) / 2 + 1;
  static constexpr int kColOffsets = G::kPerRow - 1;
  static constexpr int kRegions = kRowOffsets * kColOffsets;
  static_assert(kRegions <= kMaxRegions);

  // The first bit of region j (row offset 2 * (j / kColOffsets), column offset 2 * (j %
  // kColOffsets)); its squares lie at these offsets from it, in window order.
  static constexpr int base(int j) {
    return G::square_bit((2 * (j / kColOffsets)) * G::kPerRow + j % kColOffsets);
  }
  // The region that turning the board round maps region j onto.
  static constexpr int rotated(int j) { return kRegions - 1 - j; }

  // The window's 8 bits, from a bitboard shifted down to its base: rows two by two share a
  // ghost-bit pair, so the bits lie at 0, 1, P, P+1, 2P+1, 2P+2, 3P+1, 3P+2 (P squares a row).
  static constexpr unsigned gather(Bitboard x) {
    constexpr int P = G::kPerRow;
    return static_cast<unsigned>((x & 3) | ((x >> (P - 2)) & 0xC) | ((x >> (2 * P - 3)) & 0x30) |
                                 ((x >> (3 * P - 5)) & 0xC0));
  }

  static constexpr std::array<int, kMaxRegions> make_bases(bool turned) {
    std::array<int, kMaxRegions> b{};
    for (int j = 0; j < kRegions; ++j)
      b[static_cast<std::size_t>(j)] = base(turned ? rotated(j) : j);
    return b;
  }
  // bases[side to move][j]: where region j of the side to move's view lies on the real board.
  static constexpr std::array<std::array<int, kMaxRegions>, 2> kBases = {make_bases(false),
                                                                         make_bases(true)};

  static constexpr Bitboard make_left_half() {
    Bitboard b = 0;
    for (int sq = 0; sq < G::kSquares; ++sq)
      if (G::col_of_square(sq) < G::kCols / 2) b |= bit(G::square_bit(sq));
    return b;
  }
  static constexpr Bitboard kLeftHalf = make_left_half();

  // tempo_rows[k]: squares k rows up from White's back row (k = 0..kRows-1).
  static constexpr std::array<Bitboard, 10> make_rows() {
    std::array<Bitboard, 10> rows{};
    for (int sq = 0; sq < G::kSquares; ++sq)
      rows[static_cast<std::size_t>(G::kRows - 1 - G::row_of_square(sq))] |= bit(G::square_bit(sq));
    return rows;
  }
  static constexpr std::array<Bitboard, 10> kRowsFromWhite = make_rows();
};

// Region j's state for the side to move (own men, the other side's men as seen by it).
template <class G>
inline int region_state(Bitboard own, Bitboard other, int j, bool black_to_move) {
  using L = PatternLayout<G>;
  const int b = L::kBases[black_to_move][static_cast<std::size_t>(j)];
  const unsigned o = L::gather(own >> b), t = L::gather(other >> b);
  const auto& table = black_to_move ? kTernary.reversed : kTernary.forward;
  return table[o] + 2 * table[t];
}

// Sum of row numbers of men counted from their own back row: rows advanced.
template <class G>
inline int tempo(Bitboard men, bool black) {
  using L = PatternLayout<G>;
  int t = 0;
  for (int k = 1; k < G::kRows; ++k) {
    const int rows = black ? G::kRows - 1 - k : k;
    t += rows * popcount(men & L::kRowsFromWhite[static_cast<std::size_t>(k)]);
  }
  return t;
}

template <class G>
inline int balance(Bitboard men) {
  using L = PatternLayout<G>;
  return std::abs(popcount(men & L::kLeftHalf) - popcount(men & ~L::kLeftHalf));
}

// Every feature of a position, for the trainer and the tests (the evaluation folds the same
// computation into its weight lookups).
struct Features {
  int regions = 0;
  std::array<int, kMaxRegions> state{};
  std::array<int, kLinearCount> linear{};
  int pieces = 0;      // pieces on the board (the phase)
  int max_pieces = 1;  // at the start; the opening set weighs pieces / max_pieces
};

// Pieces at the start of the game: the phase's full opening weight.
template <class R>
inline constexpr int kStartPieces = 2 * R::kStartRows* R::Geometry::kPerRow;

template <class R>
Features features(const Position& pos) {
  using G = typename R::Geometry;
  using L = PatternLayout<G>;
  const Side us = pos.turn(), them = opponent(us);
  const bool black = us == Side::Black;
  const Bitboard own = pos.men(us), other = pos.men(them);
  Features f;
  f.regions = L::kRegions;
  for (int j = 0; j < L::kRegions; ++j)
    f.state[static_cast<std::size_t>(j)] = region_state<G>(own, other, j, black);
  f.linear[kMen] = popcount(own) - popcount(other);
  f.linear[kKings] = popcount(pos.kings(us)) - popcount(pos.kings(them));
  f.linear[kTempo] = tempo<G>(own, black) - tempo<G>(other, !black);
  // Left and right as the side to move sees them: turning the board swaps them, and the
  // absolute difference does not care.
  f.linear[kOwnBalance] = balance<G>(own);
  f.linear[kOtherBalance] = balance<G>(other);
  f.max_pieces = kStartPieces<R>;
  f.pieces = std::min(popcount(pos.occupied()), kStartPieces<R>);
  return f;
}

}  // namespace tsuru::eval
