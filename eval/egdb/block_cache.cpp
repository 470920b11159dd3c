#include "eval/egdb/block_cache.hpp"

#include <algorithm>

#include "eval/egdb/format.hpp"

namespace tsuru::egdb {

void pack_symbols(const std::vector<std::uint8_t>& symbols, std::vector<std::uint8_t>& packed) {
  packed.assign((symbols.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < symbols.size(); ++i)
    packed[i / 4] = static_cast<std::uint8_t>(packed[i / 4] | (symbols[i] << (2 * (i % 4))));
}

BlockCache::BlockCache(std::size_t bytes)
    : per_shard_(std::max<std::size_t>(1, bytes / (kBlockPositions / 4) / kShards)) {}

}  // namespace tsuru::egdb
