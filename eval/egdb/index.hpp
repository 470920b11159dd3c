// Endgame database indexing: a slice of positions (white men, white kings, black men, black
// kings; White to move) and the combinatorial ranking of its positions.
//
// Squares are counted 0..S-1 in the board's own numbering (square 1 is index 0); a "square set"
// is a 64-bit mask over those indices, not a ghost-bit Bitboard. A position of a slice is
// ranked as
//   ((rank(white men among WA) * C(|BA|, bm) + rank(black men among BA))
//      * C(S - wm - bm, wk) + rank(white kings among the squares the men leave free))
//      * C(S - wm - bm - wk, bk) + rank(black kings among the squares still free)
// where WA is every square but White's crowning row (the top row) and BA every square but
// Black's (the bottom row): a man never stands on its own crowning row. Each rank is the
// colexicographic rank of the chosen squares, numbered within the squares available to them.
// White and black men are ranked independently, so an index where they share a square is no
// position ("invalid"; under 30 % of a slice for the sets built here, stored as don't-care).
// Kings are ranked densely.
//
// Colour symmetry: a position with Black to move is the position turned round (square s goes
// to S-1-s) with the colours swapped and White to move; every rule set the generator accepts
// plays the same for both colours, so only White-to-move positions are stored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/rules/position.hpp"

namespace tsuru::egdb {

using SquareSet = std::uint64_t;

// Pieces of a slice; the side to move is White.
struct Slice {
  int wm = 0, wk = 0, bm = 0, bk = 0;
  int pieces() const { return wm + wk + bm + bk; }
  int men() const { return wm + bm; }
  // The same material with the colours swapped (where Black-to-move positions of this slice go).
  Slice mirrored() const { return {bm, bk, wm, wk}; }
  friend bool operator==(const Slice&, const Slice&) = default;
  friend bool operator<(const Slice& a, const Slice& b) { return a.code() < b.code(); }
  int code() const { return ((wm * 16 + wk) * 16 + bm) * 16 + bk; }
  // "wm wk bm bk" as four digits, e.g. "0201": two white kings against one black king.
  std::string name() const;
  static std::optional<Slice> parse(const std::string& text);
};

// The board as the index sees it, from a rule set's geometry.
struct Layout {
  int squares = 0;
  int per_row = 0;
  std::array<Square, 64> bit_of{};          // square index -> Bitboard bit
  std::array<std::int8_t, 64> square_of{};  // Bitboard bit -> square index (-1: ghost)
  SquareSet all = 0;
  SquareSet men_allowed[2] = {0, 0};  // by Side: every square but the side's crowning row

  template <class Geometry>
  static Layout of() {
    Layout l;
    l.squares = Geometry::kSquares;
    l.per_row = Geometry::kPerRow;
    l.square_of.fill(-1);
    for (int s = 0; s < l.squares; ++s) {
      l.bit_of[static_cast<std::size_t>(s)] = Geometry::square_bit(s);
      l.square_of[static_cast<std::size_t>(Geometry::square_bit(s))] = static_cast<std::int8_t>(s);
    }
    l.all = l.squares == 64 ? ~SquareSet{0} : (SquareSet{1} << l.squares) - 1;
    const SquareSet top = (SquareSet{1} << l.per_row) - 1;
    l.men_allowed[0] = l.all & ~top;
    l.men_allowed[1] = l.all & ~(top << (l.squares - l.per_row));
    return l;
  }

  SquareSet to_squares(Bitboard b) const;
  Bitboard to_bits(SquareSet s) const;
  // The set turned round: square s to S-1-s.
  SquareSet turned(SquareSet s) const;
};

// C(n, k) for n <= 64, k <= 16 (0 when k > n).
std::uint64_t binomial(int n, int k);

// The colexicographic rank of the squares `chosen` numbered within `available` (chosen is a
// subset of it), and the k squares of available with rank r.
std::uint64_t subset_rank(SquareSet chosen, SquareSet available);
SquareSet subset_unrank(std::uint64_t r, int k, SquareSet available);
// Bit x of compact moved to the x-th (0-based) square of available, as BMI2's pdep does: how
// subset_unrank numbers the squares. It uses pdep where that is fast and this loop elsewhere;
// the loop is declared here for the tests.
SquareSet deposit_portable(SquareSet compact, SquareSet available);

// Positions (valid or not) in a slice's index range.
std::uint64_t slice_size(const Layout& layout, const Slice& s);

// A position in square sets, White to move.
struct Placement {
  SquareSet wm = 0, wk = 0, bm = 0, bk = 0;
};

// The index of a placement in its slice.
std::uint64_t rank(const Layout& layout, const Slice& s, const Placement& p);
// The placement of an index; nullopt for an invalid index (men of both colours on one square).
std::optional<Placement> unrank(const Layout& layout, const Slice& s, std::uint64_t index);

// unrank for one slice, set up once: the index's radices are divided by a multiplication with
// their reciprocals (exact for every index of the slice) instead of a division instruction,
// for the loops that unrank millions of indices (the generator).
class SliceUnranker {
 public:
  SliceUnranker() = default;
  SliceUnranker(const Layout& layout, const Slice& s);
  std::optional<Placement> operator()(std::uint64_t index) const;

 private:
  // n / d for n * d < 2^64: the high word of n * ceil(2^64 / d) (d = 1: n itself; m = 0 and
  // d > 1 when the slice is too large for that: a plain division).
  struct Divisor {
    std::uint64_t d = 1, m = 0;
    std::uint64_t quotient(std::uint64_t n) const;
  };
  Slice slice_;
  SquareSet all_ = 0, men_allowed_[2] = {0, 0};  // the layout's (a copy: no reference kept)
  Divisor bk_, wk_, bm_;
};

// A position seen from the side to move: its slice and index, or nullopt when a man stands on
// its own crowning row (no position the rules reach). `flipped`: Black was to move.
struct Located {
  Slice slice;
  std::uint64_t index = 0;
  bool flipped = false;
  Placement placement;  // as the slice holds it
};
std::optional<Located> locate(const Layout& layout, const Position& pos);

// The Position of a placement, White to move.
Position position_of(const Layout& layout, const Placement& p);
// The same without the hash key (Position::unkeyed), for the generator's loops: moves are then
// played with after<false>, and nothing reads the key.
Position board_of(const Layout& layout, const Placement& p);

}  // namespace tsuru::egdb
