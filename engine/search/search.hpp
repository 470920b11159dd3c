// The search: iterative deepening over a principal-variation alpha-beta search with aspiration
// windows, a transposition table, killer and history move ordering, late-move reductions and a
// capture quiescence search. Templated on the rule set; one instance per searcher of a `go`.
// One searcher is deterministic for a given position, limits and table contents; with several
// (lazy SMP, search_run_impl.hpp) each runs this same search over the shared table, and what one
// stores steers the others.
//
// Captures are compulsory, so a position where the side to move can capture is never a leaf:
// the quiescence search plays the captures out and evaluates only quiet positions. Repetitions
// (against the game history too) and the move-count draw rules are applied inside the tree.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

#include "engine/rules/draw_rules.hpp"
#include "engine/rules/game.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/search/limits.hpp"
#include "engine/search/pruning.hpp"
#include "engine/search/search_control.hpp"
#include "engine/search/search_params.hpp"
#include "engine/search/tt.hpp"
#include "eval/egdb/search_probe.hpp"
#include "eval/pattern.hpp"

namespace tsuru {

struct SearchResult {
  BestMove best;
  Score score = 0;
  int depth = 0;
  std::uint64_t nodes = 0;                  // all searchers
  std::vector<std::uint64_t> thread_nodes;  // per searcher, the main one first
};

// What the searchers of one `go` share besides the table and the control: a flag that stops the
// helpers once the main searcher has its answer, and each searcher's node count (published every
// few nodes) for the node limit, which counts all of them, and for the reports.
class SearchShared {
 public:
  explicit SearchShared(int threads)
      : threads_(std::max(threads, 1)),
        counters_(std::make_unique<Counter[]>(static_cast<std::size_t>(threads_))) {}

  int threads() const { return threads_; }
  void halt() { halt_.store(true, std::memory_order_relaxed); }
  bool halted() const { return halt_.load(std::memory_order_relaxed); }
  void publish(int id, std::uint64_t nodes) {
    counters_[static_cast<std::size_t>(id)].nodes.store(nodes, std::memory_order_relaxed);
  }
  std::uint64_t nodes_of(int id) const {
    return counters_[static_cast<std::size_t>(id)].nodes.load(std::memory_order_relaxed);
  }
  // The published counts of every searcher but `id`.
  std::uint64_t others(int id) const {
    std::uint64_t sum = 0;
    for (int i = 0; i < threads_; ++i)
      if (i != id) sum += nodes_of(i);
    return sum;
  }

 private:
  struct alignas(64) Counter {  // a cache line each: no false sharing
    std::atomic<std::uint64_t> nodes{0};
  };
  int threads_;
  std::unique_ptr<Counter[]> counters_;
  std::atomic<bool> halt_{false};
};

template <class R>
class Search {
 public:
  using InfoCallback = std::function<void(const SearchInfo&)>;

  // id 0 is the main searcher (it reports and answers); helpers (id >= 1) skip some depths so
  // that the searchers spread over neighbouring iterations, and stop when shared.halted().
  Search(TranspositionTable& tt, SearchControl& control, const DrawOptions& draws,
         SearchShared& shared, int id = 0)
      : tt_(tt), control_(control), draws_(draws), shared_(shared), id_(id) {}

  // Searches the game's current position. max_depth 0 means no depth limit: iterations stop
  // at kMaxPly - 8, which also caps a larger max_depth (a helper goes on past max_depth until
  // halted). node_limit 0 means no node limit. root_moves: the legal moves of the game's
  // position, as MoveGen<R>::generate lists them (the caller has them already; a contrived
  // position can take long to generate). The caller starts the table's new search.
  SearchResult run(const Game& game, const MoveList& root_moves, int max_depth,
                   std::uint64_t node_limit, const InfoCallback& on_info) {
    node_limit_ = node_limit;
    // No more lines than root moves (and at least one, even with none).
    multi_pv_ =
        id_ == 0 ? std::max(1, std::min(multi_pv_, static_cast<int>(root_moves.size()))) : 1;
    on_info_ = on_info;
    const int limit = max_depth > 0 && id_ == 0 ? std::min(max_depth, kMaxPly - 8) : kMaxPly - 8;
    // The game's positions feed repetition detection.
    history_.clear();
    for (const Position& p : game.positions()) history_.push_back(p.key());
    root_index_ = static_cast<int>(history_.size()) - 1;
    history_.resize(history_.size() + kMaxPly + 1);
    std::memset(killers_, 0, sizeof killers_);
    for (auto& side : history_scores_)
      for (auto& row : side) std::fill(std::begin(row), std::end(row), 0);
    if constexpr (SearchParams<R>::kContinuationHistory) {
      continuation_.assign(kContinuationSize, 0);
      std::fill(std::begin(arrived_), std::end(arrived_), kNoSquare);
    }

    const Position& root = game.position();
    root_draw_ = game.draw_state();
    const MoveList& moves = root_moves;
    SearchResult result;
    if (moves.empty()) return result;
    result.best.has_move = true;
    result.best.move = moves[0];
    root_moves_.assign(moves.begin(), moves.end());
    root_scores_.assign(root_moves_.size(), -kInfinity);

    Score score = 0;
    pv_length_[0] = 0;
    // Below the root, a generation that runs past the deadline is abandoned (CaptureGuard).
    const ScopedCaptureGuard guard(&deadline_);
    for (int depth = 1; depth <= limit; ++depth) {
      if (skips(depth)) continue;
      const Score s =
          multi_pv_ > 1 ? multi_pv_iteration(root, depth) : aspiration(root, depth, score);
      // An interrupted iteration still counts for a root move it searched completely: the PV
      // only changes on such a move.
      if (pv_length_[0] > 0) {
        result.best.move = pv_[0][0];
        result.best.has_ponder = pv_length_[0] > 1;
        if (result.best.has_ponder) result.best.ponder = pv_[0][1];
      }
      if (aborted_) break;
      score = s;
      result.score = s;
      result.depth = depth;
      if (multi_pv_ > 1) {
        for (std::size_t k = 0; k < lines_.size(); ++k)
          report(depth, lines_[k].score, lines_[k].pv.data(), lines_[k].pv.size(),
                 static_cast<int>(k) + 1);
      } else {
        report(depth, s);
      }
      if (id_ == 0 && !control_.iteration_done(result.best.move, s, Clock::now())) break;
      // A forced result well inside the horizon will not change.
      if (is_win_score(s) && depth > plies_to_end(s) + 2 && !control_.pondering()) break;
    }
    shared_.publish(id_, nodes_);
    result.nodes = nodes_;
    return result;
  }

  std::uint64_t nodes() const { return nodes_; }
  // Endgame databases probed at every node they cover (none: nullptr).
  void set_egdb(const egdb::Database* db) { egdb_ = db; }
  // Multi-PV (main searcher only): each iteration searches the best k root moves one after the
  // other, each with a full window among the moves not yet chosen, and reports each with its
  // rank, score and PV. 1 is the normal search.
  void set_multi_pv(int k) { multi_pv_ = std::max(k, 1); }

 private:
  // Whether this helper leaves out the iteration of this depth. Helper i takes a pattern of
  // period 2k (k = 1 for helpers 1-2, 2 for 3-6, 3 for 7-12, ...: 2k helpers per k) at phase j:
  // it searches k depths, skips k, and so on, shifted by j. The main searcher skips none.
  bool skips(int depth) const {
    if (id_ == 0) return false;
    int size = 1;
    int phase = (id_ - 1) % 20;
    while (phase >= 2 * size) {
      phase -= 2 * size;
      ++size;
    }
    return ((depth + phase) / size) % 2 != 0;
  }

  Score aspiration(const Position& root, int depth, Score previous) {
    if (depth < 4 || is_win_score(previous)) return root_search(root, depth, -kInfinity, kInfinity);
    Score delta = 30;
    Score alpha = std::max(previous - delta, -kInfinity);
    Score beta = std::min(previous + delta, kInfinity);
    while (true) {
      const Score s = root_search(root, depth, alpha, beta);
      if (aborted_) return s;
      if (s <= alpha) {
        alpha = std::max(s - delta, -kInfinity);
      } else if (s >= beta) {
        beta = std::min(s + delta, kInfinity);
      } else {
        return s;
      }
      delta *= 3;
      if (delta > 400) {
        alpha = -kInfinity;
        beta = kInfinity;
      }
    }
  }

  // One multi-PV iteration: lines_ gets the best multi_pv_ root moves, best first. Returns the
  // best line's score; pv_[0] is left holding the best line's PV, so that an iteration cut
  // short still answers with its best complete line (or, cut in the first line, as run() says).
  Score multi_pv_iteration(const Position& root, int depth) {
    excluded_.assign(root_moves_.size(), 0);
    std::vector<Line> lines;
    for (int k = 0; k < multi_pv_; ++k) {
      pv_length_[0] = 0;
      const Score s = root_search(root, depth, -kInfinity, kInfinity);
      if (aborted_ || pv_length_[0] == 0) break;
      Line line;
      line.score = s;
      line.pv.assign(pv_[0], pv_[0] + pv_length_[0]);
      lines.push_back(std::move(line));
      for (std::size_t i = 0; i < root_moves_.size(); ++i)
        if (root_moves_[i] == pv_[0][0]) excluded_[i] = 1;
    }
    excluded_.clear();
    if (lines.empty()) return 0;  // aborted in the first line: pv_[0] is that line's
    std::stable_sort(lines.begin(), lines.end(),
                     [](const Line& a, const Line& b) { return a.score > b.score; });
    const Line& best = lines.front();
    std::copy(best.pv.begin(), best.pv.end(), pv_[0]);
    pv_length_[0] = static_cast<int>(best.pv.size());
    if (!aborted_) lines_ = std::move(lines);
    return best.score;
  }

  Score root_search(const Position& root, int depth, Score alpha, Score beta) {
    // Order: the previous iteration's best first, then by score.
    std::vector<std::size_t> order(root_moves_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return root_scores_[a] > root_scores_[b];
    });
    history_[static_cast<std::size_t>(root_index_)] = root.key();
    Score best = -kInfinity;
    std::size_t searched = 0;
    for (std::size_t idx : order) {
      if (!excluded_.empty() && excluded_[idx]) continue;
      const Move& m = root_moves_[idx];
      const Position child = root.after(m);
      const DrawState ds = advance_draw_state<R>(root_draw_, root, m, child);
      note_arrival(1, m);
      Score s;
      if (searched == 0) {
        s = -search(child, ds, depth - 1, -beta, -alpha, 1, true);
      } else {
        s = -search(child, ds, depth - 1, -alpha - 1, -alpha, 1, false);
        if (s > alpha && s < beta && !aborted_)
          s = -search(child, ds, depth - 1, -beta, -alpha, 1, true);
      }
      if (aborted_) break;
      ++searched;
      root_scores_[idx] = s;
      if (s > best) {
        best = s;
        if (s > alpha) {
          update_pv(0, m);
          // A new best move part-way through a deeper iteration is worth reporting.
          if (searched > 1 && depth >= 6 && multi_pv_ == 1) report(depth, s);
        }
      }
      if (s > alpha) alpha = s;
      if (alpha >= beta) break;
    }
    return best;
  }

  bool repeated(int ply, const DrawState& ds) const {
    const int here = root_index_ + ply;
    const Key key = history_[static_cast<std::size_t>(here)];
    for (int i = here - 2; i >= 0 && i >= here - ds.reversible; i -= 2)
      if (history_[static_cast<std::size_t>(i)] == key) return true;
    return false;
  }

  // With several searchers, the node limit counts all of them: the others' counts are refreshed
  // every 64 nodes (the limit may be passed by at most that many nodes per searcher).
  bool check_limits() {
    if ((nodes_ & 63) == 0 && shared_.threads() > 1) {
      shared_.publish(id_, nodes_);
      others_ = shared_.others(id_);
      if (shared_.halted()) aborted_ = true;
    }
    if ((nodes_ & 1023) == 0) {
      if (control_.must_stop(Clock::now())) aborted_ = true;
    }
    if (node_limit_ && nodes_ + others_ >= node_limit_) aborted_ = true;
    return aborted_;
  }

  Score search(const Position& pos, const DrawState& ds, int depth, Score alpha, Score beta,
               int ply, bool pv_node) {
    pv_length_[ply] = ply;
    ++nodes_;
    if (check_limits()) return 0;
    history_[static_cast<std::size_t>(root_index_ + ply)] = pos.key();

    FixedMoveList moves;
    if (!generate(pos, moves)) return 0;
    if (moves.overflowed()) [[unlikely]]
      return search_spilled(pos, ds, depth, alpha, beta, ply, pv_node);
    return search_node(pos, ds, depth, alpha, beta, ply, pv_node, moves);
  }

  // The moves did not fit a FixedMoveList: the same node with a list that grows.
  [[gnu::noinline]] Score search_spilled(const Position& pos, const DrawState& ds, int depth,
                                         Score alpha, Score beta, int ply, bool pv_node) {
    MoveList moves;
    if (!generate(pos, moves)) return 0;
    return search_node(pos, ds, depth, alpha, beta, ply, pv_node, moves);
  }

  // search() once the moves of pos are known.
  template <class List>
  [[gnu::always_inline]] Score search_node(const Position& pos, const DrawState& ds, int depth,
                                           Score alpha, Score beta, int ply, bool pv_node,
                                           List& moves) {
    if (moves.empty()) return no_move_score(ply);
    if (repeated(ply, ds) || counter_draw<R>(ds, pos, draws_) != ResultReason::None) return kDraw;
    if (egdb_ && !moves[0].is_capture())
      if (const auto s = egdb::search_score<R>(*egdb_, pos, &ds, draws_, ply, [&] {
            return eval::evaluate<R>(pos, control_.evaluation());
          }))
        return *s;
    if (ply >= kMaxPly - 4) return eval::evaluate<R>(pos, control_.evaluation());

    const bool capture = moves[0].is_capture();
    if (depth <= 0) {
      if (capture) return qsearch_moves(pos, moves, alpha, beta, ply, true);
      if (SearchParams<R>::kThreatReplies && threatened(pos))
        return qsearch_moves(pos, moves, alpha, beta, ply, false);
      if (SearchParams<R>::kSacrifices && pos.kings() == 0)
        return sacrifices(pos, moves, alpha, beta, ply);
      return leaf(pos, ply);
    }

    // Mate-distance pruning.
    alpha = std::max(alpha, loss_in(ply));
    beta = std::min(beta, win_in(ply + 1));
    if (alpha >= beta) return alpha;

    std::uint8_t tt_move = TranspositionTable::kNoMove;
    TTEntry e;
    Score tt_score = 0;
    const bool tt_hit = tt_.probe(pos.key(), e);
    if (tt_hit) {
      // Another searcher's entry may be for a position of the same key with fewer moves.
      if (e.move < moves.size()) tt_move = e.move;
      const Score s = TranspositionTable::from_tt(e.score, ply);
      tt_score = s;
      if (!pv_node && e.depth >= depth &&
          (e.bound() == Bound::Exact || (e.bound() == Bound::Lower && s >= beta) ||
           (e.bound() == Bound::Upper && s <= alpha)))
        return s;
    }

    using P = SearchParams<R>;
    // The pieces on the board: razoring, ProbCut, the singular extension and the reductions
    // leave the endings alone.
    const int pieces = popcount(pos.occupied());

    // Razoring and reverse futility pruning (where SearchParams switches them on): a shallow
    // node whose static value is far below alpha fails low, far above beta fails high. The
    // static value is computed once for both.
    const bool razor = Pruning<R>::razor(pv_node, capture, depth, moves.size(), pieces, alpha);
    const bool futile =
        Pruning<R>::reverse_futility(pv_node, capture, depth, moves.size(), pieces, beta);
    if (razor || futile) {
      const Score value = eval::evaluate<R>(pos, control_.evaluation());
      if (razor && value + P::razor_margin(depth) <= alpha) return value;
      if (futile && value - P::reverse_futility_margin(depth) >= beta) return value;
    }

    // ProbCut (where SearchParams switches it on): a quiet non-PV node whose search
    // kProbCutReduction plies shallower clears beta by kProbCutMargin is taken to fail high at
    // full depth too.
    if (Pruning<R>::probcut(pv_node, capture, depth, moves.size(), pieces, beta)) {
      const Score raised = beta + P::probcut_margin(depth);
      const Score s = search(pos, ds, P::probcut_depth(depth), raised - 1, raised, ply, false);
      if (aborted_) return 0;
      if (s >= raised) return beta;
    }

    // A forced move (a single legal move, usually a capture) costs no depth.
    if (moves.size() == 1 && ply < 2 * kMaxPly / 3) ++depth;

    // Singular extension (where SearchParams switches it on): the table move gets a ply more
    // when no other move comes near its score at half depth.
    int singular_extension = 0;
    if (tt_hit && Pruning<R>::singular(pv_node, capture, depth, moves.size(), pieces,
                                       tt_move != TranspositionTable::kNoMove,
                                       e.bound() == Bound::Lower || e.bound() == Bound::Exact,
                                       e.depth, tt_score)) {
      if (singular(pos, ds, moves, tt_move, tt_score - P::singular_margin(depth), depth / 2, ply))
        singular_extension = 1;
      if (aborted_) return 0;
    }

    const Side us = pos.turn();
    typename Ordering::template Store<List> store(moves.size());
    Ordering order{store.score.data(), store.index.data()};
    score_moves(moves, order, tt_move, ply, us);

    Score best = -kInfinity;
    std::uint8_t best_index = TranspositionTable::kNoMove;
    const Score original_alpha = alpha;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const std::size_t mi = order.pick(i, moves.size());
      const Move& m = moves[mi];
      const bool killer = is_killer(m, ply);
      if (Pruning<R>::late_move_pruned(m, killer, depth, i, pv_node, best)) continue;
      const Position child = pos.after(m);
      tt_.prefetch(child.key());
      const DrawState child_ds = advance_draw_state<R>(ds, pos, m, child);
      note_arrival(ply + 1, m);
      const bool quiet = !m.is_capture() && !m.crowns;
      Score s;
      if (i == 0) {
        const int extension = mi == tt_move && ply < 2 * kMaxPly / 3 ? singular_extension : 0;
        s = -search(child, child_ds, depth - 1 + extension, -beta, -alpha, ply + 1, pv_node);
      } else {
        const int reduction = Pruning<R>::reduction(m, killer, depth, i, pv_node, pieces);
        s = -search(child, child_ds, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, false);
        if (s > alpha && reduction > 0 && !aborted_)
          s = -search(child, child_ds, depth - 1, -alpha - 1, -alpha, ply + 1, false);
        if (s > alpha && s < beta && pv_node && !aborted_)
          s = -search(child, child_ds, depth - 1, -beta, -alpha, ply + 1, true);
      }
      if (aborted_) return 0;
      if (s > best) {
        best = s;
        best_index = static_cast<std::uint8_t>(std::min<std::size_t>(mi, 254));
        if (s > alpha) {
          alpha = s;
          if (pv_node) update_pv(ply, m);
          if (alpha >= beta) {
            if (quiet) reward(m, ply, us, depth);
            break;
          }
        }
      }
    }
    const Bound bound = best >= beta            ? Bound::Lower
                        : best > original_alpha ? Bound::Exact
                                                : Bound::Upper;
    tt_.store(pos.key(), best, depth, bound, best_index, ply);
    return best;
  }

  // Whether every move of pos but the table's fails low against `bound` at this depth: null
  // windows from the node's children, which leave the node's own table entry alone.
  template <class List>
  bool singular(const Position& pos, const DrawState& ds, const List& moves, std::uint8_t tt_move,
                Score bound, int depth, int ply) {
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (i == tt_move) continue;
      const Move& m = moves[i];
      const Position child = pos.after(m);
      const DrawState child_ds = advance_draw_state<R>(ds, pos, m, child);
      note_arrival(ply + 1, m);
      const Score s = -search(child, child_ds, depth - 1, -bound, -bound + 1, ply + 1, false);
      if (aborted_ || s >= bound) return false;
    }
    return true;
  }

  // The side to move has no move: it has lost, or in antidraughts won.
  static constexpr Score no_move_score(int ply) {
    if constexpr (R::kNoMoveWins) {
      return win_in(ply);
    } else {
      return loss_in(ply);
    }
  }

  // The quiet position's value: static evaluation.
  Score leaf(const Position& pos, int ply) {
    leaf_depth_sum_ += static_cast<std::uint64_t>(ply);
    ++leaves_;
    return eval::evaluate<R>(pos, control_.evaluation());
  }

  // Whether the opponent could capture if it were its turn: a quiet position's static value
  // does not see that loss coming.
  static bool threatened(const Position& pos) { return MoveGen<R>::has_capture(pos.passed()); }

  // Plays out compulsory captures; `moves` are the captures of pos. threats: the quiet
  // positions reached may still get their threat replies. A threatened quiet position (where
  // SearchParams switches it on) has its quiet replies searched through here too, with threats
  // off: one ply at most on a line.
  template <class List>
  Score qsearch_moves(const Position& pos, List& moves, Score alpha, Score beta, int ply,
                      bool threats) {
    Score best = -kInfinity;
    for (const Move& m : moves) {
      const Score s = -qsearch(pos.after(m), -beta, -alpha, ply + 1, threats);
      if (aborted_) return 0;
      if (s > best) {
        best = s;
        if (s > alpha) {
          alpha = s;
          if (alpha >= beta) break;
        }
      }
    }
    return best;
  }

  // A quiet leaf's value with its sacrifices tried (SearchParams::kSacrifices): the static
  // value, or better, what a quiet move that gives the opponent a capture comes to once the
  // captures are played out (with no threat replies or sacrifices below: once on a line).
  template <class List>
  Score sacrifices(const Position& pos, const List& quiet, Score alpha, Score beta, int ply) {
    Score best = leaf(pos, ply);
    if (best >= beta) return best;
    for (const Move& m : quiet) {
      const Position child = pos.after(m);
      if (!MoveGen<R>::has_capture(child)) continue;
      const Score s = -qsearch(child, -beta, -std::max(alpha, best), ply + 1, false);
      if (aborted_) return 0;
      if (s > best) {
        best = s;
        if (best >= beta) break;
      }
    }
    return best;
  }

  Score qsearch(const Position& pos, Score alpha, Score beta, int ply, bool threats) {
    ++nodes_;
    if (check_limits()) return 0;
    if (ply >= kMaxPly - 4) return eval::evaluate<R>(pos, control_.evaluation());
    if (!MoveGen<R>::has_capture(pos)) {
      if (MoveGen<R>::count_quiet(pos) == 0) return no_move_score(ply);
      if (egdb_)
        if (const auto s = egdb::search_score<R>(*egdb_, pos, nullptr, draws_, ply, [&] {
              return eval::evaluate<R>(pos, control_.evaluation());
            }))
          return *s;
      if (SearchParams<R>::kThreatReplies && threats && threatened(pos)) {
        FixedMoveList quiet;
        if (!generate(pos, quiet)) return 0;
        if (!quiet.overflowed()) return qsearch_moves(pos, quiet, alpha, beta, ply, false);
      }
      if (SearchParams<R>::kSacrifices && threats && pos.kings() == 0) {
        FixedMoveList quiet;
        if (!generate(pos, quiet)) return 0;
        if (!quiet.overflowed()) return sacrifices(pos, quiet, alpha, beta, ply);
      }
      return leaf(pos, ply);
    }
    FixedMoveList moves;
    if (!generate(pos, moves, true)) return 0;
    if (moves.overflowed()) [[unlikely]]
      return qsearch_spilled(pos, alpha, beta, ply, threats);
    return qsearch_moves(pos, moves, alpha, beta, ply, threats);
  }

  [[gnu::noinline]] Score qsearch_spilled(const Position& pos, Score alpha, Score beta, int ply,
                                          bool threats) {
    MoveList moves;
    if (!generate(pos, moves, true)) return 0;
    return qsearch_moves(pos, moves, alpha, beta, ply, threats);
  }

  // The moves of pos (only its captures when captures_only), or false when the generation was
  // abandoned at the deadline: the search is then aborted and the node's result discarded.
  template <class List>
  bool generate(const Position& pos, List& moves, bool captures_only = false) {
    try {
      if (captures_only)
        MoveGen<R>::template generate_captures<false>(pos, moves);
      else
        MoveGen<R>::generate(pos, moves);
      return true;
    } catch (const CaptureSearchAborted&) {
      aborted_ = true;
      return false;
    }
  }

  // What a long capture search polls: the stop flag, the hard deadline and the helpers' halt.
  struct Deadline final : CaptureGuard {
    Deadline(const SearchControl& c, const SearchShared& s) : control(c), shared(s) {}
    bool expired() override { return control.must_stop(Clock::now()) || shared.halted(); }
    const SearchControl& control;
    const SearchShared& shared;
  };

  // Move ordering: a score per move and the order in which they are tried. Moves stay where the
  // generator put them, so an index identifies a move for the transposition table.
  // The scores and indices live in a Store: on the stack for a FixedMoveList (nothing to
  // destroy on the hot path), on the heap for the rare node whose moves did not fit one.
  struct Ordering {
    struct FixedStore {
      explicit FixedStore(std::size_t) {}
      std::array<int, FixedMoveList::kCapacity> score;
      std::array<std::uint32_t, FixedMoveList::kCapacity> index;
    };
    struct GrowingStore {
      explicit GrowingStore(std::size_t n) : score(n), index(n) {}
      std::vector<int> score;
      std::vector<std::uint32_t> index;
    };
    template <class List>
    using Store = std::conditional_t<std::is_same_v<List, FixedMoveList>, FixedStore, GrowingStore>;

    int* score;
    std::uint32_t* index;

    // The index of the i-th best move (one selection-sort step).
    std::size_t pick(std::size_t i, std::size_t n) {
      std::size_t best = i;
      for (std::size_t j = i + 1; j < n; ++j)
        if (score[j] > score[best]) best = j;
      std::swap(score[i], score[best]);
      std::swap(index[i], index[best]);
      return index[i];
    }
  };

  template <class List>
  void score_moves(const List& moves, Ordering& order, std::uint8_t tt_move, int ply,
                   Side us) const {
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const Move& m = moves[i];
      int s;
      if (i == tt_move) {
        s = 1 << 30;
      } else if (m.is_capture()) {
        s = (1 << 24) + (m.capture_count() << 16) + history_scores_[index(us)][m.from][m.to];
      } else if (m == killers_[ply][0]) {
        s = (1 << 22) + 1;
      } else if (m == killers_[ply][1]) {
        s = 1 << 22;
      } else {
        s = history_scores_[index(us)][m.from][m.to] + (m.crowns ? (1 << 21) : 0);
        if constexpr (SearchParams<R>::kContinuationHistory)
          s += continuation_[continuation_slot(us, ply, m)];
      }
      order.score[i] = s;
      order.index[i] = static_cast<std::uint32_t>(i);
    }
  }

  bool is_killer(const Move& m, int ply) const {
    return m == killers_[ply][0] || m == killers_[ply][1];
  }

  void reward(const Move& m, int ply, Side us, int depth) {
    if (!(m == killers_[ply][0])) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = m;
    }
    int& h = history_scores_[index(us)][m.from][m.to];
    h = std::min(h + depth * depth, 1 << 20);
    if constexpr (SearchParams<R>::kContinuationHistory) {
      int& c = continuation_[continuation_slot(us, ply, m)];
      c = std::min(c + depth * depth, 1 << 19);
    }
  }

  // Continuation history: how often quiet move m has cut off in answer to the opponent's
  // move arriving on the square it arrived on (arrived_[ply]; none at the root).
  static constexpr std::uint8_t kNoSquare = 64;
  static constexpr std::size_t kContinuationSize = 2 * 65 * 64 * 64;
  void note_arrival(int ply, const Move& m) {
    if constexpr (SearchParams<R>::kContinuationHistory) arrived_[ply] = m.to;
  }
  std::size_t continuation_slot(Side us, int ply, const Move& m) const {
    const std::size_t prev = ply > 0 ? arrived_[ply] : kNoSquare;
    return ((static_cast<std::size_t>(index(us)) * 65 + prev) * 64 + m.from) * 64 + m.to;
  }

  void update_pv(int ply, const Move& m) {
    pv_[ply][ply] = m;
    for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
    pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
  }

  void report(int depth, Score score) {
    report(depth, score, pv_[0], static_cast<std::size_t>(pv_length_[0]), 0);
  }

  // rank: the line's rank in a multi-PV search, 0 in a normal one.
  void report(int depth, Score score, const Move* pv, std::size_t pv_length, int rank) {
    if (!on_info_ || id_ != 0) return;
    SearchInfo info;
    info.depth = depth;
    info.rank = rank;
    info.score = score;
    info.nodes = nodes_ + (shared_.threads() > 1 ? shared_.others(id_) : 0);
    info.seconds = control_.elapsed(Clock::now());
    info.mean_depth =
        leaves_ ? static_cast<double>(leaf_depth_sum_) / static_cast<double>(leaves_) : depth;
    info.pv.assign(pv, pv + pv_length);
    on_info_(info);
  }

  TranspositionTable& tt_;
  SearchControl& control_;
  DrawOptions draws_;
  SearchShared& shared_;
  int id_ = 0;
  InfoCallback on_info_;
  std::uint64_t node_limit_ = 0;
  std::uint64_t nodes_ = 0;
  std::uint64_t others_ = 0;  // the other searchers' nodes, as last published
  std::uint64_t leaf_depth_sum_ = 0;
  std::uint64_t leaves_ = 0;
  bool aborted_ = false;
  Deadline deadline_{control_, shared_};
  const egdb::Database* egdb_ = nullptr;

  std::vector<Key> history_;  // keys of the game positions, then of the current tree path
  int root_index_ = 0;
  DrawState root_draw_;
  std::vector<Move> root_moves_;
  std::vector<Score> root_scores_;
  struct Line {
    Score score = 0;
    std::vector<Move> pv;
  };
  int multi_pv_ = 1;
  std::vector<char> excluded_;  // multi-PV: root moves already chosen in this iteration
  std::vector<Line> lines_;     // multi-PV: the last complete iteration's lines, best first

  Move killers_[kMaxPly][2];
  int history_scores_[2][64][64];
  std::vector<int> continuation_;           // kContinuationHistory: [side][arrived][from][to]
  std::uint8_t arrived_[kMaxPly + 1] = {};  // the square the move into ply's node arrived on
  Move pv_[kMaxPly][kMaxPly];
  int pv_length_[kMaxPly + 1];
};

}  // namespace tsuru
