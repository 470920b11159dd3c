// The engine facade: threading contract, limits, pondering, levels, draw offers.
#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "engine/level.hpp"
#include "tests/engine_helpers.hpp"

using namespace tsuru;
using test::fen;

namespace {

Engine& configured(Engine& e, Level level = Level::None, std::uint64_t seed = 1) {
  EngineOptions o;
  o.tt_log2 = 16;
  o.book = false;
  o.level = level;
  o.seed = seed;
  e.set_options(o);
  return e;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TEST_CASE("go returns at once and delivers exactly one best move", "[engine]") {
  Engine e;
  configured(e).set_position(Game(Variant::International));
  std::atomic<int> bests{0};
  SearchLimits limits;
  limits.infinite = true;
  e.go(limits, {}, [&](const BestMove& b) {
    CHECK(b.has_move);
    ++bests;
  });
  CHECK(e.searching());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(bests == 0);
  e.stop();
  e.wait();
  CHECK(bests == 1);
  CHECK_FALSE(e.searching());
  // A new go while searching stops the old search first: still one answer each.
  e.go(limits, {}, [&](const BestMove&) { ++bests; });
  e.go(limits, {}, [&](const BestMove&) { ++bests; });
  e.stop();
  e.wait();
  CHECK(bests == 3);
}

TEST_CASE("limits: depth, nodes, move time", "[engine]") {
  Engine e;
  configured(e).set_position(Game(Variant::English));
  SearchInfo last;
  SearchLimits depth;
  depth.depth = 5;
  e.think(depth, [&](const SearchInfo& i) { last = i; });
  CHECK(last.depth == 5);

  SearchLimits nodes;
  nodes.nodes = 20000;
  e.new_game();
  std::uint64_t most = 0;
  e.think(nodes, [&](const SearchInfo& i) { most = std::max(most, i.nodes); });
  CHECK(most <= 20000);

  // Generous bounds: this only catches a search that ignores its clock.
  SearchLimits timed;
  timed.move_time = 0.2;
  const auto t = std::chrono::steady_clock::now();
  CHECK(e.think(timed).has_move);
  CHECK(seconds_since(t) < 1.0);

  SearchLimits clock;
  clock.time = 0.3;
  const auto t2 = std::chrono::steady_clock::now();
  CHECK(e.think(clock).has_move);
  CHECK(seconds_since(t2) < 0.3);
}

TEST_CASE("a single legal move is answered at once in play mode, searched in analysis",
          "[engine]") {
  Engine e;
  configured(e).set_position(Game(Variant::English, fen(Variant::English, "W:W27,30:B23")));
  int reports = 0;
  SearchLimits play;
  play.depth = 20;
  const BestMove b = e.think(play, [&](const SearchInfo&) { ++reports; });
  CHECK(notation::format_move(Variant::English, b.move) == "27x18x23");
  CHECK(reports == 0);
  SearchLimits analyze;
  analyze.depth = 3;
  analyze.analyze = true;
  e.think(analyze, [&](const SearchInfo&) { ++reports; });
  CHECK(reports > 0);
}

TEST_CASE("no legal move: the best move says so", "[engine]") {
  Engine e;
  configured(e).set_position(Game(Variant::English, fen(Variant::English, "B:W8,11,12:B4")));
  SearchLimits limits;
  limits.depth = 4;
  CHECK_FALSE(e.think(limits).has_move);
}

TEST_CASE("pondering waits for ponder-hit, then thinks on the clock", "[engine]") {
  Engine e;
  configured(e).set_position(Game(Variant::International));
  std::atomic<int> bests{0};
  SearchLimits limits;
  limits.ponder = true;
  limits.move_time = 0.1;
  e.go(limits, {}, [&](const BestMove&) { ++bests; });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(bests == 0);  // the move time does not run while pondering
  const auto t = std::chrono::steady_clock::now();
  e.ponder_hit();
  e.wait();
  CHECK(bests == 1);
  CHECK(seconds_since(t) < 1.0);
  // A ponder search can also be stopped.
  e.go(limits, {}, [&](const BestMove&) { ++bests; });
  e.stop();
  e.wait();
  CHECK(bests == 2);
}

TEST_CASE("ponder-hit keeps the search done so far: the move needs fewer nodes than a fresh one",
          "[engine][ponder]") {
  const Game game(Variant::International);
  const int depth = 9;
  // A fresh search to the depth, on a clear table.
  Engine fresh;
  configured(fresh).set_position(game);
  SearchLimits limits;
  limits.depth = depth;
  fresh.think(limits);
  const SearchSummary alone = fresh.last_search();
  REQUIRE(alone.depth == depth);

  // The same search as a ponder search, hit once it has reached depth - 1: what it searched
  // before the hit is not searched again.
  Engine e;
  configured(e).set_position(game);
  std::atomic<int> reached{0};
  std::atomic<std::uint64_t> nodes_seen{0};
  std::atomic<int> bests{0};
  limits.ponder = true;
  e.go(
      limits,
      [&](const SearchInfo& i) {
        nodes_seen = i.nodes;
        reached = i.depth;
      },
      [&](const BestMove& b) {
        CHECK(b.has_move);
        ++bests;
      });
  const auto start = std::chrono::steady_clock::now();
  while (reached < depth - 1 && seconds_since(start) < 30)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(reached >= depth - 1);
  const std::uint64_t before_hit = nodes_seen;  // at most the nodes searched before the hit
  e.ponder_hit();
  e.wait();
  CHECK(bests == 1);
  const SearchSummary pondered = e.last_search();
  CHECK(pondered.depth == depth);
  const std::uint64_t after_hit = pondered.nodes - before_hit;
  INFO("fresh " << alone.nodes << " nodes; pondered " << pondered.nodes << ", of which at most "
                << after_hit << " after the hit");
  CHECK(before_hit > 0);
  CHECK(after_hit < alone.nodes);
  // One thread: the ponder search is the very search the fresh one made.
  CHECK(pondered.nodes == alone.nodes);

  // A ponder search that has finished its depth waits; the hit answers with no new node.
  e.new_game();
  reached = 0;
  e.go(
      limits, [&](const SearchInfo& i) { reached = i.depth; },
      [&](const BestMove& b) {
        CHECK(b.has_move);
        ++bests;
      });
  const auto again = std::chrono::steady_clock::now();
  while (reached < depth && seconds_since(again) < 30)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(bests == 1);  // no answer before the hit
  e.ponder_hit();
  e.wait();
  CHECK(bests == 2);
  CHECK(e.last_search().nodes == alone.nodes);
}

TEST_CASE("levels: beginner plays about 40% random moves", "[engine][level]") {
  Engine e;
  configured(e, Level::Beginner, 12345).set_position(Game(Variant::International));
  int random = 0;
  const int n = 200;
  for (int i = 0; i < n; ++i) {
    int reports = 0;
    e.think(SearchLimits{}, [&](const SearchInfo&) { ++reports; });
    if (reports == 0) ++random;  // a random move is chosen without a search
  }
  // Binomial(200, 0.4): mean 80, standard deviation 6.9; four deviations either side.
  CHECK(random >= 52);
  CHECK(random <= 108);
}

TEST_CASE("levels: medium searches 8 plies in English, 6 in international", "[engine][level]") {
  for (Variant v : {Variant::English, Variant::International}) {
    Engine e;
    configured(e, Level::Medium).set_position(Game(v));
    SearchInfo last;
    SearchLimits limits;
    limits.move_time = 30;  // the level overrides the caller's limits
    e.think(limits, [&](const SearchInfo& i) { last = i; });
    CHECK(last.depth == (v == Variant::English ? 8 : 6));
    CHECK(medium_depth(v) == last.depth);
  }
}

TEST_CASE("levels: hard is timed at 1.5 s at most", "[engine][level]") {
  SearchLimits none;
  CHECK(apply_level(Level::Hard, Variant::English, none).move_time == 1.5);
  SearchLimits longer;
  longer.move_time = 10;
  CHECK(apply_level(Level::Hard, Variant::International, longer).move_time == 1.5);
  SearchLimits shorter;
  shorter.move_time = 0.5;
  CHECK(apply_level(Level::Hard, Variant::International, shorter).move_time == 0.5);
  SearchLimits deep;
  deep.depth = 40;
  const SearchLimits hard = apply_level(Level::Hard, Variant::English, deep);
  CHECK(hard.depth == 0);
  CHECK(hard.move_time == 1.5);
  CHECK(parse_level("hard") == Level::Hard);
  CHECK_FALSE(parse_level("expert").has_value());
}

TEST_CASE("draw offers follow the position", "[engine][draw]") {
  Engine e;
  configured(e);
  // Dead level: one king each.
  e.set_position(Game(Variant::English, fen(Variant::English, "W:WK1:BK32")));
  CHECK(e.accepts_draw());
  // A king up with a simple win: no draw.
  e.set_position(Game(Variant::English, fen(Variant::English, "W:WK1,K3,K5:BK32")));
  CHECK_FALSE(e.accepts_draw());
  CHECK_FALSE(e.offers_draw());
  // Two men down: a draw is the best it can hope for.
  e.set_position(Game(Variant::English, fen(Variant::English, "W:WK1:BK32,K30,K28")));
  CHECK(e.offers_draw());
  CHECK(e.accepts_draw());
}

TEST_CASE("a large table is sized and cleared on the search thread and taken only as used",
          "[engine]") {
  // 2^26 entries: 1 GiB. Zeroing it on the caller's thread (a DXP or Hub I/O thread) took a
  // large fraction of a second and all of its memory at once.
  auto resident_kib = [] {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("VmRSS:")) return std::stol(line.substr(6));
    return -1L;
  };
  Engine e;
  EngineOptions o;
  o.tt_log2 = 16;
  o.book = false;
  e.set_options(o);
  e.set_position(Game(Variant::International));
  SearchLimits limits;
  limits.depth = 1;
  // A first search with a small table loads the evaluation (on the caller's thread, a few
  // hundredths of a second on a loaded machine), so that only the table is timed below.
  e.go(limits, {}, [](const BestMove&) {});
  e.wait();
  o.tt_log2 = 26;
  e.set_options(o);
  const long before = resident_kib();
  auto start = std::chrono::steady_clock::now();
  e.go(limits, {}, [](const BestMove&) {});
  const double go_seconds = seconds_since(start);
  e.wait();
  CHECK(go_seconds < 0.05);
  // A depth-1 search touches a few entries: the rest of the gigabyte is never backed.
  CHECK(resident_kib() - before < 128 * 1024);
  start = std::chrono::steady_clock::now();
  e.new_game();
  CHECK(seconds_since(start) < 0.05);
  e.go(limits, {}, [](const BestMove&) {});
  e.wait();
  CHECK(resident_kib() - before < 128 * 1024);
}
