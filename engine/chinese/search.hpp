// The Chinese checkers search: iterative deepening over a principal-variation alpha-beta search
// with a transposition table, killer and history move ordering and late-move reductions. Moves
// are ordered by the rows they gain (forward jumps first), after the table's move and the
// killers. Repetitions of the game's or the line's positions score as draws (the game's draw is
// threefold; inside the tree the first repetition is enough). No quiescence search: there are
// no captures, and a position is evaluated where the depth runs out.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/chinese/game.hpp"
#include "engine/rules/score.hpp"
#include "engine/search/search_control.hpp"

namespace tsuru::chinese {

// tsuru::SearchInfo and tsuru::BestMove carry draughts moves; these carry Chinese checkers ones.
struct SearchInfo {
  int depth = 0;
  Score score = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::vector<Move> pv;
  double nps() const { return seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0; }
};

struct SearchResult {
  bool has_move = false;  // false only when the game is over or there is no legal move
  Move move{};
  Score score = 0;
  int depth = 0;  // the last completed iteration
  std::uint64_t nodes = 0;
};

class TranspositionTable {
 public:
  struct Entry {
    Key key = 0;
    std::int16_t score = 0;
    std::int8_t depth = -1;
    std::uint8_t bound = 0;  // 1 upper, 2 lower, 3 exact
    Move move{};
    bool has_move = false;
  };
  explicit TranspositionTable(int log2_entries = 20) { resize(log2_entries); }
  void resize(int log2_entries);
  void clear();
  Entry* probe(Key k) { return &entries_[k & mask_]; }

 private:
  std::vector<Entry> entries_;
  Key mask_ = 0;
};

// One search of a game's current position.
class Search {
 public:
  using InfoCallback = std::function<void(const SearchInfo&)>;
  Search(TranspositionTable& tt, SearchControl& control) : tt_(tt), control_(control) {}
  // max_depth 0: up to kMaxPly - 8; node_limit 0: none.
  SearchResult run(const Game& game, int max_depth, std::uint64_t node_limit,
                   const InfoCallback& on_info);

 private:
  Score pvs(const Position& pos, int depth, Score alpha, Score beta, int ply);
  bool repeated(int ply) const;
  void order(const Position& pos, MoveList& moves, int ply, const Move* tt_move) const;
  bool out_of_time();

  TranspositionTable& tt_;
  SearchControl& control_;
  std::uint64_t nodes_ = 0, node_limit_ = 0;
  bool aborted_ = false;
  std::vector<Key> keys_;  // the game's positions, then the line's
  int root_index_ = 0;
  Move killers_[kMaxPly][2]{};
  std::unique_ptr<int[]> history_;  // [side][from][to]
  Move pv_[kMaxPly][kMaxPly]{};
  int pv_length_[kMaxPly]{};
};

}  // namespace tsuru::chinese
