#include "tools/train/train_data.hpp"

#include <algorithm>
#include <limits>

#include "tools/train/splitmix.hpp"

namespace tsuru::train {
namespace {

constexpr std::size_t kReadChunk = 1 << 16;  // samples read at a time

}  // namespace

bool is_validation_game(std::uint64_t seed, std::size_t source, std::uint32_t game, double share) {
  const std::uint64_t h = splitmix(seed ^ splitmix((std::uint64_t{source} << 32) | game));
  return static_cast<double>(h >> 11) * 0x1.0p-53 < share;
}

Expected<TrainSplit> scan_samples(const std::vector<TrainSource>& sources, const SplitOptions& o) {
  using E = Expected<TrainSplit>;
  if (sources.size() > std::numeric_limits<std::uint16_t>::max())
    return E::failure("too many sample files");
  TrainSplit split;
  std::uint64_t total = 0;
  for (const TrainSource& s : sources) total += s.samples->size();
  // Every step-th sample is offered to the scale set: spread over all the files.
  const std::uint64_t step =
      std::max<std::uint64_t>(1, total / std::max<std::size_t>(1, o.scale_samples));
  std::uint64_t seen = 0;
  std::vector<Sample> chunk;
  for (std::size_t f = 0; f < sources.size(); ++f) {
    const SampleSource& src = *sources[f].samples;
    for (std::uint64_t first = 0; first < src.size(); first += kReadChunk) {
      chunk.clear();
      const auto n =
          static_cast<std::size_t>(std::min<std::uint64_t>(kReadChunk, src.size() - first));
      if (const auto ok = src.read(first, n, chunk); !ok) return E::failure(ok.error());
      for (std::size_t i = 0; i < n; ++i, ++seen) {
        const Sample& s = chunk[i];
        if (!((s.white | s.black) & ~s.kings)) {
          ++split.kings_only;
          if (!o.kings_only) continue;
        }
        if (is_validation_game(o.seed, f, s.game, o.validation)) {
          split.validation.push_back(s);
          continue;
        }
        ++split.training;
        if (seen % step == 0 && split.scale_set.size() < o.scale_samples)
          split.scale_set.push_back(s);
        split.occurrences.push_back({s.position().key(), static_cast<std::uint32_t>(first + i),
                                     static_cast<std::uint16_t>(f), s.score, s.result});
      }
    }
  }
  split.samples = static_cast<std::size_t>(total);
  return split;
}

void assign_targets(TrainSplit& split, const std::vector<TrainSource>& sources,
                    const SplitOptions& o,
                    const std::function<double(double, std::int16_t)>& target) {
  split.target.assign(sources.size(), {});
  split.weight.assign(sources.size(), {});
  for (std::size_t f = 0; f < sources.size(); ++f) {
    const auto n = static_cast<std::size_t>(sources[f].samples->size());
    split.target[f].assign(n, std::numeric_limits<float>::quiet_NaN());
    split.weight[f].assign(n, 0.0f);
  }
  auto& occ = split.occurrences;
  using Occurrence = TrainSplit::Occurrence;
  // Occurrences of one position together, the first (by file, then sample) first.
  auto order = [](const Occurrence& a, const Occurrence& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.source != b.source) return a.source < b.source;
    return a.index < b.index;
  };
  std::sort(occ.begin(), occ.end(), order);
  split.validation_seen.assign(split.validation.size(), false);
  for (std::size_t i = 0; i < split.validation.size(); ++i) {
    const std::uint64_t key = split.validation[i].position().key();
    const auto it =
        std::lower_bound(occ.begin(), occ.end(), key,
                         [](const Occurrence& a, std::uint64_t k) { return a.key < k; });
    split.validation_seen[i] = it != occ.end() && it->key == key;
  }
  split.distinct = 0;
  for (std::size_t i = 0; i < occ.size();) {
    std::size_t j = i + 1;
    if (o.dedupe)
      while (j < occ.size() && occ[j].key == occ[i].key) ++j;
    double sum = 0, weights = 0;
    for (std::size_t k = i; k < j; ++k) {
      const double w = sources[occ[k].source].weight;
      sum += w * target(result01(occ[k].result), occ[k].score);
      weights += w;
    }
    const Occurrence& first = occ[i];
    split.target[first.source][first.index] = static_cast<float>(
        weights > 0 ? sum / weights : target(result01(first.result), first.score));
    split.weight[first.source][first.index] = static_cast<float>(weights);
    ++split.distinct;
    i = j;
  }
  occ.clear();
  occ.shrink_to_fit();
}

}  // namespace tsuru::train
