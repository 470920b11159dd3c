// The trainer of the pattern evaluation (eval/pattern*.hpp): logistic regression of the game
// result, blended with the search score as in Texel tuning, on the sparse pattern features.
//
// The model is the evaluation itself in floating point: a score z in centi-men (region weights,
// linear terms, opening and endgame sets blended by the phase), a win probability sigmoid(k z).
// The scale k is the classic evaluation's, fitted on the training positions first, so that the
// learned weights come out in the engine's units (a man about 100). Each region weight is
// learned as a per-region part plus a part shared by all regions (the same state anywhere on the
// board), folded together when the weights are written: rare states borrow from the shared part
// while data is short.
//
// Loss: cross-entropy against the target t = blend * result + (1 - blend) * sigmoid(k * search
// score) (result 1 won, 0.5 drawn, 0 lost; positions without a score use the result alone),
// plus l2 times the sum of squared region weights. Adam on mini-batches. The validation split
// is by game (a game's positions are all in or all out), drawn from the seed. Deterministic for
// a seed whatever the thread count: each thread fills its own gradient buffer for its slice of
// a batch, and the buffers are summed in a fixed order.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/variant.hpp"
#include "eval/pattern_weights.hpp"
#include "tools/train/sample.hpp"

namespace tsuru::train {

struct TrainOptions {
  int epochs = 10;
  double lr = 1.0;   // Adam step size, centi-men
  double l2 = 1e-8;  // per squared centi-man of region weight
  int threads = 1;
  double validation = 0.05;  // share of the games held out
  std::uint64_t seed = 1;
  double blend = 1.0;  // weight of the game result in the target (1 = result only)
  int batch = 16384;   // positions per Adam step
  double scale = 0;    // k, per centi-man; 0 = fit the classic evaluation's
};

struct EpochReport {
  int epoch = 0;
  double train_loss = 0;       // mean over the epoch's batches, before each step
  double validation_loss = 0;  // after the epoch (the floating-point model)
};

struct TrainReport {
  std::size_t train_positions = 0;
  std::size_t validation_positions = 0;
  std::size_t kings_only = 0;  // positions left out: no man on the board (classic evaluation)
  double scale = 0;            // k: the classic evaluation's fitted scale on the training positions
  std::vector<EpochReport> epochs;
  // On the validation positions, with the same targets:
  double pattern_loss = 0;         // the written (rounded) weights, endgame knowledge included
  double classic_loss = 0;         // the classic evaluation at its own fitted scale ...
  double classic_scale = 0;        // ... this one
  double pattern_fitted_loss = 0;  // the written weights at their own fitted scale
};

// Trains weights for rule set v on the samples of one or more files (game numbers are per file).
// on_epoch is called after each epoch.
Expected<TrainReport> train(Variant v, const std::vector<std::vector<Sample>>& files,
                            const TrainOptions& options, eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch = {});

// Mean cross-entropy of sigmoid(scale * score) against targets; the scale that minimises it.
double logistic_loss(const std::vector<double>& scores, const std::vector<double>& targets,
                     double scale);
double fit_scale(const std::vector<double>& scores, const std::vector<double>& targets);

}  // namespace tsuru::train
