// Transposition table: 2^n entries of 16 bytes in buckets of four, each bucket one aligned cache
// line; large tables are mapped from the kernel and ask for huge pages (fewer TLB misses on
// random probes), so they take memory only as the search fills them and clear() hands it back.
// The search prefetches a child's bucket as soon as it knows the child's key.
//
// Replacement: an entry for the same position is overwritten unless it holds a deeper result
// from the current search; otherwise the bucket's least valuable entry goes, valuing depth and
// penalising entries left over from earlier searches (their age). Forced-win scores are stored
// relative to the node, not the root, so they stay right wherever the position recurs.
#pragma once

#include <cstdint>
#include <memory>

#include "engine/score.hpp"
#include "engine/types.hpp"

namespace tsuru {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

struct TTEntry {
  Key key;
  std::int16_t score;
  std::int16_t eval;
  std::int8_t depth;
  std::uint8_t bound_age;  // bound in the low 2 bits, search generation in the high 6
  std::uint8_t move;       // index in the position's generated move list; 255 = none
  std::uint8_t unused;

  Bound bound() const { return static_cast<Bound>(bound_age & 3); }
  std::uint8_t age() const { return static_cast<std::uint8_t>(bound_age >> 2); }
};
static_assert(sizeof(TTEntry) == 16);

class TranspositionTable {
 public:
  static constexpr int kBucket = 4;
  static constexpr std::uint8_t kNoMove = 255;

  explicit TranspositionTable(int log2_entries = 20) { resize(log2_entries); }
  // 2^log2_entries entries (clamped to 10..30); clears the table.
  void resize(int log2_entries);
  void clear();
  // Starts a new search: entries from earlier searches become replaceable first.
  void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63); }

  const TTEntry* probe(Key key) const;
  // Starts loading key's bucket into the cache; probe and store will find it there.
  void prefetch(Key key) const { __builtin_prefetch(&table_[key & mask_]); }
  void store(Key key, Score score, Score eval, int depth, Bound bound, std::uint8_t move, int ply);

  int log2_entries() const { return log2_; }
  // Permille of the first entries used by the current search (UCI-style hashfull).
  int hashfull() const;

  // Node-relative forced-win scores.
  static Score to_tt(Score s, int ply) {
    return s >= kWinThreshold ? s + ply : s <= -kWinThreshold ? s - ply : s;
  }
  static Score from_tt(Score s, int ply) {
    return s >= kWinThreshold ? s - ply : s <= -kWinThreshold ? s + ply : s;
  }

 private:
  struct alignas(64) Bucket {
    TTEntry entry[kBucket];
  };
  struct Free {
    // No member initialisers: the deleter must be default-constructible inside the class.
    std::size_t bytes;
    bool mapped;  // from mmap (large tables), else from the heap
    void operator()(Bucket* b) const;
  };

  TTEntry* bucket(Key key) const { return table_[key & mask_].entry; }

  std::unique_ptr<Bucket[], Free> table_;
  std::uint64_t mask_ = 0;  // bucket index mask
  int log2_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace tsuru
