#include "engine/chinese/search.hpp"

#include <algorithm>
#include <cstring>

#include "engine/chinese/evaluate.hpp"

namespace tsuru::chinese {

namespace {

constexpr std::uint8_t kUpper = 1, kLower = 2, kExact = 3;
constexpr std::size_t kHistorySize = 2 * kPoints * kPoints;

std::size_t history_index(Side s, Move m) {
  return (static_cast<std::size_t>(index(s)) * kPoints + m.from) * kPoints + m.to;
}

// Forced-win scores are stored relative to the node, read back relative to the root.
Score to_tt(Score s, int ply) {
  return s >= kWinThreshold ? s + ply : s <= -kWinThreshold ? s - ply : s;
}
Score from_tt(Score s, int ply) {
  return s >= kWinThreshold ? s - ply : s <= -kWinThreshold ? s + ply : s;
}

int gain(Side s, Move m) {
  return rows_to_go(s, m.from) - rows_to_go(s, m.to);
}

}  // namespace

void TranspositionTable::resize(int log2_entries) {
  entries_.assign(std::size_t{1} << log2_entries, Entry{});
  mask_ = (Key{1} << log2_entries) - 1;
}

void TranspositionTable::clear() {
  std::fill(entries_.begin(), entries_.end(), Entry{});
}

bool Search::out_of_time() {
  if (aborted_) return true;
  if ((nodes_ & 1023) == 0 &&
      (control_.must_stop(Clock::now()) || (node_limit_ && nodes_ >= node_limit_)))
    aborted_ = true;
  return aborted_;
}

bool Search::repeated(int ply) const {
  const std::size_t at = static_cast<std::size_t>(root_index_ + ply);
  const Key k = keys_[at];
  for (std::size_t i = at; i >= 2;) {
    i -= 2;
    if (keys_[i] == k) return true;
  }
  return false;
}

void Search::order(const Position& pos, MoveList& moves, int ply, const Move* tt_move) const {
  const Side s = pos.side_to_move();
  std::array<int, kMaxMoves> score;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    int v = gain(s, m) * 4096 + std::min(history_[history_index(s, m)], 2047);
    if (m == killers_[ply][0] || m == killers_[ply][1]) v += 2048;
    if (tt_move && m == *tt_move) v = 1 << 30;
    score[i] = v;
  }
  // Insertion sort, best first (the lists are short and mostly ordered by generation).
  for (std::size_t i = 1; i < moves.size(); ++i) {
    const Move m = moves[i];
    const int v = score[i];
    std::size_t j = i;
    for (; j > 0 && score[j - 1] < v; --j) {
      moves[j] = moves[j - 1];
      score[j] = score[j - 1];
    }
    moves[j] = m;
    score[j] = v;
  }
}

Score Search::pvs(const Position& pos, int depth, Score alpha, Score beta, int ply) {
  pv_length_[ply] = 0;
  ++nodes_;
  // The side that just moved brought all ten home.
  if (pos.decided()) return loss_in(ply);
  if (ply > 0 && repeated(ply)) return kDraw;
  if (out_of_time()) return 0;
  if (depth <= 0 || ply >= kMaxPly - 2) return evaluate(pos);

  const bool pv_node = beta - alpha > 1;
  TranspositionTable::Entry* entry = tt_.probe(pos.key());
  const Move* tt_move = nullptr;
  if (entry->key == pos.key()) {
    if (entry->has_move) tt_move = &entry->move;
    if (!pv_node && entry->depth >= depth) {
      const Score s = from_tt(entry->score, ply);
      if (entry->bound == kExact || (entry->bound == kLower && s >= beta) ||
          (entry->bound == kUpper && s <= alpha))
        return s;
    }
  }
  MoveList moves;
  generate(pos, moves);
  if (moves.empty()) return kDraw;
  const Move tt_copy = tt_move ? *tt_move : Move{};
  order(pos, moves, ply, tt_move ? &tt_copy : nullptr);

  const Side s = pos.side_to_move();
  const Score alpha0 = alpha;
  Score best = -kInfinity;
  Move best_move = moves[0];
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    const Position child = pos.after(m);
    keys_[static_cast<std::size_t>(root_index_ + ply + 1)] = child.key();
    Score score;
    if (i == 0) {
      score = -pvs(child, depth - 1, -beta, -alpha, ply + 1);
    } else {
      // Late quiet moves, and above all backward ones, are searched shallower first.
      int reduction = 0;
      const bool special = m == killers_[ply][0] || m == killers_[ply][1];
      if (depth >= 3 && i >= 3 && !special) reduction = gain(s, m) < 0 ? 2 : 1;
      reduction = std::min(reduction, depth - 1);
      score = -pvs(child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
      if (score > alpha && reduction > 0)
        score = -pvs(child, depth - 1, -alpha - 1, -alpha, ply + 1);
      if (score > alpha && score < beta) score = -pvs(child, depth - 1, -beta, -alpha, ply + 1);
    }
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      best_move = m;
      if (score > alpha) {
        alpha = score;
        pv_[ply][0] = m;
        std::memcpy(&pv_[ply][1], &pv_[ply + 1][0],
                    sizeof(Move) * static_cast<std::size_t>(pv_length_[ply + 1]));
        pv_length_[ply] = pv_length_[ply + 1] + 1;
        if (alpha >= beta) {
          if (!(m == killers_[ply][0])) {
            killers_[ply][1] = killers_[ply][0];
            killers_[ply][0] = m;
          }
          int& h = history_[history_index(s, m)];
          h = std::min(h + depth * depth, 1 << 20);
          break;
        }
      }
    }
  }
  const std::uint8_t bound = best >= beta ? kLower : best > alpha0 ? kExact : kUpper;
  if (entry->key != pos.key() || depth >= entry->depth || bound == kExact) {
    entry->key = pos.key();
    entry->score = static_cast<std::int16_t>(to_tt(best, ply));
    entry->depth = static_cast<std::int8_t>(depth);
    entry->bound = bound;
    entry->move = best_move;
    entry->has_move = true;
  }
  return best;
}

SearchResult Search::run(const Game& game, int max_depth, std::uint64_t node_limit,
                         const InfoCallback& on_info) {
  SearchResult result;
  nodes_ = 0;
  node_limit_ = node_limit;
  aborted_ = false;
  keys_.clear();
  for (const Position& p : game.positions()) keys_.push_back(p.key());
  root_index_ = static_cast<int>(keys_.size()) - 1;
  keys_.resize(keys_.size() + kMaxPly + 1);
  std::memset(killers_, 0, sizeof killers_);
  if (!history_) history_ = std::make_unique<int[]>(kHistorySize);
  std::fill(history_.get(), history_.get() + kHistorySize, 0);

  const Position& root = game.position();
  if (game.result().outcome != Outcome::Ongoing) return result;
  const MoveList moves = legal_moves(root);
  result.has_move = true;
  result.move = moves[0];
  const int limit = max_depth > 0 ? std::min(max_depth, kMaxPly - 8) : kMaxPly - 8;
  const Clock::time_point start = Clock::now();
  for (int depth = 1; depth <= limit; ++depth) {
    const Score score = pvs(root, depth, -kInfinity, kInfinity, 0);
    // An interrupted iteration still counts for a root move it searched completely.
    if (pv_length_[0] > 0) result.move = pv_[0][0];
    if (aborted_) break;
    result.score = score;
    result.depth = depth;
    if (on_info) {
      SearchInfo info;
      info.depth = depth;
      info.score = score;
      info.nodes = nodes_;
      info.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      info.pv.assign(&pv_[0][0], &pv_[0][0] + pv_length_[0]);
      on_info(info);
    }
    if (control_.past_soft(Clock::now())) break;
    if (is_win_score(score) && depth > plies_to_end(score) + 2) break;
    if (moves.size() == 1 && depth >= 2) break;
  }
  result.nodes = nodes_;
  return result;
}

}  // namespace tsuru::chinese
