// A move is (from, to, captured set), plus whether the moving man is crowned. Two capture paths
// with the same from, to and captured pieces are the same move (FMJD 4.13), by construction.
// Text forms (Hub, PDN, DXP) are views of this type; see protocol/notation.hpp.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>

#include "engine/types.hpp"

namespace tsuru {

// Trivially constructible so move lists need no initialisation: write Move{} for the null move.
struct Move {
  Bitboard captured;
  std::uint8_t from;
  std::uint8_t to;
  bool crowns;

  Move() = default;
  constexpr Move(Square f, Square t, Bitboard c, bool cr)
      : captured(c),
        from(static_cast<std::uint8_t>(f)),
        to(static_cast<std::uint8_t>(t)),
        crowns(cr) {}

  constexpr bool is_capture() const { return captured != 0; }
  constexpr bool is_null() const { return captured == 0 && from == to; }
  constexpr int capture_count() const { return popcount(captured); }
  friend constexpr bool operator==(const Move&, const Move&) = default;
};

// Fixed-capacity move list: no heap allocation during search. The capacity is above the
// largest move count of any reachable position; push() ignores moves beyond it rather than
// overflow on a contrived position.
class MoveList {
 public:
  static constexpr std::size_t kCapacity = 384;

  MoveList() {}  // NOLINT: the storage is deliberately left uninitialised

  void push(const Move& m) {
    assert(size_ < kCapacity);
    if (size_ < kCapacity) moves_[size_++] = m;
  }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move& operator[](std::size_t i) { return moves_[i]; }
  const Move& operator[](std::size_t i) const { return moves_[i]; }
  Move* begin() { return moves_.data(); }
  Move* end() { return moves_.data() + size_; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  bool contains(const Move& m) const {
    for (const Move& x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  std::size_t size_ = 0;
  std::array<Move, kCapacity> moves_;
};

}  // namespace tsuru
