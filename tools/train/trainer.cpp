#include "tools/train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

#include "eval/pattern.hpp"

namespace tsuru::train {
namespace {

using eval::kLinearCount;
using eval::kMaxRegions;
using eval::kPhases;
using eval::kRegionStates;

// The batch is cut into this many slices whatever the thread count, each with its own gradient
// buffer, summed in slice order: the result does not depend on --threads.
constexpr int kSlices = 16;

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

double cross_entropy(double p, double t) {
  constexpr double eps = 1e-12;
  p = std::clamp(p, eps, 1.0 - eps);
  return -(t * std::log(p) + (1.0 - t) * std::log(1.0 - p));
}

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double result01(const Sample& s) {
  return 0.5 * (s.result + 1);
}

// One position's features, as the model reads them.
struct Row {
  std::array<std::uint16_t, kMaxRegions> state{};
  std::array<float, kLinearCount> linear{};
  float opening = 0;  // share of the opening set (pieces / start pieces)
  float target = 0;
};

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

template <class R>
class Trainer {
  using G = typename R::Geometry;
  static constexpr int kRegions = eval::PatternLayout<G>::kRegions;
  static constexpr std::size_t kRegionParams = std::size_t{kRegions} * kRegionStates * kPhases;
  static constexpr std::size_t kSharedParams = std::size_t{kRegionStates} * kPhases;
  static constexpr std::size_t kLinearBase = kRegionParams + kSharedParams;
  static constexpr std::size_t kParams = kLinearBase + kPhases * kLinearCount;

  static std::size_t region_index(int j, int state, int phase) {
    return (static_cast<std::size_t>(j) * kRegionStates + static_cast<std::size_t>(state)) *
               kPhases +
           static_cast<std::size_t>(phase);
  }
  static std::size_t shared_index(int state, int phase) {
    return kRegionParams + static_cast<std::size_t>(state) * kPhases +
           static_cast<std::size_t>(phase);
  }
  static std::size_t linear_index(int phase, std::size_t k) {
    return kLinearBase + static_cast<std::size_t>(phase) * kLinearCount + k;
  }

 public:
  Trainer(Variant v, const TrainOptions& options) : variant_(v), o_(options) {}

  Expected<TrainReport> run(const std::vector<std::vector<Sample>>& files,
                            eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch) {
    using E = Expected<TrainReport>;
    if (o_.epochs < 0 || o_.threads < 1 || !(o_.lr > 0) || !(o_.l2 >= 0) ||
        !(o_.validation >= 0 && o_.validation < 1) || !(o_.blend >= 0 && o_.blend <= 1) ||
        o_.batch < 1)
      return E::failure(
          "bad training options (epochs >= 0, threads >= 1, lr > 0, l2 >= 0, "
          "0 <= validation < 1, 0 <= blend <= 1, batch >= 1)");
    // The split by game: a game's positions all go the same way.
    std::vector<const Sample*> train_set, validation_set;
    TrainReport report;
    for (std::size_t f = 0; f < files.size(); ++f)
      for (const Sample& s : files[f]) {
        // Only positions the pattern evaluation scores: with no man on the board the classic
        // evaluation answers (pattern.hpp), and king endings, often drawn whatever the material,
        // would teach the king terms a value they never have where the weights are used.
        if (!((s.white | s.black) & ~s.kings)) {
          ++report.kings_only;
          continue;
        }
        const std::uint64_t h = splitmix(o_.seed ^ splitmix((std::uint64_t{f} << 32) | s.game));
        const double u = static_cast<double>(h >> 11) * 0x1.0p-53;
        (u < o_.validation ? validation_set : train_set).push_back(&s);
      }
    if (train_set.empty()) return E::failure("no training positions (all held out, or no data)");
    report.train_positions = train_set.size();
    report.validation_positions = validation_set.size();

    // The scale: the classic evaluation's, on (up to 200,000 of) the training positions.
    scale_ = o_.scale;
    if (!(scale_ > 0)) {
      std::vector<double> scores, targets;
      const std::size_t step = std::max<std::size_t>(1, train_set.size() / 200000);
      for (std::size_t i = 0; i < train_set.size(); i += step) {
        scores.push_back(eval::evaluate<R>(train_set[i]->position()));
        targets.push_back(result01(*train_set[i]));
      }
      scale_ = fit_scale(scores, targets);
    }
    report.scale = scale_;

    train_rows_ = make_rows(train_set);
    validation_rows_ = make_rows(validation_set);
    init_params();
    std::vector<std::uint32_t> order(train_rows_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    std::mt19937_64 rng(o_.seed);
    for (int epoch = 1; epoch <= o_.epochs; ++epoch) {
      for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[static_cast<std::size_t>(rng() % i)]);
      double loss = 0;
      for (std::size_t start = 0; start < order.size();
           start += static_cast<std::size_t>(o_.batch)) {
        const std::size_t end = std::min(order.size(), start + static_cast<std::size_t>(o_.batch));
        loss += step(order, start, end);
      }
      EpochReport e;
      e.epoch = epoch;
      e.train_loss = loss / static_cast<double>(order.size());
      e.validation_loss = validation_rows_.empty() ? 0.0 : model_loss(validation_rows_);
      report.epochs.push_back(e);
      if (on_epoch) on_epoch(e);
    }
    out = fold();

    // The written weights and the classic evaluation on the validation positions (the
    // training ones when nothing is held out).
    const auto& judged = validation_set.empty() ? train_set : validation_set;
    std::vector<double> pattern_scores, classic_scores, targets;
    for (const Sample* s : judged) {
      const Position pos = s->position();
      pattern_scores.push_back(eval::PatternEvaluator<R>::evaluate(pos, out));
      classic_scores.push_back(eval::evaluate<R>(pos));
      targets.push_back(target(*s));
    }
    report.pattern_loss = logistic_loss(pattern_scores, targets, scale_);
    report.pattern_fitted_loss =
        logistic_loss(pattern_scores, targets, fit_scale(pattern_scores, targets));
    report.classic_scale = fit_scale(classic_scores, targets);
    report.classic_loss = logistic_loss(classic_scores, targets, report.classic_scale);
    return report;
  }

 private:
  double target(const Sample& s) const {
    const double r = result01(s);
    if (s.score == kNoScore) return r;
    return o_.blend * r + (1 - o_.blend) * sigmoid(scale_ * s.score);
  }

  std::vector<Row> make_rows(const std::vector<const Sample*>& samples) const {
    std::vector<Row> rows(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const eval::Features f = eval::features<R>(samples[i]->position());
      Row& r = rows[i];
      for (int j = 0; j < kRegions; ++j)
        r.state[static_cast<std::size_t>(j)] =
            static_cast<std::uint16_t>(f.state[static_cast<std::size_t>(j)]);
      for (std::size_t k = 0; k < kLinearCount; ++k) r.linear[k] = static_cast<float>(f.linear[k]);
      r.opening = static_cast<float>(f.pieces) / static_cast<float>(f.max_pieces);
      r.target = static_cast<float>(target(*samples[i]));
    }
    return rows;
  }

  void init_params() {
    theta_.assign(kParams, 0.0f);
    m_.assign(kParams, 0.0f);
    v_.assign(kParams, 0.0f);
    for (auto& g : grads_) g.assign(kParams, 0.0f);
    // Material as the classic evaluation starts it: a man 100, a king by how far it reaches.
    for (int p = 0; p < kPhases; ++p) {
      theta_[linear_index(p, eval::kMen)] = 100.0f;
      theta_[linear_index(p, eval::kKings)] = R::kFlyingKings ? 300.0f : 140.0f;
    }
    t_ = 0;
  }

  double score(const Row& r) const {
    double open = 0, end = 0;
    for (int j = 0; j < kRegions; ++j) {
      const int s = r.state[static_cast<std::size_t>(j)];
      open += theta_[region_index(j, s, 0)] + theta_[shared_index(s, 0)];
      end += theta_[region_index(j, s, 1)] + theta_[shared_index(s, 1)];
    }
    for (std::size_t k = 0; k < kLinearCount; ++k) {
      open += theta_[linear_index(0, k)] * r.linear[k];
      end += theta_[linear_index(1, k)] * r.linear[k];
    }
    return r.opening * open + (1 - r.opening) * end;
  }

  // One Adam step on rows order[start, end); returns the summed loss before the step.
  double step(const std::vector<std::uint32_t>& order, std::size_t start, std::size_t end) {
    const std::size_t n = end - start;
    const double inv_n = 1.0 / static_cast<double>(n);
    std::array<double, kSlices> losses{};
    for_slices(o_.threads, [&](int slice) {
      const std::size_t a = start + n * static_cast<std::size_t>(slice) / kSlices;
      const std::size_t b = start + n * static_cast<std::size_t>(slice + 1) / kSlices;
      std::vector<float>& g = grads_[static_cast<std::size_t>(slice)];
      double loss = 0;
      for (std::size_t i = a; i < b; ++i) {
        const Row& r = train_rows_[order[i]];
        const double p = sigmoid(scale_ * score(r));
        loss += cross_entropy(p, r.target);
        const double d = scale_ * (p - r.target) * inv_n;
        const auto go = static_cast<float>(d * r.opening),
                   ge = static_cast<float>(d * (1 - r.opening));
        for (int j = 0; j < kRegions; ++j) {
          const int s = r.state[static_cast<std::size_t>(j)];
          g[region_index(j, s, 0)] += go;
          g[region_index(j, s, 1)] += ge;
          g[shared_index(s, 0)] += go;
          g[shared_index(s, 1)] += ge;
        }
        for (std::size_t k = 0; k < kLinearCount; ++k) {
          g[linear_index(0, k)] += go * r.linear[k];
          g[linear_index(1, k)] += ge * r.linear[k];
        }
      }
      losses[static_cast<std::size_t>(slice)] = loss;
    });
    // Sum the slices in order, add L2, and take the Adam step; parameter ranges in parallel.
    ++t_;
    constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const double c1 = 1 - std::pow(b1, t_), c2 = 1 - std::pow(b2, t_);
    for_slices(o_.threads, [&](int slice) {
      const std::size_t a = kParams * static_cast<std::size_t>(slice) / kSlices;
      const std::size_t b = kParams * static_cast<std::size_t>(slice + 1) / kSlices;
      for (std::size_t i = a; i < b; ++i) {
        double g = 0;
        for (auto& buffer : grads_) {
          g += buffer[i];
          buffer[i] = 0;
        }
        if (i < kLinearBase) g += 2 * o_.l2 * theta_[i];
        m_[i] = static_cast<float>(b1 * m_[i] + (1 - b1) * g);
        v_[i] = static_cast<float>(b2 * v_[i] + (1 - b2) * g * g);
        const double mh = m_[i] / c1, vh = v_[i] / c2;
        theta_[i] -= static_cast<float>(o_.lr * mh / (std::sqrt(vh) + eps));
      }
    });
    double total = 0;
    for (double l : losses) total += l;
    return total;
  }

  double model_loss(const std::vector<Row>& rows) const {
    std::array<double, kSlices> losses{};
    for_slices(o_.threads, [&](int slice) {
      const std::size_t a = rows.size() * static_cast<std::size_t>(slice) / kSlices;
      const std::size_t b = rows.size() * static_cast<std::size_t>(slice + 1) / kSlices;
      double loss = 0;
      for (std::size_t i = a; i < b; ++i)
        loss += cross_entropy(sigmoid(scale_ * score(rows[i])), rows[i].target);
      losses[static_cast<std::size_t>(slice)] = loss;
    });
    double total = 0;
    for (double l : losses) total += l;
    return total / static_cast<double>(rows.size());
  }

  static std::int16_t quantize(double cp) {
    const double q = std::round(cp * eval::kWeightScale);
    return static_cast<std::int16_t>(std::clamp(q, -32767.0, 32767.0));
  }

  eval::PatternWeights fold() const {
    eval::PatternWeights w = eval::PatternWeights::zero(variant_);
    for (int j = 0; j < kRegions; ++j)
      for (int s = 0; s < kRegionStates; ++s)
        for (int p = 0; p < kPhases; ++p)
          w.region[region_index(j, s, p)] =
              quantize(static_cast<double>(theta_[region_index(j, s, p)]) +
                       static_cast<double>(theta_[shared_index(s, p)]));
    for (int p = 0; p < kPhases; ++p)
      for (std::size_t k = 0; k < kLinearCount; ++k)
        w.linear[static_cast<std::size_t>(p)][k] = quantize(theta_[linear_index(p, k)]);
    return w;
  }

  Variant variant_;
  TrainOptions o_;
  double scale_ = 0;
  std::vector<Row> train_rows_, validation_rows_;
  std::vector<float> theta_, m_, v_;
  std::array<std::vector<float>, kSlices> grads_;
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
  double lo = 1e-5, hi = 0.1;
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

Expected<TrainReport> train(Variant v, const std::vector<std::vector<Sample>>& files,
                            const TrainOptions& options, eval::PatternWeights& out,
                            const std::function<void(const EpochReport&)>& on_epoch) {
  return with_rules(v, [&]<class R>(R) -> Expected<TrainReport> {
    if constexpr (eval::kPatternRules<R>) {
      return Trainer<R>(v, options).run(files, out, on_epoch);
    } else {
      return Expected<TrainReport>::failure("rule set '" + std::string(info(v).name) +
                                            "' has no pattern evaluation");
    }
  });
}

}  // namespace tsuru::train
