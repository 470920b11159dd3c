// A cache of decoded endgame database blocks, shared by every searcher of a Database: the least
// recently used blocks go first. A block is kept packed, four symbols to a byte (8 KiB for the
// 32768 positions of a version-2 block). Thread-safe: the blocks are spread over shards, each
// with its own lock, so searchers seldom wait for each other; a symbol is copied out under the
// lock, nothing points into the cache.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tsuru::egdb {

class BlockCache {
 public:
  // Holds at most about `bytes` of decoded blocks (at least one block per shard).
  explicit BlockCache(std::size_t bytes);

  // The symbol at i of block `block` of the file whose data starts at `file`; on a miss,
  // decode(packed) fills the packed block (four symbols to a byte, lowest bits first;
  // decode_packed in run_coder.hpp), which is then kept.
  template <class Decode>
  unsigned symbol(const void* file, std::uint32_t block, std::uint32_t i, const Decode& decode) {
    const Key key{reinterpret_cast<std::uintptr_t>(file), block};
    Shard& shard = shards_[KeyHash{}(key) % kShards];
    {
      std::lock_guard lock(shard.mutex);
      if (const auto it = shard.index.find(key); it != shard.index.end()) {
        shard.lru.splice(shard.lru.begin(), shard.lru, it->second);
        hits_.fetch_add(1, std::memory_order_relaxed);
        return unpack(it->second->packed, i);
      }
    }
    misses_.fetch_add(1, std::memory_order_relaxed);
    std::vector<std::uint8_t> packed;
    decode(packed);  // outside the lock: another searcher may decode the same block meanwhile
    const unsigned s = unpack(packed, i);
    std::lock_guard lock(shard.mutex);
    if (shard.index.count(key) == 0) {
      shard.lru.push_front(Entry{key, std::move(packed)});
      shard.index.emplace(key, shard.lru.begin());
      while (shard.lru.size() > per_shard_) {
        shard.index.erase(shard.lru.back().key);
        shard.lru.pop_back();
      }
    }
    return s;
  }

  std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

 private:
  static constexpr std::size_t kShards = 16;
  struct Key {
    std::uintptr_t file;
    std::uint32_t block;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return static_cast<std::size_t>((k.file * 0x9E3779B97F4A7C15ULL) ^ (k.block * 0xC2B2AE3DULL));
    }
  };
  struct Entry {
    Key key;
    std::vector<std::uint8_t> packed;
  };
  struct Shard {
    std::mutex mutex;
    std::list<Entry> lru;  // most recent first
    std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> index;
  };
  static unsigned unpack(const std::vector<std::uint8_t>& packed, std::uint32_t i) {
    return (packed[i / 4] >> (2 * (i % 4))) & 3U;
  }

  std::size_t per_shard_;
  Shard shards_[kShards];
  std::atomic<std::uint64_t> hits_{0}, misses_{0};
};

}  // namespace tsuru::egdb
