#include "engine/chinese/engine.hpp"

#include <algorithm>

namespace tsuru::chinese {

SearchLimits apply_level(Level level, const SearchLimits& requested) {
  return tsuru::apply_level(level, kMediumDepth, requested);
}

Engine::Engine() : search_(std::make_unique<Search>(tt_, control_)), rng_(1) {}

Engine::~Engine() {
  finish();
}

void Engine::set_options(const EngineOptions& options) {
  finish();
  std::lock_guard lock(mutex_);
  if (options.seed != options_.seed) rng_.seed(options.seed);
  options_ = options;
}

EngineOptions Engine::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

void Engine::new_game() {
  finish();
  std::lock_guard lock(mutex_);
  tt_.clear();
  rng_.seed(options_.seed);
}

void Engine::set_position(const Game& game) {
  finish();
  std::lock_guard lock(mutex_);
  game_ = game;
}

Game Engine::game() const {
  std::lock_guard lock(mutex_);
  return game_;
}

void Engine::stop() {
  control_.request_stop();
}

void Engine::finish() {
  stop();
  wait();
}

void Engine::wait() {
  if (worker_.joinable()) worker_.join();
  std::lock_guard lock(mutex_);
  searching_ = false;
}

bool Engine::searching() const {
  std::lock_guard lock(mutex_);
  return searching_;
}

SearchResult Engine::last_result() const {
  std::lock_guard lock(mutex_);
  return last_;
}

void Engine::go(const SearchLimits& requested, InfoCallback on_info, BestMoveCallback on_best) {
  finish();
  std::lock_guard lock(mutex_);
  if (options_.tt_log2 != tt_log2_applied_) {
    tt_.resize(std::clamp(options_.tt_log2, 10, 28));
    tt_log2_applied_ = options_.tt_log2;
  }
  const SearchLimits limits = apply_level(options_.level, requested);
  // The beginner's random share is drawn now, so the sequence depends on the seed alone.
  const bool random_move =
      options_.level == Level::Beginner &&
      std::uniform_real_distribution<double>(0, 1)(rng_) < kBeginnerRandomShare;
  const std::uint64_t pick = rng_();
  control_.reset();
  const Clock::time_point start = Clock::now();
  double soft = 0, hard = 0;
  if (!limits.infinite && !limits.ponder) {
    if (limits.move_time > 0) {
      // No new iteration after half the time (the next would not finish); a margin for the
      // reply under the hard limit.
      soft = limits.move_time * 0.5;
      hard = std::max(limits.move_time - 0.05, limits.move_time * 0.9);
    } else if (limits.has_clock()) {
      const int to_go = limits.moves_to_go > 0 ? limits.moves_to_go : 30;
      const double budget = limits.time / to_go + limits.increment * 0.75;
      soft = std::min(budget, limits.time * 0.4);
      hard = std::min(budget * 3, limits.time * 0.5);
    }
  }
  control_.start(start, soft, hard);
  searching_ = true;
  const Game game = game_;
  worker_ = std::thread([this, game, limits, random_move, pick, on_info = std::move(on_info),
                         on_best = std::move(on_best)] {
    BestMove best;
    SearchResult result;
    const MoveList moves = legal_moves(game.position());
    if (random_move && game.result().outcome == Outcome::Ongoing && !moves.empty()) {
      best.has_move = true;
      best.move = moves[pick % moves.size()];
    } else {
      result = search_->run(game, limits.depth, limits.nodes, on_info);
      best.has_move = result.has_move;
      best.move = result.move;
    }
    {
      std::lock_guard guard(mutex_);
      last_ = result;
    }
    if (on_best) on_best(best);
  });
}

BestMove Engine::think(const SearchLimits& limits, InfoCallback on_info) {
  BestMove out;
  go(limits, std::move(on_info), [&out](const BestMove& b) { out = b; });
  wait();
  return out;
}

}  // namespace tsuru::chinese
