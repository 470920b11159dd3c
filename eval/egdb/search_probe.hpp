// What the search and the engine make of a database probe.
//
// Scores (engine/rules/score.hpp): a database win in d plies found at ply p scores
// kDatabaseWin - (p + d), far above any evaluation and below kWinThreshold, so a forced win the
// search proves itself (kWin - plies) still ranks above it; a loss scores the negation. The
// nearer win ranks higher, the loser prefers the longer loss. Without distances (the larger
// slices) d counts as kUnknownDistance.
//
// Move-count draw rules (draw_rules.hpp) are not part of a database value. The search combines
// them so: in a kings-only position, when the probe gives a distance d and a counter rule will
// draw the game in fewer than d plies (plies_to_counter_draw), the position scores as a draw:
// no man move can reset the counter, so the win cannot be forced in time (a won
// 3-kings-v-1 ending that the FMJD 16-move limit makes a draw). Only a capture on the way could
// reset it, which the distance does not tell: the rule is then a little pessimistic. With men
// on the board a man move resets the 25- or 40-move counter, and the winning line usually
// moves one, so the database value stands (the root play-out still keeps every move inside the
// counters, see fastest_win).
#pragma once

#include <algorithm>
#include <optional>

#include "engine/rules/draw_rules.hpp"
#include "engine/rules/game.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/movegen_lines.hpp"
#include "engine/rules/score.hpp"
#include "eval/egdb/database.hpp"

namespace tsuru::egdb {

inline constexpr Score kDatabaseWin = kWinThreshold - 1;
inline constexpr int kUnknownDistance = 300;
// The evaluation stays far below 9,000 (all material of a full board as kings is under that).
static_assert(kDatabaseWin - 2 * kUnknownDistance > 9000,
              "database wins must stay above every evaluation");

// Without a distance every won position would score the same: the winner could shuffle and the
// loser would give up at once, playing any move (an English match with the 5-piece WDL sets and
// scores like that: W1 D9 L7 against the same engine without databases). There the evaluation,
// clamped to +-kEvalSpan, orders positions of one value: the winner heads for the better
// position, the loser resists.
inline constexpr Score kEvalSpan = 500;
inline constexpr Score kUnknownWin = kDatabaseWin - 2 * kUnknownDistance - kEvalSpan - 1;
static_assert(kUnknownWin - kEvalSpan > 8000, "database wins must stay above every evaluation");

constexpr Score database_win(int ply, int distance, Score eval = 0) {
  if (distance < 0) return kUnknownWin + std::clamp<Score>(eval, -kEvalSpan, kEvalSpan);
  return kDatabaseWin - std::min(ply + distance, 2 * kUnknownDistance);
}

// Whether a score comes from a database probe (a win or loss the databases gave, at the root or
// at a leaf): the band between the evaluation's reach and the wins the search proves itself.
constexpr bool is_database_score(Score s) {
  const Score m = s < 0 ? -s : s;
  return m >= kUnknownWin - kEvalSpan && m <= kDatabaseWin;
}

// Whether the counter rules draw a kings-only position before a result `distance` plies away.
template <class R>
bool counters_cut_short(const Position& pos, const DrawState& ds, const DrawOptions& draws,
                        int distance) {
  if (distance < 0 || pos.men(Side::White) || pos.men(Side::Black)) return false;
  const int left = plies_to_counter_draw<R>(ds, draws);
  return left >= 0 && distance > left;
}

// The score of pos at ply from the database, or nullopt when it does not cover pos. ds: the
// draw counters at pos (nullptr in the quiescence search, which does not track them).
// evaluate(): the static evaluation of pos for the side to move, asked only for a win or loss
// without a distance.
template <class R, class Evaluate>
std::optional<Score> search_score(const Database& db, const Position& pos, const DrawState* ds,
                                  const DrawOptions& draws, int ply, Evaluate&& evaluate) {
  if (popcount(pos.occupied()) > db.probe_limit()) return std::nullopt;
  const std::optional<Probe> p = db.probe_quiet(pos);  // the callers have no capture pending
  if (!p) return std::nullopt;
  if (p->wdl == Wdl::Draw) return kDraw;
  if (ds && counters_cut_short<R>(pos, *ds, draws, p->distance)) return kDraw;
  if (p->distance < 0) {
    const Score e = evaluate();
    return p->wdl == Wdl::Win ? database_win(ply, -1, e) : -database_win(ply, -1, -e);
  }
  const Score win = database_win(ply, p->distance);
  return p->wdl == Wdl::Win ? win : -win;
}

// What the databases say of the game's position for the side to move, with the move-count draw
// rules as the search combines them (a kings-only win or loss that a counter cuts short is a
// draw); nullopt when they do not cover it (too many pieces, a slice missing, a capture pending)
// or cannot be sure: a kings-only win or loss without a distance while a counter runs.
template <class R>
std::optional<Wdl> verdict(const Database& db, const Game& game) {
  const Position& pos = game.position();
  if (popcount(pos.occupied()) > db.probe_limit()) return std::nullopt;
  const MoveList moves = game.legal_moves();
  if (moves.empty() || moves[0].is_capture()) return std::nullopt;
  const std::optional<Probe> p = db.probe_quiet(pos);
  if (!p) return std::nullopt;
  if (p->wdl == Wdl::Draw) return Wdl::Draw;
  const bool kings_only = !pos.men(Side::White) && !pos.men(Side::Black);
  if (kings_only && p->distance < 0 &&
      plies_to_counter_draw<R>(game.draw_state(), game.options()) >= 0)
    return std::nullopt;
  if (counters_cut_short<R>(pos, game.draw_state(), game.options(), p->distance)) return Wdl::Draw;
  return p->wdl;
}

// The move that wins fastest in a won position the database covers with distances, such that
// no counter rule draws the game at once or (kings only) before the win; nullopt when the
// position is not a database win with a distance, or every winning move runs into a counter
// draw: the search then decides.
template <class R>
std::optional<Move> fastest_win(const Database& db, const Game& game, const MoveList& moves) {
  const Position& pos = game.position();
  if (popcount(pos.occupied()) > db.probe_limit()) return std::nullopt;
  const std::optional<Probe> root = db.probe(pos);
  if (!root || root->wdl != Wdl::Win || root->distance < 0) return std::nullopt;
  // When a counter will run out before the fastest win ends, a winning move that resets it (a
  // man move or a capture) goes first, the nearest such win first.
  const int left = plies_to_counter_draw<R>(game.draw_state(), game.options());
  const bool tight = left >= 0 && root->distance > left;
  std::optional<Move> best;
  int best_key = 0;
  for (const Move& m : moves) {
    const Position child = pos.after(m);
    const DrawState ds = advance_draw_state<R>(game.draw_state(), pos, m, child);
    int d;
    if (child.pieces(child.turn()) == 0 || MoveGen<R>::count(child) == 0) {
      if (R::kNoMoveWins) continue;  // the opponent, unable to move, wins
      d = 0;                         // the move wins at once
    } else {
      const std::optional<Probe> p = db.probe(child);
      if (!p || p->wdl != Wdl::Loss || p->distance < 0) continue;
      if (counter_draw<R>(ds, child, game.options()) != ResultReason::None) continue;
      if (counters_cut_short<R>(child, ds, game.options(), p->distance)) continue;
      d = p->distance;
    }
    const bool resets = m.is_capture() || !has(pos.kings(), m.from);
    const int key = (tight && !resets ? 1 << 16 : 0) + d;
    if (!best || key < best_key) {
      best = m;
      best_key = key;
    }
  }
  return best;
}

}  // namespace tsuru::egdb
