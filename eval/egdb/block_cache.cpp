#include "eval/egdb/block_cache.hpp"

#include <algorithm>

#include "eval/egdb/format.hpp"

namespace tsuru::egdb {

BlockCache::BlockCache(std::size_t bytes)
    : per_shard_(std::max<std::size_t>(1, bytes / (kBlockPositions / 4) / kShards)) {}

}  // namespace tsuru::egdb
