// Move generation for the rule sets whose pieces are not confined to the four diagonals of the
// fast generator (movegen.hpp), templated on a rules trait with a line geometry
// (geometry_lines.hpp): Frisian (captures along eight lines), Turkish (orthogonal moves on all 64
// squares) and Thai (kings land right behind the captured piece, which leaves at once).
//
// The static interface is MoveGen's (the entry points come from MoveGenEntryPoints), so search,
// perft and evaluation use it unchanged: generate, generate_captures, generate_quiet,
// has_capture, count, count_quiet, forward, king_moves and CaptureSearch. The trait adds:
//   Lines                      the line geometry;
//   kManMoves[side], kManCaptures[side], kKingMoves, kKingCaptures   direction sets (bit masks);
//   kKingLandsBehind           a king lands on the square right behind the captured piece (Thai);
//   kRemoveAtOnce              captured pieces leave the board at once (Thai, Turkish): their
//                              squares may be crossed again; otherwise they block until the end;
//   kKingMayReverse            a king may turn back 180 degrees between two captures (Thai);
//                              Turkish forbids it, and where captured pieces stay it is moot;
//   kKingMoveLimit             Frisian: the king that made this many quiet moves in a row may not
//                              make another (Position::king_run holds the count).
//
// Capture search follows the fast generator: depth first from each piece; a king that can go on
// capturing from some landing square must; a straight continuation is explored once, from the
// farthest landing square, so every capture path is produced once. A king whose depth-first
// search grows past CaptureFrontier::kAfterStates states (contrived positions only) is searched
// again layer by layer, every state of one number of captured pieces at a time, which walks the
// same states without waiting on each memo look-up (capture_frontier.hpp); the legal moves are
// the same, in another order.
#pragma once

#include "engine/rules/capture_frontier.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/rule_sets.hpp"

namespace tsuru {

template <class R>
class LineMoveGen : public MoveGenEntryPoints<R, LineMoveGen<R>> {
  using G = typename R::Geometry;
  using L = typename R::Lines;
  static_assert(R::kLineMoves);

  // Calls f(d) for each direction d in the set.
  template <class F>
  static void each(unsigned set, F&& f) {
    for (unsigned m = set; m; m &= m - 1) f(std::countr_zero(m));
  }

 public:
  static constexpr auto forward(Side s) { return R::forward(s); }

  static Bitboard empty_squares(const Position& pos) { return G::kValid & ~pos.occupied(); }

  static constexpr unsigned man_moves(Side s) {
    return R::kManMoves[static_cast<std::size_t>(index(s))];
  }
  static constexpr unsigned man_captures(Side s) {
    return R::kManCaptures[static_cast<std::size_t>(index(s))];
  }

  // The squares a king on `from` slides to in direction d.
  static Bitboard slide(int d, Square from, Bitboard empty) {
    const Bitboard ray = L::ray(d, from);
    const Bitboard blockers = ray & ~empty;
    return blockers ? ray & ~L::ray(d, L::nearest(blockers, d)) & empty : ray;
  }

  // Squares a king on `from` can move to without capturing.
  static Bitboard king_moves(Square from, Bitboard empty) {
    Bitboard targets = 0;
    each(R::kKingMoves, [&](int d) { targets |= slide(d, from, empty); });
    return targets;
  }

  // Frisian: the king of the side to move that may not make another quiet move, if any.
  static Bitboard barred_king(const Position& pos) {
    if constexpr (R::kKingMoveLimit > 0) {
      const KingRun run = pos.king_run(pos.turn());
      if (run.count >= R::kKingMoveLimit) return bit(run.square);
    }
    return 0;
  }

  // The piece a king on `from` captures in direction d, or -1. `blockers` are the squares that
  // stop a slide, `targets` the capturable pieces.
  static Square king_victim(Square from, int d, Bitboard blockers, Bitboard targets,
                            Bitboard empty) {
    const Bitboard on_ray = L::ray(d, from) & blockers;
    if (!on_ray) return -1;
    const Square v = L::nearest(on_ray, d);
    if (!has(targets, v) || !(L::step(bit(v), d) & empty)) return -1;
    return v;
  }

  // Men of the side to move that can capture.
  static Bitboard capturing_men(const Position& pos) {
    const Side us = pos.turn();
    const Bitboard men = pos.men(us), opp = pos.pieces(opponent(us)), empty = empty_squares(pos);
    Bitboard b = 0;
    each(man_captures(us), [&](int d) { b |= L::jumpers(men, d, opp, empty); });
    return b;
  }

  static bool has_capture(const Position& pos) {
    if (capturing_men(pos)) return true;
    const Side us = pos.turn();
    const Bitboard opp = pos.pieces(opponent(us)), empty = empty_squares(pos);
    const Bitboard blockers = pos.occupied();
    for (Square k : squares_of(pos.kings(us))) {
      bool found = false;
      each(R::kKingCaptures,
           [&](int d) { found = found || king_victim(k, d, blockers, opp, empty | bit(k)) >= 0; });
      if (found) return true;
    }
    return false;
  }

  template <class List>
  static void generate_quiet(const Position& pos, List& out) {
    const Side us = pos.turn();
    const Bitboard empty = empty_squares(pos), promotion = G::promotion_row(us);
    const Bitboard men = pos.men(us);
    each(man_moves(us), [&](int d) {
      const int s = L::shift_of(d);
      out.push_each(L::step(men, d) & empty,
                    [&](Square to) { return Move(to - s, to, 0, has(promotion, to)); });
    });
    for (Square k : squares_of(pos.kings(us) & ~barred_king(pos)))
      out.push_each(king_moves(k, empty), [&](Square to) { return Move(k, to, 0, false); });
  }

  static std::size_t count_quiet(const Position& pos) {
    const Side us = pos.turn();
    const Bitboard empty = empty_squares(pos), men = pos.men(us);
    int n = 0;
    each(man_moves(us), [&](int d) { n += popcount(L::step(men, d) & empty); });
    for (Square k : squares_of(pos.kings(us) & ~barred_king(pos)))
      n += popcount(king_moves(k, empty));
    return static_cast<std::size_t>(n);
  }

  // Enumerates every capture sequence of the side to move and hands each to sink.add(...), as
  // MoveGen::CaptureSearch does.
  template <class Sink, bool WithPath = false>
  class CaptureSearch {
   public:
    CaptureSearch(const Position& pos, Sink& sink)
        : sink_(sink),
          us_(pos.turn()),
          opp_(pos.pieces(opponent(pos.turn()))),
          kings_(pos.kings()),
          promotion_(G::promotion_row(pos.turn())),
          base_empty_(empty_squares(pos)) {}

    void run(const Position& pos) {
      for (Square m : squares_of(capturing_men(pos))) {
        begin(m, false);
        man_from(m, 0, -1);
      }
      for (Square k : squares_of(pos.kings(us_))) {
        begin(k, true);
        king_captures(k);
      }
    }

   private:
    void begin(Square from, bool with_king) {
      from_ = from;
      memo_.restart();
      with_king_ = with_king;
      start_empty_ = base_empty_ | bit(from);
      length_ = 0;
    }

    // The empty squares and the squares that stop a slide, once `captured` have been taken.
    Bitboard empty(Bitboard captured) const {
      return R::kRemoveAtOnce ? start_empty_ | captured : start_empty_;
    }
    Bitboard blockers(Bitboard captured) const { return G::kValid & ~empty(captured); }

    void push_path(Square sq) {
      if constexpr (WithPath) {
        path_[static_cast<std::size_t>(length_++)] = sq;
        if constexpr (!Memo::kEnabled) movegen_detail::poll_path_step();
      }
    }
    void pop_path() {
      if constexpr (WithPath) --length_;
    }
    void emit(Square to, Bitboard captured, bool crowns) {
      int rank = 0;
      if constexpr (kRankedCaptures<R>)
        rank = capture_rank<R>(popcount(captured), with_king_, popcount(captured & kings_), 0);
      sink_.add(from_, to, captured, crowns, CaptureStep{path_.data(), length_, rank});
    }

    // A man on sq, having captured `captured`, its last capture in direction `last`.
    void man_from(Square sq, Bitboard captured, int last) {
      if (memo_.seen(captured, Memo::tag(0, sq, last))) return;
      bool extended = false;
      const Bitboard targets = opp_ & ~captured, free = empty(captured);
      each(man_captures(us_), [&](int d) {
        if (last >= 0 && d == L::reverse(last)) return;  // no 180-degree turn
        const Bitboard mid = L::step(bit(sq), d) & targets;
        if (!mid) return;
        const Bitboard land = L::step(mid, d) & free;
        if (!land) return;
        extended = true;
        push_path(lsb(land));
        man_from(lsb(land), captured | mid, d);
        pop_path();
      });
      // Crowned only where the move ends (every line rule set; Thai men cannot go on anyway).
      if (!extended && captured) emit(sq, captured, has(promotion_, sq));
    }

    void king_depth_first(Square k) {
      each(R::kKingCaptures, [&](int d) {
        const Square v = king_victim(k, d, blockers(0), opp_, empty(0));
        if (v >= 0) king_jump(v, d, bit(v));
      });
    }

    // The captures of the king on k: depth first, and layer by layer once that grows large.
    // Moves handed to the sink before the switch come again after it; the sinks that merge
    // duplicates merge them (three captured pieces or more), and the shorter ones lose to the
    // switched search's captures of at least CaptureMemo::kMinCaptured pieces under the two
    // priorities that use it.
    void king_captures(Square k) {
      if constexpr (kFrontier) {
        memo_.frontier_after(movegen_detail::CaptureFrontier::kAfterStates);
        bool needed = false;
        try {
          king_depth_first(k);
        } catch (const movegen_detail::FrontierNeeded&) {
          needed = true;
        }
        memo_.frontier_after(0);
        if (!needed || king_frontier(k)) return;
        // Too large a layer for the frontier: depth first after all, its memo lossy but bounded.
        memo_.restart();
      }
      king_depth_first(k);
    }

    // The king's captures layer by layer (capture_frontier.hpp); false, with nothing handed to
    // the sink, when a layer outgrows the frontier's bound.
    bool king_frontier(Square k) {
      auto& f = movegen_detail::CaptureFrontier::local();
      struct Release {
        movegen_detail::CaptureFrontier& f;
        ~Release() { f.release(); }
      } release{f};
      f.start();
      auto pack = [](Square v, int d) { return static_cast<std::uint32_t>(v | d << 8); };
      each(R::kKingCaptures, [&](int d) {
        const Square v = king_victim(k, d, blockers(0), opp_, empty(0));
        if (v >= 0) f.seed(bit(v), pack(v, d));
      });
      std::uint32_t walked = 0;
      while (!f.layer().empty()) {
        for (const auto& state : f.layer()) {
          if ((++walked & (kPollEvery - 1)) == 0 && movegen_detail::capture_guard &&
              movegen_detail::capture_guard->expired())
            throw CaptureSearchAborted{};
          const Bitboard captured = state.captured;
          const auto v = static_cast<Square>(state.tag & 0xFF);
          const auto d = static_cast<int>(state.tag >> 8);
          const Bitboard stop_at = blockers(captured);
          const Bitboard landings = king_landings(v, d, stop_at);
          const Bitboard targets = opp_ & ~captured, free = empty(captured);
          bool extended = false;
          const Square ahead = king_victim(L::farthest(landings, d), d, stop_at, targets, free);
          if (ahead >= 0) {
            extended = true;
            f.add(captured | bit(ahead), pack(ahead, d));
          }
          for (Square l : squares_of(landings)) {
            each(R::kKingCaptures, [&](int p) {
              if (p == d || (p == L::reverse(d) && !R::kKingMayReverse)) return;
              const Square w = king_victim(l, p, stop_at, targets, free);
              if (w < 0) return;
              extended = true;
              f.add(captured | bit(w), pack(w, p));
            });
          }
          if (!extended)
            for (Square l : squares_of(landings)) f.leaf(captured, l, rank_of(captured));
        }
        if (!f.advance()) return false;
      }
      for (const auto& leaf : f.best_leaves()) emit(leaf.to, leaf.captured, false);
      return true;
    }

    // The rank the sinks compare captures by (capture_rank; the majority rule counts pieces).
    int rank_of(Bitboard captured) const {
      if constexpr (R::kPriority == CapturePriority::Majority)
        return popcount(captured);
      else
        return capture_rank<R>(popcount(captured), with_king_, popcount(captured & kings_), 0);
    }

    // Where a king that has just captured the piece on v, moving in direction d, may land.
    static Bitboard king_landings(Square v, int d, Bitboard stop_at) {
      const Bitboard ray = L::ray(d, v);
      const Bitboard stop = ray & stop_at;
      Bitboard landings = stop ? ray & ~L::ray(d, L::nearest(stop, d)) & ~stop : ray;
      if constexpr (R::kKingLandsBehind) landings &= L::step(bit(v), d);
      // Never empty: king_victim checked the square right behind v.
      return landings;
    }

    // A king has just captured the piece on v moving in direction d.
    void king_jump(Square v, int d, Bitboard captured) {
      if (memo_.seen(captured, Memo::tag(1, v, d))) return;
      const Bitboard stop_at = blockers(captured);
      const Bitboard landings = king_landings(v, d, stop_at);
      const Bitboard targets = opp_ & ~captured, free = empty(captured);
      bool extended = false;
      // Straight on, from the farthest landing square (covers every landing square on the line).
      const Square ahead = king_victim(L::farthest(landings, d), d, stop_at, targets, free);
      if (ahead >= 0) {
        extended = true;
        push_path(L::nearest(landings, d));  // one landing per captured piece
        king_jump(ahead, d, captured | bit(ahead));
        pop_path();
      }
      // Turning, from each landing square.
      for (Square l : squares_of(landings)) {
        each(R::kKingCaptures, [&](int p) {
          if (p == d || (p == L::reverse(d) && !R::kKingMayReverse)) return;
          const Square w = king_victim(l, p, stop_at, targets, free);
          if (w < 0) return;
          extended = true;
          push_path(l);
          king_jump(w, p, captured | bit(w));
          pop_path();
        });
      }
      if (!extended) {
        for (Square l : squares_of(landings)) {
          push_path(l);
          emit(l, captured, false);
          pop_path();
        }
      }
    }

    Sink& sink_;
    Side us_;
    Bitboard opp_, kings_, promotion_, base_empty_;
    Bitboard start_empty_ = 0;
    Square from_ = 0;
    bool with_king_ = false;
    int length_ = 0;
    std::array<Square, WithPath ? 64 : 1> path_{};
    // States explored once per piece (CaptureMemo): (square, captured set, last direction)
    // decides every continuation, whatever the order of the earlier captures.
    using Memo = movegen_detail::MemoHandle<kMergesDuplicates<Sink>>;
    Memo memo_;
    // Kings may go over to the frontier search: the sink merges duplicates and wants no paths,
    // and the priority ranks a capture of CaptureMemo::kMinCaptured pieces above any of two
    // (see king_captures). Thai (free choice) kings never walk that many states.
    static constexpr bool kFrontier = Memo::kEnabled && !WithPath &&
                                      (R::kPriority == CapturePriority::Majority ||
                                       R::kPriority == CapturePriority::FrisianValue);
    static constexpr std::uint32_t kPollEvery = 4096;
  };
};

template <>
class MoveGen<ThaiRules> : public LineMoveGen<ThaiRules> {};
template <>
class MoveGen<FrisianRules> : public LineMoveGen<FrisianRules> {};
template <>
class MoveGen<TurkishRules> : public LineMoveGen<TurkishRules> {};

}  // namespace tsuru
