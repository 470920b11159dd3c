// A shard of a match: `tsuru match --shard I/N` plays the I-th of N nearly equal runs of
// consecutive game pairs (pairs.hpp), the openings and colours those games have in the whole
// match. Consecutive pairs, not every N-th: the first k shards of a run are then exactly the
// first games of it, which a run of that many games would play, so shards submitted in batches
// (an SPRT on a cluster, docs/cluster.md) always add up to the start of one match.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace tsuru::match {

struct Shard {
  int index = 0;  // I, 0 <= I < count
  int count = 1;  // N
};

// "I/N" with 0 <= I < N <= 1,000,000; nullopt otherwise.
std::optional<Shard> parse_shard(std::string_view text);

// The games of shard s of a match of `games` games (0-based, ascending): those of pairs
// floor(I P / N) up to floor((I + 1) P / N) - 1 of the P = ceil(games / 2) pairs; empty when
// N > P leaves the shard none.
std::vector<int> shard_games(int games, Shard s);

}  // namespace tsuru::match
