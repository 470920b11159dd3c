// What a search may spend, and what it reports.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "engine/rules/move.hpp"
#include "engine/rules/score.hpp"

namespace tsuru {

using Clock = std::chrono::steady_clock;

struct SearchLimits {
  int depth = 0;            // nominal depth in plies; 0 = unlimited
  std::uint64_t nodes = 0;  // 0 = unlimited
  double move_time = 0;     // seconds for this move; 0 = unlimited
  double time = 0;          // clock mode when > 0: seconds left on our clock
  double increment = 0;     // seconds added per move (already counted in `time` by Hub)
  int moves_to_go = 0;      // moves until the next time control; 0 = rest of the game
  bool infinite = false;    // search until stop()
  bool ponder = false;      // start pondering; the clock starts at ponder_hit()
  bool analyze = false;     // analysis: no book, no instant single reply, no level preset

  bool has_clock() const { return time > 0; }
  bool unlimited() const { return depth == 0 && nodes == 0 && move_time == 0 && !has_clock(); }
};

struct SearchInfo {
  int depth = 0;
  int rank = 0;           // multi-PV: the line's rank among the root moves (1 = best); 0 otherwise
  double mean_depth = 0;  // mean depth of the leaves reached
  Score score = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::vector<Move> pv;
  bool from_book = false;
  bool from_database = false;  // the score comes from the endgame databases (Engine marks it)

  double nps() const { return seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0; }
};

// What a finished search did: its last completed iteration and the nodes of each searcher.
struct SearchSummary {
  Score score = 0;
  int depth = 0;
  std::uint64_t nodes = 0;                  // all searchers
  std::vector<std::uint64_t> thread_nodes;  // per searcher, the main one first
};

struct BestMove {
  bool has_move = false;  // false only when the side to move has no legal move
  Move move{};
  bool has_ponder = false;
  Move ponder{};
};

}  // namespace tsuru
