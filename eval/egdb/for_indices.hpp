// The one way the endgame database code spreads a loop over threads: contiguous ranges of
// indices, one a thread, the calling thread taking the first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace tsuru::egdb {

// f(index) for every index of [0, n), over `threads` threads by ranges; the first exception is
// rethrown.
template <class F>
void for_indices(int threads, std::uint64_t n, const F& f) {
  const auto parts = static_cast<std::uint64_t>(std::max(1, threads));
  std::vector<std::exception_ptr> errors(parts);
  auto work = [&](std::uint64_t t) {
    try {
      for (std::uint64_t i = n * t / parts; i < n * (t + 1) / parts; ++i) f(i);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (std::uint64_t t = 1; t < parts; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace tsuru::egdb
