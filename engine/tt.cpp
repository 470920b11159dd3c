#include "engine/tt.hpp"

#include <sys/mman.h>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace tsuru {

void TranspositionTable::resize(int log2_entries) {
  log2_ = std::clamp(log2_entries, 10, 30);
  const std::uint64_t buckets = (std::uint64_t{1} << log2_) / kBucket;
  // Huge-page alignment for tables of 2 MiB and more, cache-line alignment below.
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const std::size_t bytes = buckets * sizeof(Bucket);
  const std::size_t align = bytes >= kHugePage ? kHugePage : alignof(Bucket);
  table_.reset();
  void* memory = std::aligned_alloc(align, bytes);
  if (!memory) throw std::bad_alloc();
  if (align == kHugePage) ::madvise(memory, bytes, MADV_HUGEPAGE);  // advice only
  table_.reset(static_cast<Bucket*>(memory));
  mask_ = buckets - 1;
  clear();
}

void TranspositionTable::Free::operator()(Bucket* b) const {
  std::free(b);
}

void TranspositionTable::clear() {
  std::memset(static_cast<void*>(table_.get()), 0, sizeof(Bucket) * (mask_ + 1));
  generation_ = 0;
}

const TTEntry* TranspositionTable::probe(Key key) const {
  const TTEntry* b = bucket(key);
  for (int i = 0; i < kBucket; ++i)
    if (b[i].key == key && b[i].bound() != Bound::None) return &b[i];
  return nullptr;
}

void TranspositionTable::store(Key key, Score score, Score eval, int depth, Bound bound,
                               std::uint8_t move, int ply) {
  TTEntry* b = bucket(key);
  TTEntry* slot = nullptr;
  for (int i = 0; i < kBucket && !slot; ++i)
    if (b[i].key == key) slot = &b[i];
  if (slot) {
    // Keep a deeper result of this search unless the new one is exact.
    if (slot->age() == generation_ && slot->depth > depth && bound != Bound::Exact) return;
    if (move == kNoMove) move = slot->move;  // keep the known best move
  } else {
    // Replace the least valuable: shallow entries from old searches first.
    auto value = [&](const TTEntry& e) {
      const int age = (generation_ - e.age()) & 63;
      return e.bound() == Bound::None ? -1000 : e.depth - 8 * age;
    };
    slot = b;
    for (int i = 1; i < kBucket; ++i)
      if (value(b[i]) < value(*slot)) slot = &b[i];
  }
  slot->key = key;
  slot->score = static_cast<std::int16_t>(to_tt(score, ply));
  slot->eval = static_cast<std::int16_t>(eval);
  slot->depth = static_cast<std::int8_t>(std::clamp(depth, -1, 127));
  slot->bound_age = static_cast<std::uint8_t>(static_cast<int>(bound) | (generation_ << 2));
  slot->move = move;
}

int TranspositionTable::hashfull() const {
  int used = 0;
  for (std::size_t i = 0; i < 1000; ++i)
    if (const TTEntry& e = table_[i / kBucket].entry[i % kBucket];
        e.bound() != Bound::None && e.age() == generation_)
      ++used;
  return used;
}

}  // namespace tsuru
