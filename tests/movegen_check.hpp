// Random positions of any rule set and the consistency checks of its move generator, shared by
// the [movegen] random test (test_movegen_random.cpp) and the libFuzzer target
// (tests/fuzz/movegen_fuzz.cpp):
//   - the listed moves, the bulk count and the every-path list (KeepDuplicates, and the paths
//     the notation layer reads) agree: nothing dropped, nothing listed twice;
//   - every move replays to a sound position (mover, captured pieces, crowning, key);
//   - optionally, one generation takes at most a given time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <string>
#include <tuple>
#include <vector>

#include "engine/rules/legal.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::test {

// A position of rule set v from a byte source (next() returns the next byte): the first byte
// sets how crowded the board is and how many pieces are kings, then two bytes per square. Men
// never stand on their own promotion row. Either side may be to move.
template <class Next>
Position random_position(Variant v, Next&& next) {
  return with_rules(v, [&]<class R>(R) {
    using G = typename R::Geometry;
    const unsigned mix = next();
    const unsigned fill = 64 + (mix & 0x7F);        // chance of a piece: 1/4 to 3/4
    const unsigned king_share = (mix >> 4) & 0x0F;  // kings among the pieces, out of 16
    Bitboard white = 0, black = 0, kings = 0;
    for (Square sq : squares_of(G::kValid)) {
      if ((next() & 0xFFU) >= fill) continue;
      const unsigned b = next();
      const bool is_white = (b & 1) != 0;
      const bool king = ((b >> 1) & 0x0FU) < king_share;
      const Side s = is_white ? Side::White : Side::Black;
      if (!king && has(G::promotion_row(s), sq)) continue;
      (is_white ? white : black) |= bit(sq);
      if (king) kings |= bit(sq);
    }
    const Side turn = (next() & 1) ? Side::White : Side::Black;
    return make_position(v, white, black, kings, turn);
  });
}

struct CheckOptions {
  // The most CPU time (of the calling thread) one generation may take, 0 for not timed. CPU time,
  // not wall time, so a loaded machine does not fail the check.
  double max_seconds = 0;
  // Paths beyond which the every-path checks are skipped: their number, unlike the number of
  // moves, can grow exponentially with the pieces a king may take in any order.
  std::size_t path_budget = 20000;
};

namespace check_detail {

inline double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct OverBudget {};

// The engine's every-path list sink, stopped after a budget of paths.
template <class R>
struct BudgetSink : CaptureListSink<R, true> {
  std::size_t budget = 0;
  std::size_t seen = 0;
  void add(Square from, Square to, Bitboard captured, bool crowns, CaptureStep step) {
    if (++seen > budget) throw OverBudget{};
    CaptureListSink<R, true>::add(from, to, captured, crowns, step);
  }
};

inline auto key_of(const Move& m) {
  return std::tuple(m.from, m.to, m.captured, m.crowns);
}
inline std::vector<Move> sorted(const Move* b, const Move* e) {
  std::vector<Move> v(b, e);
  std::sort(v.begin(), v.end(), [](const Move& x, const Move& y) { return key_of(x) < key_of(y); });
  return v;
}

template <class R>
std::string check_move(Variant v, const Position& pos, const Move& m, bool capture_list) {
  using G = typename R::Geometry;
  const Side us = pos.turn(), them = opponent(us);
  const std::string text = notation::format_move(v, m);
  if (!has(pos.pieces(us), m.from)) return text + ": no piece of the side to move on from";
  if (m.is_capture() != capture_list) return text + ": captures and quiet moves mixed";
  if ((m.captured & ~pos.pieces(them)) != 0) return text + ": captures what is not the opponent's";
  // Where captured pieces leave at once (Turkish, Thai), a king may end on one's square.
  Bitboard may_land = ~pos.occupied() | bit(m.from);
  if constexpr (requires { R::kRemoveAtOnce; })
    if (R::kRemoveAtOnce) may_land |= m.captured;
  if (!has(may_land, m.to)) return text + ": lands on an occupied square";
  const bool man = !has(pos.kings(), m.from);
  if (m.crowns && !man) return text + ": a king crowned";
  if (man && has(G::promotion_row(us), m.to) && !m.crowns && !R::kFirstKingWins)
    return text + ": a man ending on the promotion row not crowned";
  if (m.crowns && !has(G::promotion_row(us), m.to) && R::kCrown != CrownInCapture::ContinueAsKing)
    return text + ": crowned off the promotion row";
  const Position after = pos.after(m);
  if (after.turn() != them) return text + ": the turn did not pass";
  if (popcount(after.pieces(us)) != popcount(pos.pieces(us)))
    return text + ": the mover's piece count changed";
  if (popcount(after.pieces(them)) != popcount(pos.pieces(them)) - m.capture_count())
    return text + ": captured pieces not removed";
  if ((after.pieces(us) & after.pieces(them)) != 0 || (after.occupied() & ~G::kValid) != 0 ||
      (after.kings() & ~after.occupied()) != 0)
    return text + ": an unsound position after the move";
  if (after.key() != after.compute_key()) return text + ": the key is not the position's";
  return {};
}

}  // namespace check_detail

// Empty when every check holds for the moves of pos under v; otherwise what failed.
inline std::string check_generation(Variant v, const Position& pos, const CheckOptions& opt = {}) {
  return with_rules(v, [&]<class R>(R) -> std::string {
    using namespace check_detail;
    using Gen = MoveGen<R>;
    const double start = thread_cpu_seconds();
    MoveList list;
    Gen::generate(pos, list);
    const double seconds = thread_cpu_seconds() - start;
    if (opt.max_seconds > 0 && seconds > opt.max_seconds)
      return "one generation took " + std::to_string(seconds) + " s";
    if (Gen::count(pos) != list.size())
      return "count " + std::to_string(Gen::count(pos)) + " != list " + std::to_string(list.size());
    const std::vector<Move> moves = sorted(list.begin(), list.end());
    if (std::adjacent_find(moves.begin(), moves.end(),
                           [](const Move& a, const Move& b) { return a == b; }) != moves.end())
      return "a move listed twice";
    const bool capture = Gen::has_capture(pos);
    if (!list.empty() && capture != list[0].is_capture()) return "has_capture disagrees";
    if (capture && list.empty()) return "has_capture but no capture listed";
    for (const Move& m : list) {
      const std::string e = check_move<R>(v, pos, m, capture);
      if (!e.empty()) return e;
      if constexpr (R::kPriority == CapturePriority::Majority)
        if (m.capture_count() != list[0].capture_count()) return "not all captures maximal";
    }
    // Notation round trip for a few moves (each parse generates the list again).
    for (std::size_t i : {std::size_t{0}, list.size() / 2, list.size() - 1}) {
      if (i >= list.size()) continue;
      const auto back = notation::parse_move(v, pos, notation::format_move(v, list[i]));
      if (!back.ok() || !(*back == list[i]))
        return notation::format_move(v, list[i]) + ": does not parse back";
    }
    if (!capture) return {};
    // Every path, within the budget: the same moves, each at least once.
    MoveList kept;
    BudgetSink<R> sink{{kept}};
    sink.budget = opt.path_budget;
    try {
      typename Gen::template CaptureSearch<BudgetSink<R>> search(pos, sink);
      search.run(pos);
    } catch (const OverBudget&) {
      return {};
    }
    std::vector<Move> distinct = sorted(kept.begin(), kept.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct != moves) return "the every-path list has other moves";
    if (Gen::template count<true>(pos) != kept.size()) return "every-path count != list";
    const std::vector<MovePath> paths = move_paths(v, pos);
    if (paths.size() != kept.size()) return "move_paths lists another number of paths";
    for (const MovePath& p : paths)
      if (p.landings.empty() || p.landings.back() != p.move.to || !list.contains(p.move))
        return notation::format_move(v, p.move) + ": a path that is not a legal move's";
    // One path per move: each legal move once, with one of its paths.
    const std::vector<MovePath> one = move_paths(v, pos, Paths::OnePerMove);
    if (one.size() != list.size()) return "one path per move: another number of moves";
    for (const MovePath& p : one) {
      const auto same_move = [&](const MovePath& o) { return o.move == p.move; };
      if (!list.contains(p.move) || std::count_if(one.begin(), one.end(), same_move) != 1)
        return notation::format_move(v, p.move) + ": not once in the one-path-per-move list";
      const bool known = std::any_of(paths.begin(), paths.end(), [&](const MovePath& o) {
        return o.move == p.move && o.landings == p.landings;
      });
      if (!known) return notation::format_move(v, p.move) + ": a path that is not one of its own";
    }
    return {};
  });
}

}  // namespace tsuru::test
