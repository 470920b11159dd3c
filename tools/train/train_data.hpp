// The trainer's view of its sample files (tools/train/trainer.hpp): which samples train, which
// are held out, and each training position's target and weight, found in one streaming pass so
// that the files themselves are never held in memory.
//
// - Positions with no man on the board are left out unless asked for (weights that score them:
//   eval/pattern.hpp); otherwise the classic evaluation scores them.
// - The validation split is by game (a game's positions all go the same way), drawn from the
//   seed, the file and the game number; the held-out samples are kept in memory (a few percent).
// - Deduplication: a position (its Zobrist key, side to move included) met several times in the
//   training games trains once, at its first occurrence, with the weighted mean of the targets
//   of all its occurrences and the sum of their weights: the loss is the same as with every
//   occurrence (cross-entropy is linear in the target), at the cost of one position.
// - A file's weight scales its positions' share of the loss (recent generations weigh more).
//
// Memory: 4 bytes a sample for the targets and 4 for the weights, plus 24 bytes a training
// sample while the pass runs.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/rules/expected.hpp"
#include "tools/train/sample.hpp"

namespace tsuru::train {

struct TrainSource {
  const SampleSource* samples = nullptr;
  double weight = 1.0;
};

struct SplitOptions {
  double validation = 0.05;
  std::uint64_t seed = 1;
  bool dedupe = true;
  bool kings_only = false;             // train positions with no man too
  std::size_t scale_samples = 200000;  // training samples kept to fit the scale
};

struct TrainSplit {
  // Per source, per sample: the training target (NaN where the sample does not train: held
  // out, kings only, or a repeat of a position met before) and the weight in the loss; filled
  // by assign_targets.
  std::vector<std::vector<float>> target, weight;
  std::vector<Sample> validation;  // the held-out samples
  // validation_seen[i]: validation[i]'s position occurs in the training games too (filled by
  // assign_targets); the loss on the others says how the weights do on positions never met.
  std::vector<bool> validation_seen;
  std::vector<Sample> scale_set;  // up to scale_samples training samples, spread evenly
  std::size_t samples = 0;        // in all sources
  std::size_t kings_only = 0;     // samples with no man on the board (left out unless asked for)
  std::size_t training = 0;       // training samples (before deduplication)
  std::size_t distinct = 0;       // training positions that train (after deduplication)

  // One training sample, until assign_targets has used it.
  struct Occurrence {
    std::uint64_t key;
    std::uint32_t index;
    std::uint16_t source;
    std::int16_t score;
    std::int8_t result;
  };
  std::vector<Occurrence> occurrences;
};

// A sample's result for the side to move as a probability: 1 won, 0.5 drawn, 0 lost.
inline double result01(int result) {
  return 0.5 * (result + 1);
}

// Whether a game of a source is held out.
bool is_validation_game(std::uint64_t seed, std::size_t source, std::uint32_t game, double share);

// The pass over the sources: the split, the held-out samples, the scale set and the training
// occurrences.
Expected<TrainSplit> scan_samples(const std::vector<TrainSource>& sources, const SplitOptions& o);

// Each training position's target (target(result01, score) of each occurrence, merged over
// repeats when o.dedupe) and weight; frees the occurrences.
void assign_targets(TrainSplit& split, const std::vector<TrainSource>& sources,
                    const SplitOptions& o,
                    const std::function<double(double, std::int16_t)>& target);

}  // namespace tsuru::train
