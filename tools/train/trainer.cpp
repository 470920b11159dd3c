#include "tools/train/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "eval/pattern.hpp"

namespace tsuru::train {
namespace {

// A batch is cut into this many slices whatever the thread count, each collecting its own
// gradient entries, summed in slice order: the result does not depend on --threads.
constexpr int kSlices = 16;

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

double cross_entropy(double p, double t) {
  constexpr double eps = 1e-12;
  p = std::clamp(p, eps, 1.0 - eps);
  return -(t * std::log(p) + (1.0 - t) * std::log(1.0 - p));
}

// Runs f(slice) for slices 0..kSlices-1 on `threads` threads.
template <class F>
void for_slices(int threads, F&& f) {
  const int n = std::clamp(threads, 1, kSlices);
  if (n == 1) {
    for (int s = 0; s < kSlices; ++s) f(s);
    return;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < n; ++t)
    pool.emplace_back([&, t] {
      for (int s = t; s < kSlices; s += n) f(s);
    });
  for (auto& th : pool) th.join();
}

// [a, b) of slice s of n items.
std::pair<std::size_t, std::size_t> slice_range(std::size_t n, int s) {
  return {n * static_cast<std::size_t>(s) / kSlices, n * static_cast<std::size_t>(s + 1) / kSlices};
}

struct Item {
  Sample sample;
  float target;
  float weight;
};

struct Block {
  std::size_t source;
  std::uint64_t first;
  std::size_t n;
};

template <class R>
class Trainer {
 public:
  Trainer(Variant v, const TrainOptions& options)
      : variant_(v), o_(options), model_(options.region_kings, options.wide) {}

  Expected<TrainReport> run(const std::vector<TrainSource>& sources, eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch) {
    using E = Expected<TrainReport>;
    const auto start = std::chrono::steady_clock::now();
    const bool l2_ok = std::all_of(o_.l2.begin(), o_.l2.end(), [](double x) { return x >= 0; });
    if (o_.epochs < 0 || o_.threads < 1 || !(o_.lr > 0) || !l2_ok ||
        !(o_.validation >= 0 && o_.validation < 1) || !(o_.blend >= 0 && o_.blend <= 1) ||
        o_.batch < 1 || o_.window < 1 || o_.block < 1)
      return E::failure(
          "bad training options (epochs >= 0, threads >= 1, lr > 0, l2 >= 0, "
          "0 <= validation < 1, 0 <= blend <= 1, batch >= 1, window >= 1, block >= 1)");
    for (const TrainSource& s : sources)
      if (!s.samples || !(s.weight >= 0)) return E::failure("bad sample source or weight");
    if (o_.init && o_.init->variant != variant_)
      return E::failure("the initial weights are for another rule set");

    SplitOptions split_options;
    split_options.validation = o_.validation;
    split_options.seed = o_.seed;
    split_options.dedupe = o_.dedupe;
    split_options.kings_only = o_.kings_only;
    auto scanned = scan_samples(sources, split_options);
    if (!scanned) return E::failure(scanned.error());
    TrainSplit& split = scanned.value();
    if (split.training == 0) return E::failure("no training positions (all held out, or no data)");

    TrainReport report;
    report.samples = split.samples;
    report.kings_only = split.kings_only;
    report.train_positions = split.training;
    report.validation_positions = split.validation.size();
    report.parameters = model_.size();
    // The scale: the classic evaluation's, on the scale set's results.
    scale_ = o_.scale;
    if (!(scale_ > 0)) {
      std::vector<double> scores, targets;
      for (const Sample& s : split.scale_set) {
        scores.push_back(eval::evaluate<R>(s.position()));
        targets.push_back(result01(s.result));
      }
      scale_ = fit_scale(scores, targets);
      // A fit at the bracket's low end: the classic evaluation does not predict the results (the
      // giveaway game's, whose piece costs the games do not bear out), and weights trained at
      // that scale would need to be a hundred times larger to say anything.
      if (scale_ < 2 * kMinScale) {
        scale_ = kFallbackScale;
        report.scale_fallback = true;
      }
    }
    report.scale = scale_;
    assign_targets(split, sources, split_options,
                   [&](double r, std::int16_t score) { return target(r, score); });
    report.distinct_positions = split.distinct;
    validation_ = std::move(split.validation);
    validation_seen_ = std::move(split.validation_seen);

    theta_ = model_.initial(o_.init, o_.on_classic);
    m_.assign(theta_.size(), 0.0f);
    v_.assign(theta_.size(), 0.0f);
    sum_.assign(theta_.size(), 0.0f);
    touched_.assign(theta_.size(), 0);
    last_.assign(theta_.size(), 0);

    std::vector<Block> blocks;
    for (std::size_t f = 0; f < sources.size(); ++f)
      for (std::uint64_t first = 0; first < sources[f].samples->size(); first += o_.block)
        blocks.push_back(
            {f, first,
             static_cast<std::size_t>(std::min(o_.block, sources[f].samples->size() - first))});
    const std::size_t blocks_per_window =
        std::max<std::size_t>(1, (o_.window + o_.block - 1) / o_.block);
    std::mt19937_64 rng(o_.seed);
    std::vector<Sample> read;
    std::vector<Item> window;
    for (int epoch = 1; epoch <= o_.epochs; ++epoch) {
      for (std::size_t i = blocks.size(); i > 1; --i)
        std::swap(blocks[i - 1], blocks[static_cast<std::size_t>(rng() % i)]);
      double loss = 0, weights = 0;
      for (std::size_t w = 0; w < blocks.size(); w += blocks_per_window) {
        window.clear();
        for (std::size_t b = w; b < std::min(blocks.size(), w + blocks_per_window); ++b) {
          const Block& block = blocks[b];
          read.clear();
          if (const auto ok = sources[block.source].samples->read(block.first, block.n, read); !ok)
            return E::failure(ok.error());
          const auto& targets = split.target[block.source];
          const auto& weight = split.weight[block.source];
          for (std::size_t i = 0; i < read.size(); ++i) {
            const auto at = static_cast<std::size_t>(block.first + i);
            if (!std::isnan(targets[at])) window.push_back({read[i], targets[at], weight[at]});
          }
        }
        for (std::size_t i = window.size(); i > 1; --i)
          std::swap(window[i - 1], window[static_cast<std::size_t>(rng() % i)]);
        for (std::size_t b = 0; b < window.size(); b += static_cast<std::size_t>(o_.batch)) {
          const std::size_t e = std::min(window.size(), b + static_cast<std::size_t>(o_.batch));
          const auto [l, wsum] = step(window, b, e);
          loss += l;
          weights += wsum;
        }
      }
      flush();
      EpochReport r;
      r.epoch = epoch;
      r.train_loss = weights > 0 ? loss / weights : 0.0;
      r.validation_loss = validation_.empty() ? 0.0 : model_loss();
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report.epochs.push_back(r);
      if (on_epoch) on_epoch(r);
    }
    out = model_.fold(variant_, theta_);
    out.kings_only = o_.kings_only;
    out.on_classic = o_.on_classic;
    eval::PatternWeights classic_kings = out;
    classic_kings.kings_only = false;

    // The written weights, the classic evaluation and the compared weights on the validation
    // positions (the scale set when nothing is held out).
    const auto& judged = validation_.empty() ? split.scale_set : validation_;
    std::vector<double> pattern_scores, classic_scores, compare_scores, classic_kings_scores,
        targets;
    for (const Sample& s : judged) {
      const Position pos = s.position();
      pattern_scores.push_back(eval::PatternEvaluator<R>::evaluate(pos, out));
      classic_scores.push_back(eval::evaluate<R>(pos));
      classic_kings_scores.push_back(eval::PatternEvaluator<R>::evaluate(pos, classic_kings));
      if (o_.compare)
        compare_scores.push_back(eval::PatternEvaluator<R>::evaluate(pos, *o_.compare));
      targets.push_back(target(result01(s.result), s.score));
    }
    report.pattern_loss = logistic_loss(pattern_scores, targets, scale_);
    report.pattern_fitted_loss =
        logistic_loss(pattern_scores, targets, fit_scale(pattern_scores, targets));
    report.classic_scale = fit_scale(classic_scores, targets);
    report.classic_loss = logistic_loss(classic_scores, targets, report.classic_scale);
    if (o_.compare) report.compare_loss = logistic_loss(compare_scores, targets, scale_);
    report.classic_kings_loss = logistic_loss(classic_kings_scores, targets, scale_);
    if (!validation_.empty()) {
      std::vector<double> unseen, unseen_compare, unseen_targets;
      for (std::size_t i = 0; i < validation_.size(); ++i) {
        if (validation_seen_[i]) continue;
        unseen.push_back(pattern_scores[i]);
        if (o_.compare) unseen_compare.push_back(compare_scores[i]);
        unseen_targets.push_back(targets[i]);
      }
      report.validation_unseen = unseen.size();
      report.unseen_loss = logistic_loss(unseen, unseen_targets, scale_);
      if (o_.compare)
        report.unseen_compare_loss = logistic_loss(unseen_compare, unseen_targets, scale_);
    }
    return report;
  }

 private:
  double target(double r, std::int16_t score) const {
    if (score == kNoScore) return r;
    return o_.blend * r + (1 - o_.blend) * sigmoid(scale_ * score);
  }

  // The model's score of pos (whose features are entries): the weights' sum, on top of the
  // classic evaluation when the weights are a correction to it.
  double score(const Position& pos, const std::vector<Entry>& entries) const {
    double z = o_.on_classic ? static_cast<double>(eval::evaluate<R>(pos)) : 0.0;
    for (const Entry& e : entries) z += static_cast<double>(theta_[e.index]) * e.value;
    return z;
  }

  // One sparse Adam step on items [start, end); the weighted loss before the step and the
  // weights' sum.
  std::pair<double, double> step(const std::vector<Item>& items, std::size_t start,
                                 std::size_t end) {
    double wsum = 0;
    for (std::size_t i = start; i < end; ++i) wsum += items[i].weight;
    if (!(wsum > 0)) return {0.0, 0.0};
    std::array<double, kSlices> losses{};
    for_slices(o_.threads, [&](int slice) {
      const auto [a, b] = slice_range(end - start, slice);
      std::vector<Entry>& g = grads_[static_cast<std::size_t>(slice)];
      std::vector<Entry>& entries = entries_[static_cast<std::size_t>(slice)];
      g.clear();
      double loss = 0;
      for (std::size_t i = start + a; i < start + b; ++i) {
        const Item& it = items[i];
        const Position pos = it.sample.position();
        entries.clear();
        model_.entries(pos, entries);
        const double p = sigmoid(scale_ * score(pos, entries));
        loss += it.weight * cross_entropy(p, it.target);
        const double d = scale_ * (p - it.target) * it.weight / wsum;
        for (const Entry& e : entries) g.push_back({e.index, static_cast<float>(d * e.value)});
      }
      losses[static_cast<std::size_t>(slice)] = loss;
    });
    // Sum the slices in order, noting the parameters touched.
    touched_list_.clear();
    for (const auto& g : grads_)
      for (const Entry& e : g) {
        if (!touched_[e.index]) {
          touched_[e.index] = 1;
          touched_list_.push_back(e.index);
        }
        sum_[e.index] += e.value;
      }
    // Adam on the touched parameters (each on its own: any split over threads gives the same).
    ++t_;
    for_slices(o_.threads, [&](int slice) {
      const auto [a, b] = slice_range(touched_list_.size(), slice);
      for (std::size_t k = a; k < b; ++k) {
        const std::uint32_t i = touched_list_[k];
        catch_up(i, t_ - 1);
        const double g = sum_[i] + 2 * o_.l2[static_cast<std::size_t>(model_.group(i))] * theta_[i];
        sum_[i] = 0;
        touched_[i] = 0;
        adam(i, g, t_);
        last_[i] = static_cast<std::uint32_t>(t_);
      }
    });
    double total = 0;
    for (double l : losses) total += l;
    return {total, wsum};
  }

  static constexpr double kB1 = 0.9, kB2 = 0.999, kEps = 1e-8;
  // Steps a parameter's momentum keeps moving it after its last gradient: 0.9 / sqrt(0.999) to
  // this power is under 0.2% of its first step.
  static constexpr int kTail = 60;

  // One Adam step of parameter i with gradient g, at step t.
  void adam(std::uint32_t i, double g, int t) {
    const double c1 = 1 - std::pow(kB1, t), c2 = 1 - std::pow(kB2, t);
    m_[i] = static_cast<float>(kB1 * m_[i] + (1 - kB1) * g);
    v_[i] = static_cast<float>(kB2 * v_[i] + (1 - kB2) * g * g);
    theta_[i] -= static_cast<float>(o_.lr * (m_[i] / c1) / (std::sqrt(v_[i] / c2) + kEps));
  }

  // The steps up to t in which parameter i had no gradient, as dense Adam takes them: its
  // momentum still moves it (the first kTail of them; the rest only decay m and v). Sparse
  // ("lazy") Adam without this undertrains rare features: measured on the 2026-12 English data,
  // its held-out loss was worse than dense Adam's.
  void catch_up(std::uint32_t i, int t) {
    const int from = static_cast<int>(last_[i]);
    if (t <= from) return;
    if (m_[i] == 0.0f && v_[i] == 0.0f) {
      last_[i] = static_cast<std::uint32_t>(t);
      return;
    }
    const int moving = std::min(t, from + kTail);
    for (int s = from + 1; s <= moving; ++s) adam(i, 0.0, s);
    if (t > moving) {
      m_[i] = static_cast<float>(m_[i] * std::pow(kB1, t - moving));
      v_[i] = static_cast<float>(v_[i] * std::pow(kB2, t - moving));
    }
    last_[i] = static_cast<std::uint32_t>(t);
  }

  // Every parameter brought to the current step (before the model is read).
  void flush() {
    for_slices(o_.threads, [&](int slice) {
      const auto [a, b] = slice_range(theta_.size(), slice);
      for (std::size_t i = a; i < b; ++i) catch_up(static_cast<std::uint32_t>(i), t_);
    });
  }

  double model_loss() {
    std::array<double, kSlices> losses{};
    for_slices(o_.threads, [&](int slice) {
      const auto [a, b] = slice_range(validation_.size(), slice);
      std::vector<Entry>& entries = entries_[static_cast<std::size_t>(slice)];
      double loss = 0;
      for (std::size_t i = a; i < b; ++i) {
        const Sample& s = validation_[i];
        const Position pos = s.position();
        entries.clear();
        model_.entries(pos, entries);
        loss += cross_entropy(sigmoid(scale_ * score(pos, entries)),
                              target(result01(s.result), s.score));
      }
      losses[static_cast<std::size_t>(slice)] = loss;
    });
    double total = 0;
    for (double l : losses) total += l;
    return total / static_cast<double>(validation_.size());
  }

  Variant variant_;
  TrainOptions o_;
  Model<R> model_;
  double scale_ = 0;
  std::vector<Sample> validation_;
  std::vector<bool> validation_seen_;
  std::vector<float> theta_, m_, v_, sum_;
  std::vector<std::uint8_t> touched_;
  std::vector<std::uint32_t> last_;  // the step each parameter was last brought to
  std::vector<std::uint32_t> touched_list_;
  std::array<std::vector<Entry>, kSlices> grads_, entries_;
  int t_ = 0;
};

}  // namespace

double logistic_loss(const std::vector<double>& scores, const std::vector<double>& targets,
                     double scale) {
  if (scores.empty()) return 0;
  double loss = 0;
  for (std::size_t i = 0; i < scores.size(); ++i)
    loss += cross_entropy(sigmoid(scale * scores[i]), targets[i]);
  return loss / static_cast<double>(scores.size());
}

double fit_scale(const std::vector<double>& scores, const std::vector<double>& targets) {
  // The loss is convex in the scale: a golden-section search over a wide bracket.
  double lo = kMinScale, hi = 0.1;
  const double r = (std::sqrt(5.0) - 1) / 2;
  double a = hi - r * (hi - lo), b = lo + r * (hi - lo);
  double fa = logistic_loss(scores, targets, a), fb = logistic_loss(scores, targets, b);
  for (int i = 0; i < 60; ++i) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - r * (hi - lo);
      fa = logistic_loss(scores, targets, a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + r * (hi - lo);
      fb = logistic_loss(scores, targets, b);
    }
  }
  return (lo + hi) / 2;
}

Expected<TrainReport> train(Variant v, const std::vector<TrainSource>& sources,
                            const TrainOptions& options, eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch) {
  return with_rules(v, [&]<class R>(R) -> Expected<TrainReport> {
    if constexpr (eval::kPatternRules<R>) {
      return Trainer<R>(v, options).run(sources, out, on_epoch);
    } else {
      return Expected<TrainReport>::failure("rule set '" + std::string(info(v).name) +
                                            "' has no pattern evaluation");
    }
  });
}

Expected<TrainReport> train(Variant v, const std::vector<std::vector<Sample>>& files,
                            const TrainOptions& options, eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch) {
  std::vector<MemorySamples> memory;
  memory.reserve(files.size());
  for (const auto& f : files) memory.emplace_back(f);
  std::vector<TrainSource> sources;
  for (const auto& m : memory) sources.push_back({&m, 1.0});
  return train(v, sources, options, out, on_epoch);
}

}  // namespace tsuru::train
