#include "engine/legal.hpp"

#include "engine/movegen.hpp"

namespace tsuru {
namespace {

template <class R>
struct PathSink {
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
    out.push_back({Move(from, to, captured, crowns), {step.path, step.path + step.length}});
  }
};

}  // namespace

MoveList legal_moves(Variant v, const Position& pos) {
  MoveList list;
  with_rules(v, [&]<class R>(R) { MoveGen<R>::generate(pos, list); });
  return list;
}

bool has_capture(Variant v, const Position& pos) {
  return with_rules(v, [&]<class R>(R) { return MoveGen<R>::has_capture(pos); });
}

std::vector<MovePath> move_paths(Variant v, const Position& pos) {
  std::vector<MovePath> paths;
  with_rules(v, [&]<class R>(R) {
    if (MoveGen<R>::has_capture(pos)) {
      PathSink<R> sink{paths};
      typename MoveGen<R>::template CaptureSearch<PathSink<R>, true> search(pos, sink);
      search.run(pos);
    } else {
      MoveList quiet;
      MoveGen<R>::generate_quiet(pos, quiet);
      for (const Move& m : quiet) paths.push_back({m, {Square{m.to}}});
    }
  });
  return paths;
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
