// Transposition table: 2^n entries of 16 bytes in buckets of four, each bucket one aligned cache
// line; large tables are mapped from the kernel and ask for huge pages (fewer TLB misses on
// random probes), so they take memory only as the search fills them and clear() hands it back.
// The search prefetches a child's bucket as soon as it knows the child's key.
//
// Replacement: an entry for the same position is overwritten unless it holds a deeper result
// from the current search; otherwise the bucket's least valuable entry goes, valuing depth and
// penalising entries left over from earlier searches (their age). Forced-win scores are stored
// relative to the node, not the root, so they stay right wherever the position recurs.
//
// With several searchers an entry of the current search is kept over a new, shallower result
// only when it is more than kSharedKeep plies deeper. The likely reason it helps: a helper's
// deep entry, searched with another window, would otherwise shut out the main searcher's own
// results for that position, which it then searches again and again without its table move.
// Measured on a long king hunt (English W:WK18,K22:BK32, to depth 22 with 2 threads, nodes to
// depth): median 0.23 M, at most 17 M, over 24 runs; when the deeper entry always stayed, median
// about 17 M, up to 53 M, over 16 runs (one thread: 0.3 M). Either way lazy SMP sometimes misses
// this win at depth 22. One searcher keeps the deeper entry, as before (its bench signature is
// pinned).
//
// Shared by the threads of a search (lazy SMP) without locks: an entry is two 64-bit words, the
// data and the key XOR the data, each read and written atomically (relaxed). A reader that meets
// an entry half-written by another thread (one word old, one new) finds that the words no longer
// give back its key and treats the entry as a miss, so a torn entry is never used.
#pragma once

#include <cstdint>
#include <memory>

#include "engine/rules/score.hpp"
#include "engine/rules/types.hpp"

namespace tsuru {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// An entry as probe() hands it out: a copy, checked against the key.
struct TTEntry {
  std::int16_t score = 0;
  std::int8_t depth = 0;
  std::uint8_t bound_age = 0;  // bound in the low 2 bits, search generation in the high 6
  std::uint8_t move = 255;     // index in the position's generated move list; 255 = none

  Bound bound() const { return static_cast<Bound>(bound_age & 3); }
  std::uint8_t age() const { return static_cast<std::uint8_t>(bound_age >> 2); }

  // The data word: score, depth, bound and age, move (bits 0-15, 32-39, 40-47, 48-55; 16-31
  // are unused). An empty slot is all zero: bound None.
  std::uint64_t pack() const;
  static TTEntry unpack(std::uint64_t data);
};

class TranspositionTable {
 public:
  static constexpr int kBucket = 4;
  static constexpr std::uint8_t kNoMove = 255;
  static constexpr int kSharedKeep = 4;

  explicit TranspositionTable(int log2_entries = 20) { resize(log2_entries); }
  // 2^log2_entries entries (clamped to 10..30); clears the table.
  void resize(int log2_entries);
  void clear();
  // Starts a new search: entries from earlier searches become replaceable first. `searchers`:
  // how many threads will share the table during it.
  void new_search(int searchers = 1) {
    generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63);
    keep_margin_ = searchers > 1 ? kSharedKeep : 0;
  }

  // Copies key's entry into `out`; false when the table has none (or only a torn one).
  bool probe(Key key, TTEntry& out) const;
  // Starts loading key's bucket into the cache; probe and store will find it there.
  void prefetch(Key key) const { __builtin_prefetch(&table_[key & mask_]); }
  void store(Key key, Score score, int depth, Bound bound, std::uint8_t move, int ply);

  int log2_entries() const { return log2_; }

  // Node-relative forced-win scores.
  static Score to_tt(Score s, int ply) {
    return s >= kWinThreshold ? s + ply : s <= -kWinThreshold ? s - ply : s;
  }
  static Score from_tt(Score s, int ply) {
    return s >= kWinThreshold ? s - ply : s <= -kWinThreshold ? s + ply : s;
  }

 private:
  // A stored entry: check = key ^ data. Both words are accessed with relaxed atomic operations.
  struct Slot {
    std::uint64_t check;
    std::uint64_t data;
  };
  static_assert(sizeof(Slot) == 16);
  struct alignas(64) Bucket {
    Slot slot[kBucket];
  };
  static std::uint64_t load(const std::uint64_t& word) {
    return __atomic_load_n(&word, __ATOMIC_RELAXED);
  }
  static void put(std::uint64_t& word, std::uint64_t value) {
    __atomic_store_n(&word, value, __ATOMIC_RELAXED);
  }
  struct Free {
    // No member initialisers: the deleter must be default-constructible inside the class.
    std::size_t bytes;
    bool mapped;  // from mmap (large tables), else from the heap
    void operator()(Bucket* b) const;
  };

  Slot* bucket(Key key) const { return table_[key & mask_].slot; }

  std::unique_ptr<Bucket[], Free> table_;
  std::uint64_t mask_ = 0;  // bucket index mask
  int log2_ = 0;
  std::uint8_t generation_ = 0;
  int keep_margin_ = 0;  // see kSharedKeep
};

}  // namespace tsuru
