// SplitMix64's finaliser: spreads a key over 64 bits so that neighbouring keys (games, seeds)
// give unrelated values. Self-play seeds each game's generator with it and the trainer draws
// its validation split with it; both depend on its exact values (the files they make).
#pragma once

#include <cstdint>

namespace tsuru::train {

inline std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace tsuru::train
