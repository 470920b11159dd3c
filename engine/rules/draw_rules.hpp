// Automatic draw rules that depend on the moves played: the counters behind them, advanced
// once per move, and the check that says a draw has been reached. Threefold repetition needs
// the position history and lives in Game (and in the search's own stack).
//
// English (WCDF; docs/rules.md): 40 moves each (80 plies) with no man move and no capture; 400
//   moves (plies) in all; optionally a draw as soon as each side has one king and nothing else.
// International (FMJD; docs/rules.md):
//   - 25 moves each (50 plies) in which only kings move (no man move, no capture);
//   - endgame limits counted from the moment the material arises (a capture never extends
//     them): 3 kings, 2 kings + 1 man or 1 king + 2 men against a lone king: 16 moves each;
//     2 kings, 1 king + 1 man or 1 king against a lone king: 5 moves each;
//   - 3 v 1 with the lone king on the long diagonal and no piece of the stronger side on it:
//     5 moves each from then; 3 v 1 falling to 2 v 1: 5 moves each from then; neither may
//     exceed a 16-move limit already running.
// A draw by a limit is declared only after the move that exhausts it, and only if that move did
// not win (the side to move being blocked or without pieces is checked first, in Game).
//
// The other federations (DrawLimits::endgame_rule; each limit counts from the moment the material
// arose, so a capture or a crowning starts it again):
//   FMJD-64 (IDF) rules 7.2.3-7.2.8, Russian and Brazilian (lidraughts applies them to both;
//   text quoted in its Russian.scala from fmjd64.org "rules of the game"):
//     7.2.5 15 moves each with only kings moving (reversible_plies 30);
//     7.2.4 three kings or more against a lone king: 15 moves each;
//     7.2.8 two kings, king and man, or a king against a lone king: 5 moves each;
//     7.2.7 three pieces with a king against a lone king standing on the long diagonal: 5 moves
//           each from then (the text sets no condition on the stronger side's pieces);
//     7.2.6 both sides with kings and the balance unchanged: 30 moves in 4- and 5-piece
//           endings, 60 in 6- and 7-piece endings. "Moves" are read as each side's moves, as in
//           7.2.4 and 7.2.5 (lidraughts counts these two as plies, a reading its own forum
//           questioned).
//   Pool (APCA): three kings against one king: 13 moves each.
//   Spanish: three kings against one king: 12 moves each.
//   Frisian (lidraughts Frisian.scala): two kings against one king: 7 moves each; one king
//     each: 2 moves each (the rule text draws at once unless a king can be won by force, which
//     lidraughts approximates by the two moves; so do we).
//   Turkish: one piece each (even if one is a king): a draw at once.
// Italian (FID 9.3): the fourth occurrence of a position draws instead of the third.
// Antidraughts: threefold repetition and the FMJD 25-move kings-only rule; not the 16/5-move
//   endgame limits, which measure whether material can force a win in the normal game.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "engine/rules/position.hpp"
#include "engine/rules/rules.hpp"

namespace tsuru {

// Why a game ended (or None). The draw reasons come from this file; the rest from Game.
enum class ResultReason : std::uint8_t {
  None,
  NoLegalMove,      // the side to move has no piece or is blocked: it loses (antidraughts: wins)
  Repetition,       // same position, same side to move, third time (Italian: fourth)
  ReversibleMoves,  // English 40-move rule / international 25-move kings-only rule
  EndgameLimit,     // FMJD 16/5-move endgame limits
  MoveCap,          // English 400-move cap
  OneKingEach,      // English optional rule: one king against one king
  OnePieceEach,     // Turkish: one piece against one piece
  KingReached,      // Breakthrough: the side that made a king wins
};

struct DrawOptions {
  bool move_cap = true;             // English 400-move cap (one of the seed sites uses it)
  bool one_king_each_draw = false;  // English optional instant draw, off by default
};

// The counters are 32 bits and saturate rather than wrap: the repetition scan looks back
// `reversible` plies, so a counter that wrapped (16 bits did after 32,768 king moves in a rule
// set without a move-count rule) would stop repetitions from being seen.
struct DrawState {
  std::int32_t reversible = 0;     // plies since the last man move or capture
  std::int32_t plies = 0;          // plies since the start position
  std::int16_t endgame_left = -1;  // plies left under an FMJD endgame limit; -1 when none runs
  std::uint8_t endgame_class = 0;  // 0 none, 1 the 16-move class, 2 the 5-move class
};

namespace draw_detail {
// c + 1, held at the largest value instead of wrapping.
constexpr std::int32_t saturated_next(std::int32_t c) {
  return c < std::numeric_limits<std::int32_t>::max() ? c + 1 : c;
}
}  // namespace draw_detail

namespace draw_detail {

constexpr std::uint8_t kNoLimit = 0, kSixteen = 1, kFive = 2;

// The FMJD endgame class of a position: a lone king against at most three pieces with a king.
inline std::uint8_t endgame_class(const Position& p) {
  const auto lone_king = [&](Side s) {
    return popcount(p.pieces(s)) == 1 && p.kings(s) == p.pieces(s);
  };
  for (Side weak : {Side::White, Side::Black}) {
    if (!lone_king(weak)) continue;
    const Side strong = opponent(weak);
    const int n = popcount(p.pieces(strong));
    if (!p.kings(strong)) continue;
    if (n == 3) return kSixteen;
    if (n <= 2) return kFive;
  }
  return kNoLimit;
}

// The lone king, when one side has nothing else, and the other side's piece and king counts.
struct LoneKing {
  bool found = false;
  Side weak = Side::White;
  int strong_pieces = 0;
  int strong_kings = 0;
};
inline LoneKing lone_king(const Position& p) {
  for (Side weak : {Side::White, Side::Black}) {
    if (popcount(p.pieces(weak)) != 1 || !p.kings(weak)) continue;
    const Side strong = opponent(weak);
    return {true, weak, popcount(p.pieces(strong)), popcount(p.kings(strong))};
  }
  return {};
}

// Plies allowed from the moment the material of p arose under R's endgame rule; -1: no limit.
template <class R>
int material_limit(const Position& p) {
  constexpr EndgameRule rule = R::kDraws.endgame_rule;
  const LoneKing lk = lone_king(p);
  int limit = -1;
  auto take = [&](int x) { limit = limit < 0 ? x : std::min(limit, x); };
  if constexpr (rule == EndgameRule::Fmjd64) {
    if (lk.found && lk.strong_kings > 0) {
      if (lk.strong_pieces <= 2) take(10);                                         // 7.2.8
      if (lk.strong_pieces >= 3 && lk.strong_kings == lk.strong_pieces) take(30);  // 7.2.4
    }
    if (p.kings(Side::White) && p.kings(Side::Black)) {  // 7.2.6
      const int n = popcount(p.occupied());
      if (n == 4 || n == 5) take(60);
      if (n == 6 || n == 7) take(120);
    }
  } else if constexpr (rule == EndgameRule::Pool || rule == EndgameRule::Spanish) {
    if (lk.found && lk.strong_pieces >= 3 && lk.strong_kings == lk.strong_pieces)
      take(rule == EndgameRule::Pool ? 26 : 24);
  } else if constexpr (rule == EndgameRule::Frisian) {
    if (!p.men(Side::White) && !p.men(Side::Black)) {
      const int n = popcount(p.occupied());
      if (n == 3 && lk.found) take(14);
      if (n == 2) take(4);
    }
  }
  return limit;
}

// FMJD-64 7.2.7: three pieces with a king against a lone king on the long diagonal.
template <class R>
bool fmjd64_long_diagonal(const Position& p) {
  const LoneKing lk = lone_king(p);
  return lk.found && lk.strong_pieces == 3 && lk.strong_kings > 0 &&
         (p.pieces(lk.weak) & R::Geometry::kLongDiagonal);
}

template <class R>
bool lone_king_holds_long_diagonal(const Position& p) {
  constexpr Bitboard diag = R::Geometry::kLongDiagonal;
  for (Side weak : {Side::White, Side::Black}) {
    if (popcount(p.pieces(weak)) != 1 || !p.kings(weak)) continue;
    return (p.kings(weak) & diag) && !(p.pieces(opponent(weak)) & diag);
  }
  return false;
}

}  // namespace draw_detail

// Counters for a game that starts (or is set up) at `start`.
template <class R>
DrawState initial_draw_state(const Position& start) {
  DrawState s;
  if constexpr (R::kDraws.endgame_limits) {
    s.endgame_class = draw_detail::endgame_class(start);
    if (s.endgame_class == draw_detail::kSixteen)
      s.endgame_left = draw_detail::lone_king_holds_long_diagonal<R>(start) ? 10 : 32;
    else if (s.endgame_class == draw_detail::kFive)
      s.endgame_left = 10;
  }
  if constexpr (R::kDraws.endgame_rule != EndgameRule::None) {
    s.endgame_left = static_cast<std::int16_t>(draw_detail::material_limit<R>(start));
    if constexpr (R::kDraws.endgame_rule == EndgameRule::Fmjd64)
      if (draw_detail::fmjd64_long_diagonal<R>(start))
        s.endgame_left = s.endgame_left < 0 ? 10 : std::min<std::int16_t>(s.endgame_left, 10);
  }
  return s;
}

// Counters after `m` (played from `before`, giving `after`).
template <class R>
DrawState advance_draw_state(const DrawState& s, const Position& before, const Move& m,
                             const Position& after) {
  DrawState n;
  n.plies = draw_detail::saturated_next(s.plies);
  const bool man_moved = !has(before.kings(), m.from);
  n.reversible = (man_moved || m.captured) ? 0 : draw_detail::saturated_next(s.reversible);
  if constexpr (R::kDraws.endgame_limits) {
    using namespace draw_detail;
    // Material changes only by a capture or a crowning.
    n.endgame_class = (m.captured || m.crowns) ? endgame_class(after) : s.endgame_class;
    if (n.endgame_class == kNoLimit) {
      n.endgame_left = -1;
    } else if (s.endgame_left < 0) {
      n.endgame_left = n.endgame_class == kSixteen ? 32 : 10;
    } else {
      n.endgame_left = static_cast<std::int16_t>(s.endgame_left - 1);
      if (n.endgame_class == kFive && s.endgame_class == kSixteen)
        n.endgame_left = std::min<std::int16_t>(n.endgame_left, 10);
    }
    if (n.endgame_class == kSixteen && lone_king_holds_long_diagonal<R>(after))
      n.endgame_left = std::min<std::int16_t>(n.endgame_left, 10);
  }
  if constexpr (R::kDraws.endgame_rule != EndgameRule::None) {
    using namespace draw_detail;
    if (m.captured || m.crowns)
      n.endgame_left = static_cast<std::int16_t>(material_limit<R>(after));
    else
      n.endgame_left =
          s.endgame_left < 0 ? s.endgame_left : static_cast<std::int16_t>(s.endgame_left - 1);
    if constexpr (R::kDraws.endgame_rule == EndgameRule::Fmjd64)
      if (fmjd64_long_diagonal<R>(after))
        n.endgame_left = n.endgame_left < 0 ? 10 : std::min<std::int16_t>(n.endgame_left, 10);
  }
  return n;
}

// The draw rule, other than repetition, that holds in a position with counters s.
template <class R>
ResultReason counter_draw(const DrawState& s, const Position& pos, const DrawOptions& opt) {
  constexpr DrawLimits lim = R::kDraws;
  if (lim.reversible_plies && s.reversible >= lim.reversible_plies)
    return ResultReason::ReversibleMoves;
  if ((lim.endgame_limits || lim.endgame_rule != EndgameRule::None) && s.endgame_left == 0)
    return ResultReason::EndgameLimit;
  if (lim.endgame_rule == EndgameRule::Turkish && popcount(pos.pieces(Side::White)) == 1 &&
      popcount(pos.pieces(Side::Black)) == 1)
    return ResultReason::OnePieceEach;
  if (lim.total_plies && opt.move_cap && s.plies >= lim.total_plies) return ResultReason::MoveCap;
  if (opt.one_king_each_draw && !pos.men(Side::White) && !pos.men(Side::Black) &&
      popcount(pos.kings(Side::White)) == 1 && popcount(pos.kings(Side::Black)) == 1)
    return ResultReason::OneKingEach;
  return ResultReason::None;
}

// Plies left before a counter rule draws the game; -1 when no rule limits it.
template <class R>
int plies_to_counter_draw(const DrawState& s, const DrawOptions& opt) {
  constexpr DrawLimits lim = R::kDraws;
  int left = -1;
  auto take = [&](int x) { left = left < 0 ? x : std::min(left, x); };
  if (lim.reversible_plies) take(std::max(0, lim.reversible_plies - s.reversible));
  if ((lim.endgame_limits || lim.endgame_rule != EndgameRule::None) && s.endgame_left >= 0)
    take(s.endgame_left);
  if (lim.total_plies && opt.move_cap) take(std::max(0, lim.total_plies - s.plies));
  return left;
}

}  // namespace tsuru
