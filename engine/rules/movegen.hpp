// Legal move generation for the diagonal rule sets, templated on a rules trait (rules.hpp).
//
// Captures are searched depth-first from each piece that can capture. During a capture the
// moving piece has left its square (which counts as empty), captured pieces stay on the board
// until the move ends: they block further slides and cannot be jumped twice ("Turkish strike").
// Flying kings land on any empty square beyond the captured piece, but when a capture can
// continue from some of those squares the king must use one of them; a continuation in the
// same direction is explored once (from the farthest landing square), so landing squares on
// one line never produce the same move twice.
//
// The rule sets whose pieces move along other lines (Frisian, Turkish) or whose kings capture
// otherwise (Thai) have their own generator with the same static interface: see
// movegen_lines.hpp, which specialises MoveGen for them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "engine/rules/move.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/rules.hpp"

namespace tsuru {

// Receives each complete capture sequence. `path` holds the squares where the piece changed
// direction or stopped, ending with `to`. `rank` orders captures under the rule sets with a
// ranked priority (see capture_rank); only the highest rank is legal.
struct CaptureStep {
  const Square* path;
  int length;
  int rank = 0;
};

// Whether a rule set ranks captures by more than their number of pieces.
template <class R>
constexpr bool kRankedCaptures = (R::kPriority != CapturePriority::FreeChoice) &&
                                 (R::kPriority != CapturePriority::Majority);

// The rank of a capture under R's priority; higher is better.
//   with_king: the capturing piece is a king; kings: captured kings among `captured`;
//   king_order: Italian 6.9, bit (15 - i) set when the i-th captured piece is a king.
template <class R>
constexpr int capture_rank(int pieces, bool with_king, int kings, int king_order) {
  switch (R::kPriority) {
    case CapturePriority::FreeChoice:
      return 0;
    case CapturePriority::Majority:
      return pieces;
    case CapturePriority::KingFirst:
      return with_king ? 1 : 0;
    case CapturePriority::MajorityThenKings:
      return pieces * 64 + kings;
    case CapturePriority::Italian:
      return (pieces << 24) | (with_king ? 1 << 23 : 0) | (kings << 17) | king_order;
    case CapturePriority::FrisianValue:
      // dctl: (captured + captured kings) * N - captured kings with N above any piece count,
      // i.e. a man is worth N and a king 2N - 1; equal values: with a king first.
      return ((pieces + kings) * 64 - kings) * 2 + (with_king ? 1 : 0);
  }
  return 0;
}

// Collects captures into a MoveList, applying the capture priority and, unless
// KeepDuplicates, merging sequences with the same from, to and captured set.
template <class R, bool KeepDuplicates = false, class List = MoveList>
struct CaptureListSink {
  static constexpr bool kMergesDuplicates = !KeepDuplicates;
  List& out;
  int best = 0;

  void add(Square from, Square to, Bitboard captured, bool crowns, CaptureStep step) {
    const int n = popcount(captured);
    if constexpr (R::kPriority == CapturePriority::Majority) {
      if (n < best) return;
      if (n > best) {
        out.clear();
        best = n;
      }
    } else if constexpr (kRankedCaptures<R>) {
      if (step.rank < best) return;
      if (step.rank > best) {
        out.clear();
        best = step.rank;
      }
    }
    const Move m(from, to, captured, crowns);
    // Two different paths need at least three captured pieces to share from, to and set.
    if (!KeepDuplicates && n >= 3 && out.contains(m)) return;
    out.push(m);
  }
};

// Counts captures without listing them: only sequences of three or more pieces can share
// from, to and captured set with another, so only those are kept for the duplicate check.
template <class R, bool KeepDuplicates = false>
struct CaptureCountSink {
  static constexpr bool kMergesDuplicates = !KeepDuplicates;
  std::size_t count = 0;
  int best = 0;
  FixedMoveList long_ones;  // when it overflows, count() lists the moves instead

  void add(Square from, Square to, Bitboard captured, bool crowns, CaptureStep step) {
    const int n = popcount(captured);
    if constexpr (R::kPriority == CapturePriority::Majority) {
      if (n < best) return;
      if (n > best) {
        count = 0;
        long_ones.clear();
        best = n;
      }
    } else if constexpr (kRankedCaptures<R>) {
      if (step.rank < best) return;
      if (step.rank > best) {
        count = 0;
        long_ones.clear();
        best = step.rank;
      }
    }
    if (!KeepDuplicates && n >= 3) {
      const Move m(from, to, captured, crowns);
      if (long_ones.contains(m)) return;
      long_ones.push(m);
    }
    ++count;
  }
};

// Whether a sink merges sequences with the same from, to and captured set (sinks say so with
// `static constexpr bool kMergesDuplicates = true`); a capture search may then skip a state it
// has already explored, since all it could add are the same moves again.
template <class Sink>
constexpr bool kMergesDuplicates = [] {
  if constexpr (requires { Sink::kMergesDuplicates; })
    return Sink::kMergesDuplicates;
  else
    return false;
}();

// A deadline for generation: a capture search of a contrived position can still walk millions
// of states (a Frisian king among 28 pieces: about 7 million different captured sets), seconds
// of work. A search that must keep a deadline installs a guard on its thread (ScopedCaptureGuard);
// a capture search polls it every few thousand states and, once expired() says so, throws
// CaptureSearchAborted out of the generation, whose result is then to be discarded. Ordinary
// positions never get that far: the poll sits on the path that records states of four or more
// captured pieces.
class CaptureGuard {
 public:
  virtual bool expired() = 0;

 protected:
  ~CaptureGuard() = default;
};

struct CaptureSearchAborted {};

namespace movegen_detail {
inline thread_local CaptureGuard* capture_guard = nullptr;

// Thrown out of a depth-first king search that has recorded more states than its handle allows
// (MemoHandle::frontier_after): the line generator catches it and searches the king's captures
// layer by layer instead (capture_frontier.hpp).
struct FrontierNeeded {};

// Path searches that want every path skip no state (no memo), so they poll the guard on their
// own: once every kPathPollEvery steps, a counter per thread.
inline thread_local std::uint32_t path_steps = 0;
inline constexpr std::uint32_t kPathPollEvery = 4096;
inline void poll_path_step() {
  if ((++path_steps & (kPathPollEvery - 1)) == 0 && capture_guard && capture_guard->expired())
    throw CaptureSearchAborted{};
}
}  // namespace movegen_detail

// Installs a guard on this thread for its lifetime (the previous one is restored after).
class ScopedCaptureGuard {
 public:
  explicit ScopedCaptureGuard(CaptureGuard* g) : saved_(movegen_detail::capture_guard) {
    movegen_detail::capture_guard = g;
  }
  ~ScopedCaptureGuard() { movegen_detail::capture_guard = saved_; }
  ScopedCaptureGuard(const ScopedCaptureGuard&) = delete;
  ScopedCaptureGuard& operator=(const ScopedCaptureGuard&) = delete;

 private:
  CaptureGuard* saved_;
};

namespace movegen_detail {

// The capture-search states already explored from the current piece: the captured set, and a
// tag for the rest of the state (square, direction, kind of step). Every capture order of the
// same pieces that ends in the same state has the same continuations, so exploring it again
// can only repeat moves; without this, a king among many pieces walks every order of the same
// captures (a Frisian king among 28 pieces: 186 million sequences, about 10 s; with it, 2.2
// million). The number of distinct states can still grow exponentially, hence CaptureGuard.
//
// A lossy cache, like a transposition table: a state that was overwritten is explored again,
// which costs time but never a move; a state is reported seen only on an exact match. One table
// per thread, grown while a search fills it, and reset per piece by a stamp.
class CaptureMemo {
 public:
  // The captured-set size from which states are recorded: two different orders need at least
  // three captured pieces to meet again, and short sequences are too cheap to be worth a probe.
  static constexpr int kMinCaptured = 4;

  static CaptureMemo& local() {
    thread_local CaptureMemo memo;
    return memo;
  }

  // A new search (one piece): every recorded state is forgotten.
  std::uint32_t next_stamp() {
    if (++stamp_ == 0) {
      std::fill(table_.begin(), table_.end(), Entry{});
      stamp_ = 1;
    }
    filled_ = 0;
    states_ = 0;
    return stamp_;
  }

  // The states recorded under the current stamp.
  std::size_t states() const { return states_; }

  // Whether (captured, tag) was recorded under this stamp; records it if not.
  bool seen(Bitboard captured, std::uint32_t tag) {
    if (table_.empty()) table_.resize(kStartSize);
    const std::uint64_t h = (captured ^ (std::uint64_t{tag} << 40)) * 0x9E3779B97F4A7C15ULL;
    Entry& e = table_[static_cast<std::size_t>(h >> 40) & (table_.size() - 1)];
    if (e.stamp == stamp_ && e.captured == captured && e.tag == tag) return true;
    e = Entry{captured, stamp_, tag};
    ++states_;
    // The deadline, about once a millisecond of a long search.
    if ((++recorded_ & (kPollEvery - 1)) == 0 && capture_guard && capture_guard->expired())
      throw CaptureSearchAborted{};
    // Grown (emptied) when half full, up to kMaxSize entries (64 MiB, reached only in contrived
    // positions: a Frisian king among 28 pieces walks about 7 million states).
    if (++filled_ > table_.size() / 2 && table_.size() < kMaxSize) {
      table_.assign(table_.size() * 4, Entry{});
      filled_ = 0;
    }
    return false;
  }

 private:
  struct Entry {
    Bitboard captured = 0;
    std::uint32_t stamp = 0;
    std::uint32_t tag = 0;
  };
  static constexpr std::size_t kStartSize = std::size_t{1} << 12;
  static constexpr std::size_t kMaxSize = std::size_t{1} << 22;
  static constexpr std::uint32_t kPollEvery = 4096;

  std::vector<Entry> table_;
  std::uint32_t stamp_ = 0;
  std::size_t filled_ = 0;
  std::size_t states_ = 0;
  std::uint32_t recorded_ = 0;
};

// A capture search's handle on the memo: enabled for sinks that merge duplicates and searches
// that report no path; the thread's table is looked up, and stamped, only once a sequence
// reaches CaptureMemo::kMinCaptured pieces.
template <bool Enabled>
class MemoHandle {
 public:
  static constexpr bool kEnabled = Enabled;
  // A new piece starts capturing.
  void restart() {
    if constexpr (Enabled) stamp_ = 0;
  }
  // Whether the state (captured, tag) was explored before from this piece (records it if not).
  [[gnu::always_inline]] bool seen(Bitboard captured, std::uint32_t tag) {
    if constexpr (Enabled) {
      if (popcount(captured) < CaptureMemo::kMinCaptured) [[likely]]
        return false;
      return record(captured, tag);
    } else {
      (void)captured;
      (void)tag;
      return false;
    }
  }
  [[gnu::noinline]] bool record(Bitboard captured, std::uint32_t tag) {
    if (!memo_) memo_ = &CaptureMemo::local();
    if (stamp_ == 0) stamp_ = memo_->next_stamp();
    const bool seen = memo_->seen(captured, tag);
    if (frontier_after_ && !seen && memo_->states() > frontier_after_) throw FrontierNeeded{};
    return seen;
  }
  // From now on, recording more than `states` states for the piece throws FrontierNeeded
  // (0: never).
  void frontier_after(std::size_t states) { frontier_after_ = states; }
  // A state's tag: its kind of step, square and direction.
  static constexpr std::uint32_t tag(int kind, Square sq, int direction) {
    return static_cast<std::uint32_t>(kind << 16 | (direction + 1) << 8 | sq);
  }

 private:
  CaptureMemo* memo_ = nullptr;
  std::uint32_t stamp_ = 0;
  std::size_t frontier_after_ = 0;
};

}  // namespace movegen_detail

// The entry points every generator offers, built on its own has_capture, generate_quiet,
// count_quiet and CaptureSearch: Gen is MoveGen<R> or LineMoveGen<R>, which derive from this.
template <class R, class Gen>
struct MoveGenEntryPoints {
  template <bool KeepDuplicates, class List>
  using ListSink = CaptureListSink<R, KeepDuplicates, List>;
  template <bool KeepDuplicates = false>
  using CountSink = CaptureCountSink<R, KeepDuplicates>;

  // List: MoveList, or FixedMoveList (check overflowed() after).
  template <bool KeepDuplicates = false, class List>
  static void generate_captures(const Position& pos, List& out) {
    ListSink<KeepDuplicates, List> sink{out};
    typename Gen::template CaptureSearch<ListSink<KeepDuplicates, List>> search(pos, sink);
    search.run(pos);
  }

  // All legal moves of the side to move.
  template <bool KeepDuplicates = false, class List>
  static void generate(const Position& pos, List& out) {
    out.clear();
    if (Gen::has_capture(pos))
      generate_captures<KeepDuplicates>(pos, out);
    else
      Gen::generate_quiet(pos, out);
  }

  // The number of legal moves (perft's bulk count at the last ply).
  template <bool KeepDuplicates = false>
  static std::size_t count(const Position& pos) {
    if (!Gen::has_capture(pos)) return Gen::count_quiet(pos);  // (0 when the game is over)
    CountSink<KeepDuplicates> sink;
    typename Gen::template CaptureSearch<CountSink<KeepDuplicates>> search(pos, sink);
    search.run(pos);
    if (sink.long_ones.overflowed()) [[unlikely]] {
      MoveList moves;
      generate_captures<KeepDuplicates>(pos, moves);
      return moves.size();
    }
    return sink.count;
  }
};

namespace movegen_detail {

constexpr Direction kAllDirections[4] = {Direction::UpLeft, Direction::UpRight, Direction::DownLeft,
                                         Direction::DownRight};

constexpr bool is_positive(Direction d) {
  return d == Direction::DownLeft || d == Direction::DownRight;
}
constexpr Direction reverse(Direction d) {
  return static_cast<Direction>(3 - static_cast<int>(d));
}
// The nearest set bit of `b` seen from a square looking in direction d.
constexpr Square nearest(Bitboard b, Direction d) {
  return is_positive(d) ? lsb(b) : msb(b);
}

// The two directions at right angles to d.
constexpr std::array<Direction, 2> perpendicular(Direction d) {
  return (d == Direction::UpLeft || d == Direction::DownRight)
             ? std::array<Direction, 2>{Direction::UpRight, Direction::DownLeft}
             : std::array<Direction, 2>{Direction::UpLeft, Direction::DownRight};
}

}  // namespace movegen_detail

template <class R>
class MoveGen : public MoveGenEntryPoints<R, MoveGen<R>> {
  using G = typename R::Geometry;
  static_assert(!R::kLineMoves, "a line rule set needs its MoveGen specialisation");

 public:
  // Directions in which a man of side s moves (forward) and captures.
  static constexpr std::array<Direction, 2> forward(Side s) {
    return s == Side::White ? std::array<Direction, 2>{Direction::UpLeft, Direction::UpRight}
                            : std::array<Direction, 2>{Direction::DownLeft, Direction::DownRight};
  }

  static Bitboard empty_squares(const Position& pos) { return G::kValid & ~pos.occupied(); }

  // Breakthrough: a position with a king is won by its owner, and nothing moves any more.
  static bool game_over(const Position& pos) {
    if constexpr (R::kFirstKingWins) {
      return pos.kings() != 0;
    } else {
      return false;
    }
  }

  // The pieces a man of the side to move may capture (Italian men may not capture kings).
  static Bitboard men_targets(const Position& pos, Side us) {
    if constexpr (R::kMenCaptureKings) {
      return pos.pieces(opponent(us));
    } else {
      return pos.men(opponent(us));
    }
  }

  // Pieces among `movers` that can make a one-piece capture in direction d.
  static Bitboard jumpers(Bitboard movers, Direction d, Bitboard opp, Bitboard empty) {
    const int s = G::step(d);
    return movers & shift(opp & shift(empty, -s), -s);
  }

  // Men (and short kings) of the side to move that can capture.
  [[gnu::always_inline]] static Bitboard capturing_men(const Position& pos) {
    const Side us = pos.turn();
    const Bitboard opp = pos.pieces(opponent(us)), empty = empty_squares(pos);
    const Bitboard men = pos.men(us), prey = men_targets(pos, us);
    Bitboard b = 0;
    if constexpr (R::kMenCaptureBackward) {
      for (Direction d : movegen_detail::kAllDirections) b |= jumpers(men, d, prey, empty);
    } else {
      for (Direction d : forward(us)) b |= jumpers(men, d, prey, empty);
    }
    if constexpr (!R::kFlyingKings) {
      if (const Bitboard kings = pos.kings(us))
        for (Direction d : movegen_detail::kAllDirections) b |= jumpers(kings, d, opp, empty);
    }
    return b;
  }

  // The square of the piece a king on `from` would capture in direction d, or -1.
  // `blockers` are the occupied squares (captured pieces included), `targets` the capturable ones.
  static Square king_victim(Square from, Direction d, Bitboard blockers, Bitboard targets,
                            Bitboard empty) {
    if constexpr (R::kFlyingKings) {
      const Bitboard on_ray = G::ray(d, from) & blockers;
      if (!on_ray) return -1;
      const Square v = movegen_detail::nearest(on_ray, d);
      if (!has(targets, v) || !(shift(bit(v), G::step(d)) & empty)) return -1;
      return v;
    } else {
      const Bitboard mid = shift(bit(from), G::step(d)) & targets;
      if (!mid || !(shift(mid, G::step(d)) & empty)) return -1;
      return lsb(mid);
    }
  }

  [[gnu::always_inline]] static bool has_capture(const Position& pos) {
    if (game_over(pos)) return false;
    if (capturing_men(pos)) return true;
    if constexpr (!R::kFlyingKings) {
      return false;
    } else {
      const Side us = pos.turn();
      const Bitboard opp = pos.pieces(opponent(us)), empty = empty_squares(pos);
      const Bitboard blockers = pos.occupied();
      for (Square k : squares_of(pos.kings(us)))
        for (Direction d : movegen_detail::kAllDirections)
          if (king_victim(k, d, blockers, opp, empty | bit(k)) >= 0) return true;
      return false;
    }
  }

  // Squares a king on `from` can move to without capturing.
  static Bitboard king_moves(Square from, Bitboard empty) {
    Bitboard targets = 0;
    for (Direction d : movegen_detail::kAllDirections) {
      if constexpr (R::kFlyingKings) {
        const Bitboard ray = G::ray(d, from);
        const Bitboard blockers = ray & ~empty;
        targets |= blockers ? ray & ~G::ray(d, movegen_detail::nearest(blockers, d)) & empty : ray;
      } else {
        targets |= shift(bit(from), G::step(d)) & empty;
      }
    }
    return targets;
  }

  template <class List>
  static void generate_quiet(const Position& pos, List& out) {
    if (game_over(pos)) return;
    const Side us = pos.turn();
    const Bitboard empty = empty_squares(pos), promotion = G::promotion_row(us);
    for (Direction d : forward(us)) {
      const int s = G::step(d);
      out.push_each(shift(pos.men(us), s) & empty,
                    [&](Square to) { return Move(to - s, to, 0, has(promotion, to)); });
    }
    const Bitboard kings = pos.kings(us);
    if constexpr (R::kFlyingKings) {
      for (Square k : squares_of(kings))
        out.push_each(king_moves(k, empty), [&](Square to) { return Move(k, to, 0, false); });
    } else if (kings) {
      for (Direction d : movegen_detail::kAllDirections) {
        const int s = G::step(d);
        out.push_each(shift(kings, s) & empty,
                      [&](Square to) { return Move(to - s, to, 0, false); });
      }
    }
  }

  static std::size_t count_quiet(const Position& pos) {
    if (game_over(pos)) return 0;
    const Side us = pos.turn();
    const Bitboard empty = empty_squares(pos), men = pos.men(us), kings = pos.kings(us);
    int n = 0;
    for (Direction d : forward(us)) n += popcount(shift(men, G::step(d)) & empty);
    if constexpr (R::kFlyingKings) {
      for (Square k : squares_of(kings)) n += popcount(king_moves(k, empty));
    } else if (kings) {
      for (Direction d : movegen_detail::kAllDirections)
        n += popcount(shift(kings, G::step(d)) & empty);
    }
    return static_cast<std::size_t>(n);
  }

  // Enumerates every capture sequence of the side to move and hands each to sink.add(...).
  // Sink: void add(Square from, Square to, Bitboard captured, bool crowns, CaptureStep path).
  template <class Sink, bool WithPath = false>
  class CaptureSearch {
   public:
    CaptureSearch(const Position& pos, Sink& sink)
        : sink_(sink),
          us_(pos.turn()),
          opp_(pos.pieces(opponent(pos.turn()))),
          promotion_(G::promotion_row(pos.turn())),
          base_empty_(empty_squares(pos)) {
      if constexpr (kNeedsKings) kings_ = pos.kings();
      if constexpr (!R::kMenCaptureKings) men_prey_ = men_targets(pos, pos.turn());
    }

    void run(const Position& pos) {
      if (game_over(pos)) return;
      const Bitboard jumping = capturing_men(pos);
      for (Square m : squares_of(jumping & pos.men(us_))) {
        begin(m, false);
        man_from(m, 0);
      }
      // Short kings that can capture are among `jumping`; flying kings are checked one by one.
      for (Square k : squares_of(R::kFlyingKings ? pos.kings(us_) : jumping & pos.kings(us_))) {
        begin(k, true);
        king_start(k);
      }
    }

   private:
    void begin(Square from, bool with_king) {
      from_ = from;
      memo_.restart();
      if constexpr (kRankedCaptures<R>) with_king_ = with_king;
      empty_ = base_empty_ | bit(from);
      blockers_ = G::kValid & ~empty_;
      length_ = 0;
    }

    void push_path(Square sq) {
      if constexpr (WithPath) {
        path_[static_cast<std::size_t>(length_++)] = sq;
        if constexpr (!Memo::kEnabled) movegen_detail::poll_path_step();
      }
    }
    void pop_path() {
      if constexpr (WithPath) --length_;
    }
    // The path already ends with `to`.
    void emit(Square to, Bitboard captured, bool crowns) {
      int rank = 0;
      if constexpr (kRankedCaptures<R>) {
        int order = 0;
        if constexpr (R::kPriority == CapturePriority::Italian) order = order_;
        rank = capture_rank<R>(popcount(captured), with_king_, popcount(captured & kings_), order);
      }
      sink_.add(from_, to, captured, crowns, CaptureStep{path_.data(), length_, rank});
    }

    // A man (or short king) on sq, having captured `captured` so far.
    void man_from(Square sq, Bitboard captured) {
      if (memo_.seen(captured, Memo::tag(0, sq, -1))) return;
      bool extended = false;
      auto try_dir = [&](Direction d) {
        const int s = G::step(d);
        const Bitboard mid = shift(bit(sq), s) & men_prey() & ~captured;
        if (!mid) return;
        const Bitboard land = shift(mid, s) & empty_;
        if (!land) return;
        extended = true;
        const Square to = lsb(land);
        push_path(to);
        if (R::kCrown == CrownInCapture::ContinueAsKing && (land & promotion_))
          king_landed(to, d, captured | mid, true);
        else
          man_from(to, captured | mid);
        pop_path();
      };
      if constexpr (R::kMenCaptureBackward) {
        for (Direction d : movegen_detail::kAllDirections) try_dir(d);
      } else {
        for (Direction d : forward(us_)) try_dir(d);
      }
      if (!extended && captured) emit(sq, captured, has(promotion_, sq));
    }

    void king_start(Square k) {
      if constexpr (!R::kFlyingKings) {
        short_king_from(k, 0);
      } else {
        for (Direction d : movegen_detail::kAllDirections) {
          const Square v = king_victim(k, d, blockers_, opp_, empty_);
          if (v >= 0) king_jump(v, d, bit(v), false);
        }
      }
    }

    void short_king_from(Square sq, Bitboard captured) {
      if (memo_.seen(captured, Memo::tag(1, sq, -1))) return;
      bool extended = false;
      for (Direction d : movegen_detail::kAllDirections) {
        const int s = G::step(d);
        const Bitboard mid = shift(bit(sq), s) & opp_ & ~captured;
        if (!mid) continue;
        const Bitboard land = shift(mid, s) & empty_;
        if (!land) continue;
        extended = true;
        push_path(lsb(land));
        if constexpr (R::kPriority == CapturePriority::Italian) {
          // FID 6.9: remember where in the sequence each king was captured.
          const int saved = order_;
          if (mid & kings_) order_ |= 1 << (15 - popcount(captured));
          short_king_from(lsb(land), captured | mid);
          order_ = saved;
        } else {
          short_king_from(lsb(land), captured | mid);
        }
        pop_path();
      }
      if (!extended && captured) emit(sq, captured, false);
    }

    // A flying king has just captured the piece on v moving in direction d.
    void king_jump(Square v, Direction d, Bitboard captured, bool crowns) {
      if (memo_.seen(captured, Memo::tag(2, v, static_cast<int>(d)))) return;
      const Bitboard ray = G::ray(d, v);
      const Bitboard stop = ray & blockers_;
      const Bitboard landings =
          stop ? ray & ~G::ray(d, movegen_detail::nearest(stop, d)) & ~stop : ray;
      // landings is never empty: king_victim checked the square right behind v.
      const Bitboard targets = opp_ & ~captured;
      bool extended = false;
      // Straight on, from the farthest landing square (covers every landing square on the line).
      const Square last = is_positive(d) ? msb(landings) : lsb(landings);
      const Square ahead = king_victim(last, d, blockers_, targets, empty_);
      if (ahead >= 0) {
        extended = true;
        push_path(movegen_detail::nearest(landings, d));  // one landing per captured piece
        king_jump(ahead, d, captured | bit(ahead), crowns);
        pop_path();
      }
      // Turning, from each landing square.
      for (Square l : squares_of(landings)) {
        for (Direction p : movegen_detail::perpendicular(d)) {
          const Square w = king_victim(l, p, blockers_, targets, empty_);
          if (w < 0) continue;
          extended = true;
          push_path(l);
          king_jump(w, p, captured | bit(w), crowns);
          pop_path();
        }
      }
      if (!extended) {
        // Killer: a king whose last capture took a king halts right behind it.
        const Bitboard final_squares = halts_behind(v) ? shift(bit(v), G::step(d)) : landings;
        for (Square l : squares_of(final_squares)) {
          push_path(l);
          emit(l, captured, crowns);
          pop_path();
        }
      }
    }

    // A man crowned mid-capture on `sq` continues as a king (Russian rules). It arrived moving
    // in direction d; the square behind it holds the piece it just captured.
    void king_landed(Square sq, Direction d, Bitboard captured, bool crowns) {
      if (memo_.seen(captured, Memo::tag(3, sq, static_cast<int>(d)))) return;
      const Bitboard targets = opp_ & ~captured;
      bool extended = false;
      const Square ahead = king_victim(sq, d, blockers_, targets, empty_);
      if (ahead >= 0) {
        extended = true;
        king_jump(ahead, d, captured | bit(ahead), crowns);
      }
      for (Direction p : movegen_detail::perpendicular(d)) {
        const Square w = king_victim(sq, p, blockers_, targets, empty_);
        if (w < 0) continue;
        extended = true;
        king_jump(w, p, captured | bit(w), crowns);
      }
      if (!extended) emit(sq, captured, crowns);
    }

    static constexpr bool is_positive(Direction d) { return movegen_detail::is_positive(d); }

    // What men capture: the opponent's pieces, or only its men (Italian).
    Bitboard men_prey() const {
      if constexpr (R::kMenCaptureKings) {
        return opp_;
      } else {
        return men_prey_;
      }
    }
    // Killer: whether a king whose last capture was v must halt right behind it.
    bool halts_behind(Square v) const {
      if constexpr (R::kHaltBehindKing) {
        return has(kings_, v);
      } else {
        (void)v;
        return false;
      }
    }

    // State only some rule sets need; empty (and free) for the others, English and
    // international among them.
    static constexpr bool kNeedsKings = kRankedCaptures<R> || R::kHaltBehindKing;
    // States explored once per piece (CaptureMemo); not for Italian, whose rank also depends
    // on the order in which kings were taken, nor when every path is wanted (a path sink that
    // merges duplicates wants one path per move: a skipped state only repeats moves).
    using Memo = movegen_detail::MemoHandle<kMergesDuplicates<Sink> &&
                                            R::kPriority != CapturePriority::Italian>;
    struct None {};
    template <bool B, class T>
    using Maybe = std::conditional_t<B, T, None>;

    Sink& sink_;
    Side us_;
    Bitboard opp_, promotion_, base_empty_;
    Bitboard empty_ = 0, blockers_ = 0;
    Square from_ = 0;
    [[no_unique_address]] Maybe<kNeedsKings, Bitboard> kings_{};
    [[no_unique_address]] Maybe<!R::kMenCaptureKings, Bitboard> men_prey_{};
    [[no_unique_address]] Maybe<kRankedCaptures<R>, bool> with_king_{};
    // Italian: bit (15 - i) when the i-th captured piece is a king.
    [[no_unique_address]] Maybe<R::kPriority == CapturePriority::Italian, int> order_{};
    int length_ = 0;
    std::array<Square, WithPath ? 64 : 1> path_{};
    Memo memo_;
  };
};

}  // namespace tsuru

// The line generator and its MoveGen specialisations (Frisian, Turkish, Thai).
#include "engine/rules/movegen_lines.hpp"  // IWYU pragma: export
