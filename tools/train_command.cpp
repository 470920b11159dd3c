// tsuru train: fit the pattern evaluation's weights to self-play samples (tools/train/trainer.hpp)
// and write a weights file (eval/pattern_weights.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <boost/program_options.hpp>

#include "tools/commands.hpp"
#include "tools/options.hpp"
#include "tools/train/trainer.hpp"

namespace tsuru::tools {

namespace {

// "FILE" or "FILE:WEIGHT" (the weight a number): a sample file and its weight in the loss.
std::pair<std::string, double> data_spec(const std::string& spec) {
  const std::size_t colon = spec.rfind(':');
  if (colon != std::string::npos && colon + 1 < spec.size()) {
    const std::string tail = spec.substr(colon + 1);
    char* end = nullptr;
    const double w = std::strtod(tail.c_str(), &end);
    if (end && *end == '\0') return {spec.substr(0, colon), w};
  }
  return {spec, 1.0};
}

}  // namespace

int run_train(const Args& args) {
  namespace po = boost::program_options;
  std::string variant_name = "international", out, init, compare = std::string(eval::kBuiltinEval);
  std::vector<std::string> data, l2_groups;
  double l2 = -1;
  std::size_t window = 0;
  train::TrainOptions o;
  po::options_description desc(
      "tsuru train: fit pattern-evaluation weights to self-play samples (tsuru selfplay)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "data", po::value(&data)->multitoken()->required(),
      "sample files (tsuru selfplay --out), each FILE or FILE:WEIGHT (its positions' weight in "
      "the loss, 1 by default)")("out", po::value(&out)->required(), "weights file to write")(
      "init", po::value(&init),
      "start from these weights (a weights file, or builtin) instead of material alone")(
      "compare", po::value(&compare)->default_value(compare),
      "also give the held-out loss of these weights (builtin: the shipped ones; empty: none)")(
      "epochs", po::value(&o.epochs)->default_value(o.epochs),
      "passes over the training positions")("lr", po::value(&o.lr)->default_value(o.lr),
                                            "Adam step size, centi-men")(
      "l2", po::value(&l2),
      "L2 penalty per squared centi-man of weight, for every group but the linear terms")(
      "l2-group", po::value(&l2_groups)->multitoken(),
      "GROUP=X: the L2 penalty of one group (men, wide, wide-bands, kings, region-kings, "
      "king-squares, linear); defaults men=0 wide=1e-7 wide-bands=0 kings=1e-7 "
      "region-kings=1e-6 king-squares=1e-7 linear=0")(
      "region-kings", "fit a king-window table per region besides the shared one")(
      "wide",
      "fit the wide windows (4 rows of 3 squares, 3^12 states each; a table per window plus one "
      "shared by each row band) besides the regions")(
      "dedupe",
      "train each distinct position once (the mean target, the occurrences' summed weight)")(
      "kings-only",
      "train the positions with no man on the board too; the weights then score them (else the "
      "classic evaluation does)")(
      "on-classic",
      "train the weights as a correction added to the classic evaluation (which they then "
      "play on top of) rather than as a whole evaluation")(
      "window", po::value(&window),
      "samples shuffled together (memory: about 48 bytes each; default 4194304)")(
      "threads", po::value(&o.threads)->default_value(o.threads),
      "threads (the result does not depend on it)")(
      "validation", po::value(&o.validation)->default_value(o.validation),
      "share of the games held out for validation")(
      "seed", po::value(&o.seed)->default_value(o.seed), "seed of the split and the shuffles")(
      "blend", po::value(&o.blend)->default_value(o.blend),
      "weight of the game result in the target; the rest is the search score's win probability")(
      "batch", po::value(&o.batch)->default_value(o.batch), "positions per Adam step")(
      "scale", po::value(&o.scale),
      "k of the win probability sigmoid(k * score), per centi-man (default: the classic "
      "evaluation's, fitted to the results; 0.001 where the classic evaluation does not predict "
      "them)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = variant_from_name(variant_name);
  if (!eval::has_patterns(v)) {
    std::fprintf(stderr, "train: rule set %s has no pattern evaluation\n", variant_name.c_str());
    return 2;
  }
  if (l2 >= 0)
    for (std::size_t g = 0; g + 1 < train::kParamGroups; ++g) o.l2[g] = l2;
  for (const std::string& spec : l2_groups) {
    const std::size_t eq = spec.find('=');
    const auto name = spec.substr(0, eq == std::string::npos ? spec.size() : eq);
    const auto it = std::find(train::kGroupNames.begin(), train::kGroupNames.end(), name);
    char* end = nullptr;
    const double x = eq == std::string::npos ? -1 : std::strtod(spec.c_str() + eq + 1, &end);
    if (it == train::kGroupNames.end() || !end || *end != '\0' || !(x >= 0)) {
      std::fprintf(stderr, "train: bad --l2-group '%s' (GROUP=X, X >= 0)\n", spec.c_str());
      return 2;
    }
    o.l2[static_cast<std::size_t>(it - train::kGroupNames.begin())] = x;
  }
  if (!(o.scale >= 0) || !std::isfinite(o.scale)) {
    std::fprintf(stderr, "train: bad --scale %g (k per centi-man; 0 fits it)\n", o.scale);
    return 2;
  }
  o.region_kings = vm.count("region-kings") > 0;
  o.wide = vm.count("wide") > 0;
  o.dedupe = vm.count("dedupe") > 0;
  o.kings_only = vm.count("kings-only") > 0;
  o.on_classic = vm.count("on-classic") > 0;
  if (vm.count("window")) o.window = window;
  std::shared_ptr<const eval::PatternWeights> init_weights, compare_weights;
  for (auto [spec, target] :
       {std::pair{&init, &init_weights}, std::pair{&compare, &compare_weights}}) {
    if (spec->empty()) continue;
    auto w = eval::load_evaluation(v, *spec);
    if (!w) {
      std::fprintf(stderr, "train: %s\n", w.error().c_str());
      return 2;
    }
    *target = *w;
  }
  o.init = init_weights.get();
  o.compare = compare_weights.get();

  std::vector<std::unique_ptr<train::SampleFileReader>> readers;
  std::vector<train::TrainSource> sources;
  for (const std::string& spec : data) {
    const auto [path, weight] = data_spec(spec);
    auto reader = train::SampleFileReader::open(v, path);
    if (!reader) {
      std::fprintf(stderr, "train: %s\n", reader.error().c_str());
      return 1;
    }
    std::fprintf(stderr, "train: %s: %llu positions, weight %g\n", path.c_str(),
                 static_cast<unsigned long long>((*reader)->size()), weight);
    sources.push_back({reader->get(), weight});
    readers.push_back(std::move(reader.value()));
  }
  eval::PatternWeights weights;
  const auto report = train::train(v, sources, o, weights, [&](const train::EpochReport& e) {
    std::printf("epoch=%d train_loss=%.6f validation_loss=%.6f time=%.1f\n", e.epoch, e.train_loss,
                e.validation_loss, e.seconds);
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
  if (report->scale_fallback)
    std::fprintf(stderr,
                 "train: the classic evaluation does not predict these results (its fitted scale "
                 "is at the search's end, %g): trained at scale %g (--scale sets it)\n",
                 train::kMinScale, train::kFallbackScale);
  std::printf(
      "positions=%zu train=%zu distinct=%zu validation=%zu kings_only=%zu parameters=%zu "
      "scale=%.6f\n",
      report->samples, report->train_positions, report->distinct_positions,
      report->validation_positions, report->kings_only, report->parameters, report->scale);
  std::printf("validation loss: pattern=%.6f pattern_fitted=%.6f classic_fitted=%.6f",
              report->pattern_loss, report->pattern_fitted_loss, report->classic_loss);
  if (o.compare) std::printf(" compare=%.6f", report->compare_loss);
  if (o.kings_only) std::printf(" classic_kings=%.6f", report->classic_kings_loss);
  std::printf(" (classic scale %.6f)\n", report->classic_scale);
  std::printf("positions no training game reached: %zu, loss pattern=%.6f",
              report->validation_unseen, report->unseen_loss);
  if (o.compare) std::printf(" compare=%.6f", report->unseen_compare_loss);
  std::printf("\n");
  std::printf("weights %s: man=%.2f/%.2f king=%.2f/%.2f (opening/endgame, centi-men)\n",
              out.c_str(), weights.linear[0][eval::kMen] / double{eval::kWeightScale},
              weights.linear[1][eval::kMen] / double{eval::kWeightScale},
              weights.linear[0][eval::kKings] / double{eval::kWeightScale},
              weights.linear[1][eval::kKings] / double{eval::kWeightScale});
  return 0;
}

}  // namespace tsuru::tools
