// Win, draw or loss at two bits an index: how the generator holds the slices it builds on when
// they have no distances (a Value takes 16 bits), so that the largest units fit in memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "eval/egdb/format.hpp"

namespace tsuru::egdb {

class PackedValues {
 public:
  PackedValues() = default;
  explicit PackedValues(std::uint64_t n) : n_(n), words_((n + 31) / 32, 0) {}
  explicit PackedValues(const std::vector<Value>& values) : PackedValues(values.size()) {
    for (std::uint64_t i = 0; i < n_; ++i) set_alone(i, values[i]);
  }

  // n values from their words (32 a word, as words() gives them); nullopt when the count of
  // words is not n's.
  static std::optional<PackedValues> from_words(std::uint64_t n, std::vector<std::uint64_t> words) {
    if (words.size() != (n + 31) / 32) return std::nullopt;
    PackedValues p;
    p.n_ = n;
    p.words_ = std::move(words);
    return p;
  }
  const std::vector<std::uint64_t>& words() const { return words_; }

  std::uint64_t size() const { return n_; }
  std::size_t bytes() const { return words_.size() * sizeof(std::uint64_t); }

  // The value at index i, distance 0 (as a file without distances decodes).
  Value operator[](std::uint64_t i) const {
    switch ((words_[i / 32] >> (2 * (i % 32))) & 3U) {
      case 1:
        return kWinFlag;
      case 2:
        return kLossFlag;
      case 3:
        return kInvalid;
      default:
        return kUnknown;
    }
  }

  // Sets index i: safe while other threads set other indices, also of the same word.
  void set(std::uint64_t i, Value v) {
    std::atomic_ref<std::uint64_t> word(words_[i / 32]);
    const unsigned shift = 2 * static_cast<unsigned>(i % 32);
    word.fetch_and(~(std::uint64_t{3} << shift), std::memory_order_relaxed);
    word.fetch_or(std::uint64_t{code(v)} << shift, std::memory_order_relaxed);
  }

  // Sets index i, which no other thread touches meanwhile, nor any index of its word.
  void set_alone(std::uint64_t i, Value v) {
    const unsigned shift = 2 * static_cast<unsigned>(i % 32);
    std::uint64_t& word = words_[i / 32];
    word = (word & ~(std::uint64_t{3} << shift)) | (std::uint64_t{code(v)} << shift);
  }

 private:
  static constexpr unsigned code(Value v) {
    return v == kInvalid ? 3U : is_win(v) ? 1U : is_loss(v) ? 2U : 0U;
  }

  std::uint64_t n_ = 0;
  std::vector<std::uint64_t> words_;
};

// A slice the generator builds on, held in memory: with distances (exact) its values in full,
// else two bits an index.
struct Dependency {
  std::vector<Value> values;  // exact
  PackedValues packed;        // not exact
  bool exact = false;
  std::uint32_t max_distance = 0;

  // The values of a slice just built, held as a dependency.
  static Dependency kept(std::vector<Value> values, bool exact, std::uint32_t max_distance) {
    Dependency d;
    d.exact = exact;
    d.max_distance = max_distance;
    if (exact)
      d.values = std::move(values);
    else
      d.packed = PackedValues(values);
    return d;
  }

  Value operator[](std::uint64_t i) const { return exact ? values[i] : packed[i]; }
  // Sets index i (other threads may set other indices meanwhile).
  void set(std::uint64_t i, Value v) {
    if (exact)
      values[i] = v;
    else
      packed.set(i, v);
  }
  std::size_t bytes() const { return values.size() * sizeof(Value) + packed.bytes(); }
};

}  // namespace tsuru::egdb
