// A move is (from, to, captured set), plus whether the moving man is crowned. Two capture paths
// with the same from, to and captured pieces are the same move (FMJD 4.13), by construction.
// Text forms (Hub, PDN, DXP) are views of this type; see engine/rules/notation.hpp.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>

#include "engine/rules/types.hpp"

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

// Move list: up to kInline moves in fixed storage inside the list, spilling to the heap beyond
// that, so no legal move is ever lost. Ordinary positions stay far
// below kInline; a contrived position can exceed it (an international position with six kings
// has 407 distinct maximal captures) and still gets all its moves.
class MoveList {
 public:
  static constexpr std::size_t kInline = 384;

  MoveList() {}  // NOLINT: the inline storage is deliberately left uninitialised
  MoveList(const MoveList& o) { append(o); }
  MoveList(MoveList&& o) noexcept { take(o); }
  MoveList& operator=(const MoveList& o) {
    if (this != &o) {
      clear();
      append(o);
    }
    return *this;
  }
  MoveList& operator=(MoveList&& o) noexcept {
    if (this != &o) {
      clear();
      take(o);
    }
    return *this;
  }
  ~MoveList() {
    if (heap_) [[unlikely]]
      release();
  }

  // The fast path is the original fixed-array one: the heap is in use only while size_ is
  // above kInline (clear() gives it back).
  [[gnu::always_inline]] void push(const Move& m) {
    if (size_ < kInline) [[likely]]
      inline_[size_++] = m;
    else
      push_spilled(m);
  }
  // Appends make(to) for each square `to` of `targets`: one capacity check for them all, and
  // the moves written through a local pointer (the generators' quiet moves).
  template <class F>
  [[gnu::always_inline]] void push_each(Bitboard targets, F&& make) {
    const auto n = static_cast<std::size_t>(popcount(targets));
    Move* p = size_ + n <= kInline ? inline_ + size_ : make_room(n);
    size_ += n;
    for (Square to : squares_of(targets)) *p++ = make(to);
  }
  void clear() {
    size_ = 0;
    if (heap_) [[unlikely]]
      release();
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Whether the moves have outgrown the inline storage.
  bool spilled() const { return heap_ != nullptr; }
  Move* data() { return heap_ ? heap_ : inline_; }
  const Move* data() const { return heap_ ? heap_ : inline_; }
  Move& operator[](std::size_t i) {
    assert(i < size_);
    return data()[i];
  }
  const Move& operator[](std::size_t i) const {
    assert(i < size_);
    return data()[i];
  }
  Move* begin() { return data(); }
  Move* end() { return data() + size_; }
  const Move* begin() const { return data(); }
  const Move* end() const { return data() + size_; }
  bool contains(const Move& m) const {
    for (const Move& x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  // A move beyond the inline storage: everything moves to (or stays on) the heap, which
  // doubles when full.
  [[gnu::noinline]] void push_spilled(const Move& m) {
    *make_room(1) = m;
    ++size_;
  }
  // Room for n more moves past the inline storage; returns where the first of them goes.
  [[gnu::noinline]] Move* make_room(std::size_t n) {
    if (!heap_ || size_ + n > heap_capacity_) {
      const std::size_t capacity = 2 * std::max(size_ + n, kInline);
      Move* bigger = new Move[capacity];
      std::copy(data(), data() + size_, bigger);
      delete[] heap_;
      heap_ = bigger;
      heap_capacity_ = capacity;
    }
    return heap_ + size_;
  }
  [[gnu::noinline]] void release() {
    delete[] heap_;
    heap_ = nullptr;
    heap_capacity_ = 0;
  }
  void append(const MoveList& o) {
    for (const Move& m : o) push(m);
  }
  // Takes o's moves, leaving o empty. Called on an empty list.
  void take(MoveList& o) {
    if (o.heap_) {
      heap_ = o.heap_;
      heap_capacity_ = o.heap_capacity_;
      size_ = o.size_;
      o.heap_ = nullptr;
      o.heap_capacity_ = 0;
    } else {
      append(o);
    }
    o.size_ = 0;
  }

  std::size_t size_ = 0;
  Move inline_[kInline];
  Move* heap_ = nullptr;
  std::size_t heap_capacity_ = 0;
};

// The hot paths' list (search, perft): the same inline storage and nothing to destroy, which
// keeps their recursion as fast as it was. A move beyond the storage is not stored but marks the
// list overflowed(); the caller then generates again into a MoveList (search and perft do).
class FixedMoveList {
 public:
  static constexpr std::size_t kCapacity = MoveList::kInline;

  FixedMoveList() {}  // NOLINT: the storage is deliberately left uninitialised

  [[gnu::always_inline]] void push(const Move& m) {
    if (size_ < kCapacity) [[likely]]
      moves_[size_++] = m;
    else
      overflowed_ = true;
  }
  template <class F>
  [[gnu::always_inline]] void push_each(Bitboard targets, F&& make) {
    const auto n = static_cast<std::size_t>(popcount(targets));
    if (size_ + n > kCapacity) [[unlikely]] {
      overflowed_ = true;
      return;
    }
    Move* p = moves_ + size_;
    size_ += n;
    for (Square to : squares_of(targets)) *p++ = make(to);
  }
  // Starts again: the moves and the overflow are forgotten.
  void clear() {
    size_ = 0;
    overflowed_ = false;
  }
  // Whether a move was left out: the list must not be used.
  bool overflowed() const { return overflowed_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move& operator[](std::size_t i) {
    assert(i < size_);
    return moves_[i];
  }
  const Move& operator[](std::size_t i) const {
    assert(i < size_);
    return moves_[i];
  }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  bool contains(const Move& m) const {
    for (const Move& x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  std::size_t size_ = 0;
  bool overflowed_ = false;
  Move moves_[kCapacity];
};

}  // namespace tsuru
