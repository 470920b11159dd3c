#include "engine/search/tt.hpp"

#include <sys/mman.h>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace tsuru {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}  // namespace

// Tables of 2 MiB and more are mapped from the kernel, huge-page aligned: the pages come zeroed
// and are only backed by memory once the search touches them, so a large table costs nothing
// until it is used and clearing it gives its memory back (MADV_DONTNEED). Smaller ones come
// from the heap, cache-line aligned.
void TranspositionTable::resize(int log2_entries) {
  log2_ = std::clamp(log2_entries, 10, 30);
  const std::uint64_t buckets = (std::uint64_t{1} << log2_) / kBucket;
  const std::size_t bytes = buckets * sizeof(Bucket);
  table_.reset();
  if (bytes >= kHugePage) {
    void* raw = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    // Keep the huge-page-aligned part; give back the head and tail.
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + kHugePage - 1) & ~(std::uintptr_t{kHugePage} - 1);
    if (aligned > start) ::munmap(raw, aligned - start);
    if (const std::size_t tail = kHugePage - (aligned - start); tail > 0)
      ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
    ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);  // advice only
    table_ = std::unique_ptr<Bucket[], Free>(reinterpret_cast<Bucket*>(aligned), Free{bytes, true});
    mask_ = buckets - 1;
    generation_ = 0;
    return;  // zero already
  }
  void* memory = std::aligned_alloc(alignof(Bucket), bytes);
  if (!memory) throw std::bad_alloc();
  table_ = std::unique_ptr<Bucket[], Free>(static_cast<Bucket*>(memory), Free{bytes, false});
  mask_ = buckets - 1;
  clear();
}

void TranspositionTable::Free::operator()(Bucket* b) const {
  if (mapped)
    ::munmap(b, bytes);
  else
    std::free(b);
}

void TranspositionTable::clear() {
  const std::size_t bytes = sizeof(Bucket) * (mask_ + 1);
  // A mapped table is zeroed by dropping its pages (private anonymous memory reads as zero
  // afterwards): fast, and the memory goes back to the system until the next search.
  if (!table_.get_deleter().mapped || ::madvise(table_.get(), bytes, MADV_DONTNEED) != 0)
    std::memset(static_cast<void*>(table_.get()), 0, bytes);
  generation_ = 0;
}

std::uint64_t TTEntry::pack() const {
  return std::uint64_t{static_cast<std::uint16_t>(score)} |
         std::uint64_t{static_cast<std::uint8_t>(depth)} << 32 | std::uint64_t{bound_age} << 40 |
         std::uint64_t{move} << 48;
}

TTEntry TTEntry::unpack(std::uint64_t data) {
  TTEntry e;
  e.score = static_cast<std::int16_t>(static_cast<std::uint16_t>(data));
  e.depth = static_cast<std::int8_t>(static_cast<std::uint8_t>(data >> 32));
  e.bound_age = static_cast<std::uint8_t>(data >> 40);
  e.move = static_cast<std::uint8_t>(data >> 48);
  return e;
}

bool TranspositionTable::probe(Key key, TTEntry& out) const {
  const Slot* b = bucket(key);
  for (int i = 0; i < kBucket; ++i) {
    const std::uint64_t data = load(b[i].data);
    if ((load(b[i].check) ^ data) != key) continue;
    out = TTEntry::unpack(data);
    if (out.bound() != Bound::None) return true;
  }
  return false;
}

// Another thread may write the bucket meanwhile: the worst outcome is a lost or torn entry,
// which probes reject (see tt.hpp).
void TranspositionTable::store(Key key, Score score, int depth, Bound bound, std::uint8_t move,
                               int ply) {
  Slot* b = bucket(key);
  TTEntry seen[kBucket];
  int slot = -1;
  for (int i = 0; i < kBucket; ++i) {
    const std::uint64_t data = load(b[i].data);
    seen[i] = TTEntry::unpack(data);
    if (slot < 0 && (load(b[i].check) ^ data) == key) slot = i;
  }
  if (slot >= 0) {
    const TTEntry& old = seen[slot];
    // Keep a deeper result of this search unless the new one is exact (with several searchers,
    // only a result deeper by more than kSharedKeep plies: see tt.hpp).
    if (old.age() == generation_ && old.depth > depth + keep_margin_ && bound != Bound::Exact)
      return;
    if (move == kNoMove) move = old.move;  // keep the known best move
  } else {
    // Replace the least valuable: shallow entries from old searches first.
    auto value = [&](const TTEntry& e) {
      const int age = (generation_ - e.age()) & 63;
      return e.bound() == Bound::None ? -1000 : e.depth - 8 * age;
    };
    slot = 0;
    for (int i = 1; i < kBucket; ++i)
      if (value(seen[i]) < value(seen[slot])) slot = i;
  }
  TTEntry e;
  e.score = static_cast<std::int16_t>(to_tt(score, ply));
  e.depth = static_cast<std::int8_t>(std::clamp(depth, -1, 127));
  e.bound_age = static_cast<std::uint8_t>(static_cast<int>(bound) | (generation_ << 2));
  e.move = move;
  const std::uint64_t data = e.pack();
  put(b[slot].data, data);
  put(b[slot].check, key ^ data);
}

}  // namespace tsuru
