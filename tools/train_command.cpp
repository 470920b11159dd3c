// tsuru train: fit the pattern evaluation's weights to self-play samples (tools/train/trainer.hpp)
// and write a weights file (eval/pattern_weights.hpp).
#include <chrono>
#include <cstdio>

#include <boost/program_options.hpp>

#include "tools/commands.hpp"
#include "tools/options.hpp"
#include "tools/train/trainer.hpp"

namespace tsuru::tools {

int run_train(const Args& args) {
  namespace po = boost::program_options;
  std::string variant_name = "international", out;
  std::vector<std::string> data;
  train::TrainOptions o;
  po::options_description desc(
      "tsuru train: fit pattern-evaluation weights to self-play samples (tsuru selfplay)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "data", po::value(&data)->multitoken()->required(), "sample files (tsuru selfplay --out)")(
      "out", po::value(&out)->required(), "weights file to write")(
      "epochs", po::value(&o.epochs)->default_value(o.epochs),
      "passes over the training positions")("lr", po::value(&o.lr)->default_value(o.lr),
                                            "Adam step size, centi-men")(
      "l2", po::value(&o.l2)->default_value(o.l2),
      "L2 penalty per squared centi-man of region weight")(
      "threads", po::value(&o.threads)->default_value(o.threads),
      "threads (the result does not depend on it)")(
      "validation", po::value(&o.validation)->default_value(o.validation),
      "share of the games held out for validation")(
      "seed", po::value(&o.seed)->default_value(o.seed), "seed of the split and the shuffles")(
      "blend", po::value(&o.blend)->default_value(o.blend),
      "weight of the game result in the target; the rest is the search score's win probability")(
      "batch", po::value(&o.batch)->default_value(o.batch), "positions per Adam step");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = variant_from_name(variant_name);
  if (!eval::has_patterns(v)) {
    std::fprintf(stderr, "train: rule set %s has no pattern evaluation\n", variant_name.c_str());
    return 2;
  }
  std::vector<std::vector<train::Sample>> files;
  std::size_t total = 0;
  for (const std::string& path : data) {
    auto samples = train::read_samples(v, path);
    if (!samples) {
      std::fprintf(stderr, "train: %s: %s\n", path.c_str(), samples.error().c_str());
      return 1;
    }
    total += samples->size();
    std::fprintf(stderr, "train: %s: %zu positions\n", path.c_str(), samples->size());
    files.push_back(std::move(samples.value()));
  }
  const auto start = std::chrono::steady_clock::now();
  eval::PatternWeights weights;
  const auto report = train::train(v, files, o, weights, [&](const train::EpochReport& e) {
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("epoch=%d train_loss=%.6f validation_loss=%.6f time=%.1f\n", e.epoch, e.train_loss,
                e.validation_loss, secs);
    std::fflush(stdout);
  });
  if (!report) {
    std::fprintf(stderr, "train: %s\n", report.error().c_str());
    return 1;
  }
  const auto written = eval::write_weights(out, weights);
  if (!written) {
    std::fprintf(stderr, "train: %s\n", written.error().c_str());
    return 1;
  }
  std::printf("positions=%zu train=%zu validation=%zu kings_only=%zu scale=%.6f\n", total,
              report->train_positions, report->validation_positions, report->kings_only,
              report->scale);
  std::printf(
      "validation loss: pattern=%.6f pattern_fitted=%.6f classic_fitted=%.6f "
      "(classic scale %.6f)\n",
      report->pattern_loss, report->pattern_fitted_loss, report->classic_loss,
      report->classic_scale);
  std::printf("weights %s: man=%.2f/%.2f king=%.2f/%.2f (opening/endgame, centi-men)\n",
              out.c_str(), weights.linear[0][eval::kMen] / double{eval::kWeightScale},
              weights.linear[1][eval::kMen] / double{eval::kWeightScale},
              weights.linear[0][eval::kKings] / double{eval::kWeightScale},
              weights.linear[1][eval::kKings] / double{eval::kWeightScale});
  return 0;
}

}  // namespace tsuru::tools
