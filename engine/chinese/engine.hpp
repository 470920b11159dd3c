// The Chinese checkers engine facade, the same shape as tsuru::Engine (engine/engine.hpp):
// set_position / go / stop / wait / think with info and best-move callbacks, searching on the
// engine's own thread, and the seed's three levels over the shared SearchLimits:
//   beginner: 40% of the moves uniformly random among the legal moves, the others a 2-ply search;
//   medium:   a fixed 4-ply search (kMediumDepth);
//   hard:     a timed search, never more than 1.5 s per move.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "engine/chinese/search.hpp"
#include "engine/level.hpp"
#include "engine/search/limits.hpp"

namespace tsuru::chinese {

inline constexpr int kMediumDepth = 4;

struct EngineOptions {
  int tt_log2 = 20;  // transposition table entries, log2 (24 bytes each)
  Level level = Level::None;
  std::uint64_t seed = 1;  // the beginner's random moves
};

struct BestMove {
  bool has_move = false;  // false when the game is over or the side to move has no move
  Move move{};
};

// The limits a level imposes (Level::None leaves the request alone).
SearchLimits apply_level(Level level, const SearchLimits& requested);

class Engine {
 public:
  using InfoCallback = std::function<void(const SearchInfo&)>;
  using BestMoveCallback = std::function<void(const BestMove&)>;

  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  void set_options(const EngineOptions& options);
  EngineOptions options() const;
  // Forgets the table and restarts the random choices.
  void new_game();
  // Stops a running search first.
  void set_position(const Game& game);
  Game game() const;

  // Starts a search and returns at once; on_best is called exactly once, on the engine's thread.
  void go(const SearchLimits& limits, InfoCallback on_info, BestMoveCallback on_best);
  void stop();
  void wait();
  bool searching() const;
  // go() then wait().
  BestMove think(const SearchLimits& limits, InfoCallback on_info = {});
  SearchResult last_result() const;

 private:
  void finish();

  mutable std::mutex mutex_;
  EngineOptions options_;
  int tt_log2_applied_ = 0;
  TranspositionTable tt_{1};
  SearchControl control_;
  std::unique_ptr<Search> search_;
  Game game_;
  std::mt19937_64 rng_;
  std::thread worker_;
  bool searching_ = false;
  SearchResult last_;
};

}  // namespace tsuru::chinese
