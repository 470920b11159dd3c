// The trainer of the pattern evaluation (eval/pattern*.hpp): logistic regression of the game
// result, blended with the search score as in Texel tuning, on the sparse pattern features
// (the model: train_model.hpp).
//
// The model is the evaluation itself in floating point: a score z in centi-men, a win
// probability sigmoid(k z). The scale k is the classic evaluation's, fitted on the training
// positions first, so that the learned weights come out in the engine's units (a man about 100).
//
// Loss: cross-entropy against the target t = blend * result + (1 - blend) * sigmoid(k * search
// score) (result 1 won, 0.5 drawn, 0 lost; positions without a score use the result alone),
// weighted by each position's weight (train_data.hpp: its file's weight, repeats merged), plus
// for each parameter group its own l2 times its squared weights. Sparse ("lazy") Adam on
// mini-batches: a step moves only the parameters the batch's positions use, so millions of
// weights cost no more per step than the batch touches.
//
// The sample files are streamed, never held whole (train_data.hpp gives the memory): each epoch
// takes the files' blocks of 65,536 samples in a shuffled order, a window of blocks at a time
// (--window samples), and shuffles each window's positions into batches. Deterministic for a
// seed whatever the thread count: each of a fixed number of slices of a batch collects its own
// gradient entries, and they are summed in slice order; the result is the same whether the
// samples come from files or from memory.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/variant.hpp"
#include "eval/pattern_weights.hpp"
#include "tools/train/sample.hpp"
#include "tools/train/train_data.hpp"
#include "tools/train/train_model.hpp"

namespace tsuru::train {

// The scales fit_scale searches from (per centi-man), and the one training takes when the
// classic evaluation's fit ends at that low end (its scores say nothing of the results). At
// 0.001 a score of 1,000 centi-men reads as a 73 % win probability; the antidraughts games fit
// 0.00093.
inline constexpr double kMinScale = 1e-5;
inline constexpr double kFallbackScale = 0.001;

struct TrainOptions {
  int epochs = 10;
  double lr = 1.0;  // Adam step size, centi-men
  // Per squared centi-man of weight, for each parameter group (train_model.hpp kGroupNames).
  // Measured on the 2026-12 English data (held-out loss on positions no training game reached):
  // men windows best with none, the king groups with a little. The wide windows' per-window
  // part gets a little, their row bands' shared part none (as the men windows' shared part).
  std::array<double, kParamGroups> l2 = {0, 1e-7, 0, 1e-7, 1e-6, 1e-7, 0};
  int threads = 1;
  double validation = 0.05;  // share of the games held out
  std::uint64_t seed = 1;
  double blend = 1.0;         // weight of the game result in the target (1 = result only)
  int batch = 16384;          // positions per Adam step
  double scale = 0;           // k, per centi-man; 0 = fit the classic evaluation's (kFallbackScale
                              // when that fit says the classic evaluation predicts nothing)
  bool region_kings = false;  // fit a king-window table per region besides the shared one
  bool wide = false;          // fit the wide windows (pattern_layout.hpp)
  // A position met several times trains once with the mean target and the summed weight
  // (train_data.hpp): the same loss at less cost, but on the 2026-12 data it trained worse
  // weights (the heavy positions make noisy batches), so it is off by default.
  bool dedupe = false;
  // Train (and score) positions with no man on the board too. Off by default: on the 2026-12
  // English data the held-out loss on positions no training game reached was worse with them
  // (README "Training an evaluation").
  bool kings_only = false;
  // Train the weights as a correction added to the classic evaluation's score rather than as a
  // whole evaluation (eval/pattern_weights.hpp, on_classic): for the rule sets whose hand-set
  // terms (runaway men, king endings) the windows do not see, and little data.
  bool on_classic = false;
  std::size_t window = 1u << 22;   // samples shuffled together
  std::uint64_t block = 1u << 16;  // samples a block, the unit the epochs' order shuffles
  const eval::PatternWeights* init = nullptr;     // start from these weights (else material)
  const eval::PatternWeights* compare = nullptr;  // report these weights' held-out loss too
};

struct EpochReport {
  int epoch = 0;
  double train_loss = 0;       // weighted mean over the epoch's batches, before each step
  double validation_loss = 0;  // after the epoch (the floating-point model)
  double seconds = 0;          // since training started
};

struct TrainReport {
  std::size_t samples = 0;
  std::size_t train_positions = 0;  // training samples, before deduplication
  std::size_t distinct_positions = 0;
  std::size_t validation_positions = 0;
  std::size_t kings_only = 0;  // positions with no man on the board (left out unless trained)
  std::size_t parameters = 0;
  double scale = 0;  // k: the classic evaluation's fitted scale on the training positions
  bool scale_fallback = false;  // ... which was at kMinScale: kFallbackScale used instead
  std::vector<EpochReport> epochs;
  // On the validation positions, with the same targets:
  double pattern_loss = 0;            // the written (rounded) weights, endgame knowledge included
  double classic_loss = 0;            // the classic evaluation at its own fitted scale ...
  double classic_scale = 0;           // ... this one
  double pattern_fitted_loss = 0;     // the written weights at their own fitted scale
  std::size_t validation_unseen = 0;  // validation positions that no training game reached
  double unseen_loss = 0;             // the written weights on those
  double unseen_compare_loss = 0;     // options.compare's weights on those
  double classic_kings_loss = 0;      // the written weights, the classic evaluation on kings only
  double compare_loss = 0;            // options.compare's weights at the scale k (when given)
};

// Trains weights for rule set v on the samples of the sources (game numbers are per source).
// on_epoch is called after each epoch.
Expected<TrainReport> train(Variant v, const std::vector<TrainSource>& sources,
                            const TrainOptions& options, eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch = {});
// The same on samples in memory, one vector a file, each of weight 1.
Expected<TrainReport> train(Variant v, const std::vector<std::vector<Sample>>& files,
                            const TrainOptions& options, eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch = {});

// Mean cross-entropy of sigmoid(scale * score) against targets; the scale that minimises it.
double logistic_loss(const std::vector<double>& scores, const std::vector<double>& targets,
                     double scale);
double fit_scale(const std::vector<double>& scores, const std::vector<double>& targets);

}  // namespace tsuru::train
