// Vocabulary types shared by every part of the engine.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace tsuru {

// One bit per square of the internal (ghost-square) layout; see geometry.hpp.
using Bitboard = std::uint64_t;
// Index of a bit in a Bitboard, 0..63. Notation squares (1..50) live only in protocol/.
using Square = int;
using Key = std::uint64_t;

enum class Side : std::uint8_t { White = 0, Black = 1 };

constexpr Side opponent(Side s) {
  return s == Side::White ? Side::Black : Side::White;
}
constexpr int index(Side s) {
  return static_cast<int>(s);
}

constexpr Bitboard bit(Square sq) {
  return Bitboard{1} << sq;
}
constexpr int popcount(Bitboard b) {
  return std::popcount(b);
}
constexpr Square lsb(Bitboard b) {
  return std::countr_zero(b);
}
constexpr Square msb(Bitboard b) {
  return 63 - std::countl_zero(b);
}
constexpr bool has(Bitboard b, Square sq) {
  return (b >> sq) & 1U;
}

// Shift by a signed direction: positive moves bits towards higher squares.
constexpr Bitboard shift(Bitboard b, int d) {
  return d >= 0 ? b << d : b >> -d;
}

// Iterate the set bits of a Bitboard: for (Square sq : squares_of(b)).
class SquareRange {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Square;
    using difference_type = std::ptrdiff_t;
    using pointer = const Square*;
    using reference = Square;
    constexpr Iterator() = default;
    constexpr explicit Iterator(Bitboard b) : b_(b) {}
    constexpr Square operator*() const { return lsb(b_); }
    constexpr Iterator& operator++() {
      b_ &= b_ - 1;
      return *this;
    }
    constexpr Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }
    constexpr bool operator==(const Iterator& o) const { return b_ == o.b_; }

   private:
    Bitboard b_ = 0;
  };
  constexpr explicit SquareRange(Bitboard b) : b_(b) {}
  constexpr Iterator begin() const { return Iterator(b_); }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  Bitboard b_;
};
constexpr SquareRange squares_of(Bitboard b) {
  return SquareRange(b);
}

}  // namespace tsuru
