// The time rules (docs/time.md): plan_time's budgets for clocks, the dynamic soft limit of
// TimeManager and SearchControl without a search, and one clock search of a real position.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "engine/search/search.hpp"
#include "engine/search/search_control.hpp"
#include "engine/search/search_run.hpp"
#include "engine/search/time_manager.hpp"
#include "tests/engine_helpers.hpp"

using namespace tsuru;
using Catch::Detail::Approx;

namespace {

SearchLimits clock_of(double time, double increment = 0, int moves_to_go = 0) {
  SearchLimits l;
  l.time = time;
  l.increment = increment;
  l.moves_to_go = moves_to_go;
  return l;
}

constexpr GamePhase kStart{40, 40};
constexpr GamePhase kEnding{6, 40};

}  // namespace

TEST_CASE("moves left: many on a full board, fewer as pieces go, never below the floor", "[time]") {
  CHECK(moves_left(kStart) == kOpeningMovesLeft);
  CHECK(moves_left({0, 40}) == kEndingMovesLeft);
  CHECK(moves_left({20, 40}) == (kOpeningMovesLeft + kEndingMovesLeft) / 2);
  CHECK(moves_left({12, 24}) == moves_left({20, 40}));  // a share of the start, any board
  CHECK(moves_left({}) == kOpeningMovesLeft);           // unknown: as at the start
  CHECK(moves_left({50, 40}) == kOpeningMovesLeft);     // more than the start: clamped
  for (int pieces = 40; pieces > 0; --pieces)
    CHECK(moves_left({pieces - 1, 40}) <= moves_left({pieces, 40}));
}

TEST_CASE("plan_time: a clock keeps the increment and the I/O margin in reserve", "[time]") {
  for (double time : {1.0, 2.5, 5.05, 30.0, 60.5, 300.0, 3600.0}) {
    for (double inc : {0.0, 0.05, 0.5, 2.0}) {
      if (inc > time / 2) continue;
      for (int mtg : {0, 1, 5, 40}) {
        for (GamePhase phase : {kStart, GamePhase{20, 40}, kEnding}) {
          INFO("time " << time << " inc " << inc << " moves " << mtg << " pieces " << phase.pieces);
          const TimePlan p = plan_time(clock_of(time, inc, mtg), phase);
          CHECK(p.hard > 0);
          CHECK(p.hard <= time);
          CHECK(time - p.hard >= inc + io_margin(time) - 1e-9);
          CHECK(p.optimum > 0);
          CHECK(p.optimum <= p.hard);
          CHECK(p.soft == Approx(kSoftShare * p.optimum));
        }
      }
    }
  }
}

TEST_CASE("plan_time: a clock about to fall still gives time to move, never above it", "[time]") {
  for (double time : {0.001, 0.01, 0.06, 0.1}) {
    INFO(time);
    const double inc = time / 2;
    const TimePlan p = plan_time(clock_of(time, inc));
    CHECK(p.hard > 0);
    CHECK(p.hard <= time);
    // The reserve is kept, or, when the clock holds less, all but a fifth of the clock.
    CHECK(time - p.hard >= std::min(inc + io_margin(time), (1 - kFloorShare) * time) - 1e-12);
  }
}

TEST_CASE("plan_time: the ending gets more of the same clock than the opening", "[time]") {
  const SearchLimits l = clock_of(60, 0.5);
  const TimePlan opening = plan_time(l, kStart);
  const TimePlan ending = plan_time(l, kEnding);
  CHECK(ending.optimum > opening.optimum * 1.5);
  // The numbers: reserve = 0.5 + 0.05 + 0.5; (60 - 1.05) / moves left + 0.5.
  CHECK(opening.optimum == Approx(58.95 / kOpeningMovesLeft + 0.5));
  CHECK(opening.hard == Approx(4 * opening.optimum));
  CHECK(ending.optimum == Approx(58.95 / moves_left(kEnding) + 0.5));
}

TEST_CASE("plan_time: over a game the clock drains, early moves get more than late ones",
          "[time]") {
  // Each move spends its optimum; the pieces go from 40 to 6 over 80 moves.
  for (double inc : {0.0, 0.5}) {
    const double base = 60;
    double left = base;
    double first = 0, last = 0, most = 0;
    const int moves = 80;
    for (int i = 0; i < moves; ++i) {
      const int pieces = 40 - 34 * i / moves;
      const TimePlan p = plan_time(clock_of(left + inc, inc), {pieces, 40});
      REQUIRE(p.optimum <= left + inc);
      if (i < 10) first += p.optimum;
      if (i >= moves - 10) last += p.optimum;
      most = std::max(most, p.optimum);
      left += inc - p.optimum;
      REQUIRE(left >= inc);  // never below the reserve
    }
    INFO("inc " << inc << ": first ten " << first << " s, last ten " << last << " s, left "
                << left);
    CHECK(first > last);
    CHECK(most < base / 20);
    CHECK(left < 0.2 * (base + inc * moves));  // not hoarded either
  }
}

TEST_CASE("plan_time: moves to go are respected", "[time]") {
  // One move to the control: all but the reserve may go on it.
  const TimePlan one = plan_time(clock_of(10, 0, 1), kStart);
  CHECK(one.optimum == Approx(10 - io_margin(10) - 0.5));
  CHECK(one.hard == Approx(one.optimum));
  // Fewer moves to go than the estimate: more a move; more than the estimate: the estimate.
  CHECK(plan_time(clock_of(10, 0, 10), kStart).optimum == Approx(9.45 / 10));
  CHECK(plan_time(clock_of(10, 0, 100), kStart).optimum ==
        Approx(plan_time(clock_of(10), kStart).optimum));
  CHECK(plan_time(clock_of(10, 0, 10), kStart).optimum >
        plan_time(clock_of(10, 0, 20), kStart).optimum);
}

TEST_CASE("plan_time: fixed move time, depth and infinite keep their meaning", "[time]") {
  SearchLimits fixed;
  fixed.move_time = 1;
  TimePlan p = plan_time(fixed);
  CHECK(p.hard == Approx(0.95));
  CHECK(p.soft == p.hard);
  CHECK(p.optimum == 0);  // no dynamic soft limit
  // A clock beside it only tightens the limits; the soft limit stays fixed.
  fixed.time = 2;
  p = plan_time(fixed);
  CHECK(p.optimum == 0);
  CHECK(p.hard <= 0.95);
  SearchLimits depth;
  depth.depth = 8;
  p = plan_time(depth);
  CHECK(p.hard == 0);
  CHECK(p.soft == 0);
  SearchLimits infinite = clock_of(10);
  infinite.infinite = true;
  CHECK(plan_time(infinite).hard == 0);
}

TEST_CASE("TimeManager: a stable best move stops early, a new one or a falling score extends",
          "[time]") {
  const double optimum = 1.0, hard = 4.0;
  TimeManager m;
  CHECK_FALSE(m.active());
  CHECK(m.on_iteration(false, 0) == 0);  // no plan: no limit
  m.reset();
  m.plan(optimum, hard);
  REQUIRE(m.active());
  CHECK(m.soft_limit() == Approx(kSoftShare));

  SECTION("the same best move: the base limit, then the stable one") {
    for (int i = 0; i <= kStableIterations; ++i) {
      INFO(i);
      CHECK(m.stable_iterations() == std::max(0, i - 1));
      const double soft = m.on_iteration(false, 10);
      CHECK(soft == Approx(i < kStableIterations ? kSoftShare : kStableShare));
    }
    // A falling score lifts the stable stop and extends.
    const Score fallen = 10 - kDropMargin - 1;
    CHECK(m.on_iteration(false, fallen) == Approx(kSoftShare * kDropFactor));
    // A score that falls by the margin only is no drop.
    CHECK(m.on_iteration(false, fallen - kDropMargin) == Approx(kStableShare));
  }
  SECTION("a new best move extends until a deeper iteration confirms it") {
    m.on_iteration(false, 10);
    m.on_iteration(false, 10);
    CHECK(m.on_iteration(true, 10) == Approx(kSoftShare * kChangeFactor));
    CHECK(m.stable_iterations() == 0);
    CHECK(m.on_iteration(false, 10) == Approx(kSoftShare));
  }
  SECTION("both at once, never past the hard deadline") {
    m.on_iteration(false, 50);
    CHECK(m.on_iteration(true, 0) == Approx(kSoftShare * kChangeFactor * kDropFactor));
    CHECK(m.budget() == Approx(kChangeFactor * kDropFactor));
    m.plan(optimum, 2.5);  // a tighter hard deadline
    CHECK(m.budget() == Approx(2.5));
    CHECK(m.soft_limit() == Approx(kSoftShare * 2.5));
  }
  SECTION("the first iteration has nothing to compare with") {
    CHECK(m.on_iteration(true, -500) == Approx(kSoftShare));
  }
  SECTION("a new plan keeps the iterations (a ponder search hit)") {
    for (int i = 0; i <= kStableIterations; ++i) m.on_iteration(false, 0);
    m.plan(2 * optimum, hard);
    CHECK(m.soft_limit() == Approx(2 * kStableShare));
    m.reset();
    CHECK(m.stable_iterations() == 0);
    CHECK(m.soft_limit() == 0);
  }
}

TEST_CASE("SearchControl: the soft deadline follows the iterations of a clock search", "[time]") {
  using std::chrono::milliseconds;
  const Move a = test::move(Variant::English, start_position(Variant::English), "11-15");
  const Move b = test::move(Variant::English, start_position(Variant::English), "9-13");
  const auto t0 = Clock::now();
  const auto at = [&](int ms) { return t0 + milliseconds(ms); };

  // Seconds of the limits for an optimum of 1000 s: the base soft limit, the one after a new
  // best move, and the stable one.
  const int base = static_cast<int>(kSoftShare * 1000), changed = 2 * base,
            stable = static_cast<int>(kStableShare * 1000);
  static_assert(kChangeFactor == 2);
  SearchControl c;
  c.reset();
  c.start(t0, base, 4000, 1000);                          // seconds: optimum 1000, hard 4000
  CHECK(c.iteration_done(a, 0, at((base - 10) * 1000)));  // just before the soft limit
  CHECK_FALSE(c.iteration_done(a, 0, at((base + 10) * 1000)));
  // A new best move: no new iteration after kSoftShare * 2000 s.
  CHECK(c.iteration_done(b, 0, at((changed - 10) * 1000)));
  CHECK_FALSE(c.iteration_done(b, 0, at((changed - 10) * 1000)));  // confirmed: back to base
  // b has been confirmed once; until kStableIterations times, the limit stays at base.
  for (int i = 2; i < kStableIterations; ++i)
    CHECK(c.iteration_done(b, 0, at((stable + 10) * 1000)));
  CHECK_FALSE(c.iteration_done(b, 0, at((stable + 10) * 1000)));  // stable
  CHECK_FALSE(c.must_stop(at(3999 * 1000)));
  CHECK(c.must_stop(at(4000 * 1000)));

  // Pondering: never past the soft deadline; at the hit, the plan applies to what was learnt.
  c.reset();
  c.set_pondering(true);
  for (int i = 0; i <= kStableIterations; ++i) CHECK(c.iteration_done(a, 0, at(1000 * 1000)));
  const auto hit = at(1000 * 1000);
  c.start(hit, base, 4000, 1000);
  c.set_pondering(false);
  CHECK(c.past_soft(hit + milliseconds((stable + 10) * 1000)));
  CHECK_FALSE(c.past_soft(hit + milliseconds((stable - 10) * 1000)));

  // A fixed soft deadline (no optimum) is not moved by the iterations.
  c.reset();
  c.start(t0, 600, 1000);
  CHECK(c.iteration_done(b, 0, at(599 * 1000)));
  CHECK(c.iteration_done(a, 0, at(599 * 1000)));
  CHECK_FALSE(c.iteration_done(a, 0, at(600 * 1000)));
}

TEST_CASE("the search's iterations move the soft limit: a stable best move ends it early",
          "[time][search]") {
  // The clock started midway between the stable soft limit and the base one of a 10 s optimum
  // (kStableShare and kSoftShare of it): the base limit is ahead, the stable one behind. So the
  // search ends once its best move has been the same for kStableIterations iterations, whatever the
  // machine's speed; with a fixed soft limit 1.5 s ahead the same search goes on to its depth.
  const Variant v = Variant::English;
  const Game g(v, test::fen(v, "W:W22,26,30,31:B1,14,15"));  // 22-18 gives one, takes two
  const MoveList moves = g.legal_moves();
  const int depth = 14;
  const double optimum = 10, elapsed = optimum * (kStableShare + kSoftShare) / 2;
  static_assert(kStableShare < kSoftShare);
  const auto started = Clock::now() - std::chrono::milliseconds(static_cast<int>(elapsed * 1000));
  TranspositionTable tt(16);
  SearchControl control;
  control.reset();
  control.start(started, kSoftShare * optimum, 60, optimum);
  int last_depth = 0;
  const SearchResult dynamic = run_search<EnglishRules>(
      tt, control, g, moves, depth, 0, 1, 1, [&](const SearchInfo& i) { last_depth = i.depth; });
  CHECK(dynamic.depth > kStableIterations);
  CHECK(dynamic.depth < depth);
  CHECK(last_depth == dynamic.depth);
  CHECK(notation::format_move(v, dynamic.best.move) == "22-18");

  TranspositionTable tt2(16);
  control.reset();
  control.start(started, elapsed + 1.5, 60);
  const SearchResult fixed = run_search<EnglishRules>(tt2, control, g, moves, depth, 0, 1, 1, {});
  CHECK(fixed.depth == depth);
}

TEST_CASE("a clock search of a real position answers within its hard deadline", "[time][engine]") {
  Engine e;
  EngineOptions o;
  o.tt_log2 = 16;
  o.book = false;
  e.set_options(o);
  // An international middlegame, 0.8 s left with 0.05 s of increment.
  const Variant v = Variant::International;
  Game g(v);
  for (const char* m : {"32-28", "18-23", "37-32", "12-18", "41-37", "7-12"}) test::play(g, m);
  e.set_position(g);
  const SearchLimits limits = clock_of(0.8, 0.05);
  const TimePlan plan = plan_time(limits, {popcount(g.position().occupied()), 40});
  REQUIRE(plan.hard < 0.8);
  SearchInfo last;
  const auto t = std::chrono::steady_clock::now();
  const BestMove best = e.think(limits, [&](const SearchInfo& i) { last = i; });
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  CHECK(best.has_move);
  CHECK(last.depth >= 1);
  // Generous: the hard deadline plus a loaded machine's scheduling.
  CHECK(took < plan.hard + 0.3);
  CHECK(last.seconds <= plan.hard + 0.25);

  // The same as a ponder search: its clock starts at the hit.
  SearchLimits ponder = limits;
  ponder.ponder = true;
  std::atomic<int> bests{0};
  e.go(ponder, {}, [&](const BestMove& b) {
    CHECK(b.has_move);
    ++bests;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  CHECK(bests == 0);  // the clock does not run while pondering
  const auto hit = std::chrono::steady_clock::now();
  e.ponder_hit();
  e.wait();
  CHECK(bests == 1);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - hit).count() <
        plan.hard + 0.3);
}
