// A move is (from, to, captured set), plus whether the moving man is crowned. Two capture paths
// with the same from, to and captured pieces are the same move (FMJD 4.13), by construction.
// Text forms (Hub, PDN, DXP) are views of this type; see protocol/notation.hpp.
#pragma once

#include <algorithm>
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

// Move list: up to kInline moves in fixed storage inside the list (no heap allocation in search),
// spilling to the heap beyond that, so no legal move is ever lost. Ordinary positions stay far
// below kInline; a contrived position can exceed it (an international position with six kings
// has 407 distinct maximal captures) and still gets all its moves.
class MoveList {
 public:
  static constexpr std::size_t kInline = 384;

  MoveList() {}  // NOLINT: the inline storage is deliberately left uninitialised
  MoveList(const MoveList& o) : MoveList() { append(o); }
  MoveList(MoveList&& o) noexcept : MoveList() { take(o); }
  MoveList& operator=(const MoveList& o) {
    if (this != &o) {
      size_ = 0;
      append(o);
    }
    return *this;
  }
  MoveList& operator=(MoveList&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~MoveList() { release(); }

  void push(const Move& m) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    data_[size_++] = m;
  }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Whether the moves have outgrown the inline storage.
  bool spilled() const { return data_ != inline_; }
  Move& operator[](std::size_t i) {
    assert(i < size_);
    return data_[i];
  }
  const Move& operator[](std::size_t i) const {
    assert(i < size_);
    return data_[i];
  }
  Move* begin() { return data_; }
  Move* end() { return data_ + size_; }
  const Move* begin() const { return data_; }
  const Move* end() const { return data_ + size_; }
  bool contains(const Move& m) const {
    for (const Move& x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  // Room for twice as many moves, on the heap.
  [[gnu::noinline]] void grow() {
    const std::size_t capacity = 2 * capacity_;
    Move* bigger = new Move[capacity];
    std::copy(data_, data_ + size_, bigger);
    release();
    data_ = bigger;
    capacity_ = capacity;
  }
  void release() {
    if (spilled()) delete[] data_;
    data_ = inline_;
    capacity_ = kInline;
  }
  void append(const MoveList& o) {
    for (const Move& m : o) push(m);
  }
  // Takes o's moves, leaving o empty.
  void take(MoveList& o) {
    if (o.spilled()) {
      data_ = o.data_;
      capacity_ = o.capacity_;
      size_ = o.size_;
      o.data_ = o.inline_;
      o.capacity_ = kInline;
    } else {
      append(o);
    }
    o.size_ = 0;
  }

  Move inline_[kInline];  // NOLINT: a plain array, so taking its address reads nothing
  Move* data_ = inline_;
  std::size_t size_ = 0;
  std::size_t capacity_ = kInline;
};

}  // namespace tsuru
