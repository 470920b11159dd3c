// The positions the compact database files leave out: those with a capture pending for the side
// to move (format.hpp, version 2), and in play files (`tsuru egdb compact --threats`) also those
// where the side not to move has one, a threat. The search never probes a capture position (it
// resolves a capture by searching it), the reader answers them through their captures
// (Database::probe), and the generator, which needs every value of the slices it builds on, puts
// them back when it loads a file (restore_captures). The probes answer the threats play files
// leave out through their moves (one ply); the generator refuses play files.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/rules/movegen.hpp"
#include "engine/rules/movegen_lines.hpp"
#include "eval/egdb/for_indices.hpp"
#include "eval/egdb/format.hpp"
#include "eval/egdb/index.hpp"

namespace tsuru::egdb {

// Whether the side not to move has a capture in pos, whose side to move has none but has a move
// (moves: pos's legal moves): a threat (a side with no move has lost, which every file keeps).
template <class R>
bool is_threat(const Position& pos, const MoveList& moves) {
  return !moves.empty() && !moves[0].is_capture() && MoveGen<R>::has_capture(pos.passed());
}

// Whether play files leave pos out as a threat: a threat none of whose moves leads to another.
// Its value then comes back from its children in one step (each is stored, or has a capture
// that leads to fewer pieces), so the exact probe never chases threats in a row (in endings of
// kings alone they can run on for many moves).
template <class R>
bool is_omitted_threat(const Position& pos, const MoveList& moves) {
  if (!is_threat<R>(pos, moves)) return false;
  for (const Move& m : moves) {
    const Position child = pos.after<false>(m);
    MoveList replies;
    MoveGen<R>::generate(child, replies);
    if (is_threat<R>(child, replies)) return false;
  }
  return true;
}

// A bit for each index of slice s (bit i % 64 of word i / 64), set where the position has a
// capture pending, or (with threats) is a threat play files leave out (never for invalid indices).
template <class R>
std::vector<std::uint64_t> omit_mask(const Layout& layout, const Slice& s, int threads,
                                     bool threats) {
  const std::uint64_t n = slice_size(layout, s);
  std::vector<std::uint64_t> mask((n + 63) / 64, 0);
  const SliceUnranker unrank(layout, s);
  for_indices(threads, mask.size(), [&](std::uint64_t w) {
    std::uint64_t bits = 0;
    for (std::uint64_t i = 64 * w; i < std::min(n, 64 * w + 64); ++i) {
      const auto placement = unrank(i);
      if (!placement) continue;
      const Position pos = board_of(layout, *placement);
      MoveList moves;
      MoveGen<R>::generate(pos, moves);
      if ((!moves.empty() && moves[0].is_capture()) ||
          (threats && is_omitted_threat<R>(pos, moves)))
        bits |= std::uint64_t{1} << (i % 64);
    }
    mask[w] = bits;
  });
  return mask;
}

// The positions with a capture pending (what `tsuru egdb build` leaves out).
template <class R>
std::vector<std::uint64_t> capture_mask(const Layout& layout, const Slice& s, int threads) {
  return omit_mask<R>(layout, s, threads, false);
}

// Puts back the values of slice s's capture positions (decoded from a file that omits them)
// by set(index, value), from the values of the slices the captures lead to: child(position)
// gives a child's value from its side to move's view (those slices restored already: they
// have fewer pieces). with_distance: keep the distances (a file without them decodes to
// distance 0). set is called from several threads, never twice for an index.
template <class R, class Child, class Set>
void restore_captures(const Layout& layout, const Slice& s, bool with_distance, int threads,
                      const Child& child, const Set& set) {
  const SliceUnranker unrank(layout, s);
  for_indices(threads, slice_size(layout, s), [&](std::uint64_t i) {
    const auto placement = unrank(i);
    if (!placement) return;
    const Position pos = board_of(layout, *placement);
    if (!MoveGen<R>::has_capture(pos)) return;  // most positions: no list to make
    MoveList moves;
    MoveGen<R>::generate(pos, moves);  // captures only (they are compulsory)
    int fastest = -1, slowest = 0;
    bool all_won = true;
    for (const Move& m : moves) {
      const Value v = child(pos.after<false>(m));
      if (is_loss(v)) {
        fastest = fastest < 0 ? distance_of(v) : std::min(fastest, distance_of(v));
        all_won = false;
      } else if (is_win(v)) {
        slowest = std::max(slowest, distance_of(v));
      } else {
        all_won = false;
      }
    }
    Value v = kUnknown;
    if (fastest >= 0)
      v = static_cast<Value>(kWinFlag | (with_distance ? fastest + 1 : 0));
    else if (all_won)
      v = static_cast<Value>(kLossFlag | (with_distance ? slowest + 1 : 0));
    set(i, v);
  });
}

}  // namespace tsuru::egdb
