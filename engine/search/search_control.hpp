// Shared state between a running search and the thread that controls it: the stop flag, the
// pondering flag and the clock's soft and hard deadlines (the clock may start late, at
// ponder-hit). A clock search's soft deadline moves as its iterations end (TimeManager,
// time_manager.hpp): the main searcher reports each one (iteration_done). The node limit is
// not here: Search::run takes it and checks it itself. It also names the evaluation the search
// calls (set by the controlling thread before the search starts, constant during it): learned
// weights (eval/pattern.hpp), or null for the classic one.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

#include "engine/search/limits.hpp"
#include "engine/search/time_manager.hpp"

namespace tsuru::eval {
struct PatternWeights;
}

namespace tsuru {

class SearchControl {
 public:
  using Nanos = std::int64_t;

  // Starts the clock now with these budgets (0 = none), measured from `start`. An optimum
  // (a clock search's, TimePlan::optimum) makes the soft deadline TimeManager's, which keeps
  // the iterations already reported (a ponder search's, at the hit).
  void start(Clock::time_point start, double soft_seconds, double hard_seconds,
             double optimum_seconds = 0) {
    std::lock_guard lock(time_mutex_);
    const Nanos base = since_epoch(start);
    time_.plan(optimum_seconds, hard_seconds);
    if (time_.active()) soft_seconds = time_.soft_limit();
    soft_.store(soft_seconds > 0 ? base + to_nanos(soft_seconds) : 0);
    hard_.store(hard_seconds > 0 ? base + to_nanos(hard_seconds) : 0);
    start_.store(base);
  }
  // The main searcher completed an iteration with this best move and score; TimeManager moves a
  // clock search's soft deadline by it. Whether another iteration should start: not past the
  // soft deadline (always while pondering).
  bool iteration_done(const Move& best, Score score, Clock::time_point now) {
    {
      std::lock_guard lock(time_mutex_);
      const bool changed = has_best_ && !(best == best_);
      best_ = best;
      has_best_ = true;
      const double soft = time_.on_iteration(changed, score);
      if (time_.active()) soft_.store(start_.load() + std::max<Nanos>(to_nanos(soft), 1));
    }
    return !past_soft(now);
  }
  void set_pondering(bool p) { pondering_.store(p); }
  bool pondering() const { return pondering_.load(); }
  void request_stop() { stop_.store(true); }
  bool stop_requested() const { return stop_.load(); }
  void reset() {
    {
      std::lock_guard lock(time_mutex_);
      time_.reset();
      has_best_ = false;
    }
    stop_.store(false);
    pondering_.store(false);
    soft_.store(0);
    hard_.store(0);
    start_.store(since_epoch(Clock::now()));
  }

  // The search must return now: stopped, or past the hard deadline (never while pondering).
  bool must_stop(Clock::time_point now) const {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if (pondering_.load(std::memory_order_relaxed)) return false;
    const Nanos hard = hard_.load(std::memory_order_relaxed);
    return hard && since_epoch(now) >= hard;
  }
  // No new iteration should start: past the soft deadline.
  bool past_soft(Clock::time_point now) const {
    if (pondering_.load()) return false;
    const Nanos soft = soft_.load();
    return soft && since_epoch(now) >= soft;
  }
  // The caller keeps the weights alive until the search has returned.
  void set_evaluation(const eval::PatternWeights* weights) { evaluation_ = weights; }
  const eval::PatternWeights* evaluation() const { return evaluation_; }

  double elapsed(Clock::time_point now) const {
    return static_cast<double>(since_epoch(now) - start_.load()) * 1e-9;
  }

 private:
  static Nanos since_epoch(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  }
  static Nanos to_nanos(double seconds) { return static_cast<Nanos>(seconds * 1e9); }

  std::atomic<bool> stop_{false};
  std::atomic<bool> pondering_{false};
  std::atomic<Nanos> soft_{0};
  std::atomic<Nanos> hard_{0};
  std::atomic<Nanos> start_{0};
  const eval::PatternWeights* evaluation_ = nullptr;
  // The dynamic soft deadline (start() and the searcher's iteration_done() on two threads).
  std::mutex time_mutex_;
  TimeManager time_;
  Move best_{};
  bool has_best_ = false;
};

}  // namespace tsuru
