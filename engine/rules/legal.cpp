#include "engine/rules/legal.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <mutex>
#include <optional>

#include "engine/rules/movegen.hpp"

namespace tsuru {
namespace {

// OnePerMove: the capture search may skip states it explored before (every move still comes
// once, with the path that reached it first), and duplicates are merged here.
template <class R, bool OnePerMove>
struct PathSink {
  static constexpr bool kMergesDuplicates = OnePerMove;
  std::vector<MovePath>& out;
  int best = 0;
  void add(Square from, Square to, Bitboard captured, bool crowns, CaptureStep step) {
    const int rank = R::kPriority == CapturePriority::Majority ? popcount(captured) : step.rank;
    if constexpr (R::kPriority != CapturePriority::FreeChoice) {
      if (rank < best) return;
      if (rank > best) {
        out.clear();
        best = rank;
      }
    }
    const Move m(from, to, captured, crowns);
    if constexpr (OnePerMove) {
      if (popcount(captured) >= 3 &&
          std::any_of(out.begin(), out.end(), [&](const MovePath& p) { return p.move == m; }))
        return;
    }
    out.push_back({m, {step.path, step.path + step.length}});
  }
};

// The last few generations that took long, shared by every thread: a contrived position whose
// generation takes a second is otherwise generated again by each of the protocol's move parse,
// the game's legality check and the engine's go. Ordinary generations (microseconds) are not
// kept, so the cache costs them one lock and a few comparisons.
class SlowGenerations {
 public:
  static SlowGenerations& instance() {
    static SlowGenerations cache;
    return cache;
  }

  std::optional<MoveList> find(Variant v, const Position& pos) {
    const std::lock_guard lock(mutex_);
    for (const Entry& e : entries_)
      if (e.filled && e.variant == v && e.position == pos) return e.moves;
    return std::nullopt;
  }

  void keep(Variant v, const Position& pos, const MoveList& moves) {
    const std::lock_guard lock(mutex_);
    Entry& e = entries_[next_++ % entries_.size()];
    e = Entry{true, v, pos, moves};
  }

 private:
  struct Entry {
    bool filled = false;
    Variant variant{};
    Position position;
    MoveList moves;
  };
  std::mutex mutex_;
  std::array<Entry, 4> entries_;
  std::size_t next_ = 0;
};

// Generations slower than this are kept.
constexpr auto kSlowGeneration = std::chrono::milliseconds(2);

}  // namespace

MoveList legal_moves(Variant v, const Position& pos) {
  SlowGenerations& slow = SlowGenerations::instance();
  if (auto kept = slow.find(v, pos)) return std::move(*kept);
  const auto start = std::chrono::steady_clock::now();
  MoveList list;
  with_rules(v, [&]<class R>(R) { MoveGen<R>::generate(pos, list); });
  if (std::chrono::steady_clock::now() - start >= kSlowGeneration) slow.keep(v, pos, list);
  return list;
}

bool has_capture(Variant v, const Position& pos) {
  return with_rules(v, [&]<class R>(R) { return MoveGen<R>::has_capture(pos); });
}

std::vector<MovePath> move_paths(Variant v, const Position& pos, Paths which) {
  std::vector<MovePath> paths;
  with_rules(v, [&]<class R>(R) {
    auto capture_paths = [&]<bool OnePerMove>() {
      PathSink<R, OnePerMove> sink{paths};
      typename MoveGen<R>::template CaptureSearch<PathSink<R, OnePerMove>, true> search(pos, sink);
      search.run(pos);
    };
    if (MoveGen<R>::has_capture(pos)) {
      if (which == Paths::OnePerMove)
        capture_paths.template operator()<true>();
      else
        capture_paths.template operator()<false>();
    } else {
      MoveList quiet;
      MoveGen<R>::generate_quiet(pos, quiet);
      for (const Move& m : quiet) paths.push_back({m, {Square{m.to}}});
    }
  });
  return paths;
}

PathBudget::PathBudget(std::uint64_t steps)
    : polls_left_(steps / movegen_detail::kPathPollEvery + 1) {}

bool PathBudget::expired() {
  if (polls_left_ == 0) return true;
  --polls_left_;
  return false;
}

}  // namespace tsuru

namespace tsuru {
Position start_position(Variant v) {
  return with_rules(v, []<class R>(R) {
    using G = typename R::Geometry;
    Bitboard black = 0, white = 0;
    for (int r = R::kStartGap; r < R::kStartGap + R::kStartRows; ++r) {
      black |= G::make_row(r);
      white |= G::make_row(G::kRows - 1 - r);
    }
    return Position::from_bitboards(white, black, 0, R::kFirstToMove, R::kKingMoveLimit > 0);
  });
}
}  // namespace tsuru

namespace tsuru {
Position make_position(Variant v, Bitboard white, Bitboard black, Bitboard kings, Side turn) {
  return Position::from_bitboards(white, black, kings, turn, info(v).king_runs);
}
}  // namespace tsuru
