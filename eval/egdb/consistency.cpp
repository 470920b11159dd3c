// The consistency check of a built slice (consistency.hpp).
#include "eval/egdb/consistency.hpp"

#include <algorithm>
#include <climits>
#include <thread>
#include <vector>

#include "engine/rules/movegen.hpp"

namespace tsuru::egdb {
namespace {

// The k-th sampled index of a slice of `size` indices (splitmix64 of seed and k).
std::uint64_t sample_index(std::uint64_t seed, std::uint64_t k, std::uint64_t size) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + (k + 1) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) % size;
}

void merge(ConsistencyReport& into, const ConsistencyReport& r) {
  into.sampled += r.sampled;
  into.positions += r.positions;
  into.unknown += r.unknown;
  into.checked += r.checked;
  into.distances += r.distances;
  into.wrong += r.wrong;
  if (r.first_wrong && (!into.first_wrong || *r.first_wrong < *into.first_wrong))
    into.first_wrong = r.first_wrong;
}

// Judges the positions of indices [begin, end) of the sample sequence.
template <class R>
ConsistencyReport check_range(const Layout& layout, const Slice& s, const ProbeFunction& probe,
                              const ConsistencyOptions& options, std::uint64_t size,
                              std::uint64_t begin, std::uint64_t end) {
  // What the side to move has when it has no move (or no piece).
  const Wdl stuck = R::kNoMoveWins ? Wdl::Win : Wdl::Loss;
  const bool every = options.samples >= size;
  const SliceUnranker unranker(layout, s);
  ConsistencyReport r;
  r.slice = s;
  for (std::uint64_t k = begin; k < end; ++k) {
    const std::uint64_t index = every ? k : sample_index(options.seed, k, size);
    ++r.sampled;
    const auto placement = unranker(index);
    if (!placement) continue;
    const Position pos = position_of(layout, *placement);
    const auto here = probe(pos);
    if (!here) continue;
    ++r.positions;
    MoveList moves;
    MoveGen<R>::generate(pos, moves);
    int losses = 0, draws = 0, wins = 0, min_loss = INT_MAX, max_win = -1;
    bool loss_distances = true, win_distances = true, known = true;
    for (const Move& m : moves) {
      const Position child = pos.after(m);
      std::optional<Probe> c;
      if (child.pieces(child.turn()) == 0)
        c = Probe{stuck, 0};
      else
        c = probe(child);
      if (!c) {
        known = false;
        break;
      }
      if (c->wdl == Wdl::Loss) {
        ++losses;
        if (c->distance < 0) loss_distances = false;
        min_loss = std::min(min_loss, c->distance);
      } else if (c->wdl == Wdl::Draw) {
        ++draws;
      } else {
        ++wins;
        if (c->distance < 0) win_distances = false;
        max_win = std::max(max_win, c->distance);
      }
    }
    if (!known) {
      ++r.unknown;
      continue;
    }
    ++r.checked;
    bool ok = false, judged_distance = false;
    if (moves.empty()) {
      ok = here->wdl == stuck;
      judged_distance = here->distance >= 0;
      if (judged_distance) ok = ok && here->distance == 0;
    } else if (here->wdl == Wdl::Win) {
      ok = losses > 0;
      judged_distance = ok && here->distance >= 0 && loss_distances;
      if (judged_distance) ok = here->distance == min_loss + 1;
    } else if (here->wdl == Wdl::Loss) {
      ok = losses + draws == 0 && wins > 0;
      judged_distance = ok && here->distance >= 0 && win_distances;
      if (judged_distance) ok = here->distance == max_win + 1;
    } else {
      ok = losses == 0 && draws > 0;
    }
    if (judged_distance) ++r.distances;
    if (!ok) {
      ++r.wrong;
      if (!r.first_wrong || index < *r.first_wrong) r.first_wrong = index;
    }
  }
  return r;
}

}  // namespace

ConsistencyReport check_consistency(Variant v, const Slice& s, const ProbeFunction& probe,
                                    const ConsistencyOptions& options) {
  const Layout layout = layout_of(v);
  const std::uint64_t size = slice_size(layout, s);
  ConsistencyReport report;
  report.slice = s;
  report.size = size;
  if (size == 0) return report;
  const std::uint64_t total = std::min(options.samples, size);
  const int threads = static_cast<int>(
      std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::max(1, options.threads)), 1,
                                std::max<std::uint64_t>(1, total / 1024)));
  with_rules(v, [&]<class R>(R) {
    std::vector<ConsistencyReport> parts(static_cast<std::size_t>(threads));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        const auto n = static_cast<std::uint64_t>(threads);
        const std::uint64_t begin = total * static_cast<std::uint64_t>(t) / n;
        const std::uint64_t end = total * static_cast<std::uint64_t>(t + 1) / n;
        parts[static_cast<std::size_t>(t)] =
            check_range<R>(layout, s, probe, options, size, begin, end);
      });
    for (std::thread& th : pool) th.join();
    for (const ConsistencyReport& part : parts) merge(report, part);
  });
  return report;
}

ProbeFunction probe_of(const Database& db) {
  return [&db](const Position& pos) { return db.probe(pos); };
}

}  // namespace tsuru::egdb
