// The move generator on hostile positions (issues 18 and 29): more legal moves than the list's
// inline storage, capture searches whose paths grow exponentially, the frontier search that
// takes the largest ones over, random dense positions of every rule set, and draw counters past
// 16 bits.
#include <chrono>
#include <random>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/perft.hpp"
#include "protocol/hub/notation.hpp"
#include "tests/engine_helpers.hpp"
#include "tests/movegen_check.hpp"
#include "tests/sanitizers.hpp"

using namespace tsuru;
using test::fen;

namespace {

// Six white kings among black men and kings: 407 distinct maximal captures (issue 18).
constexpr const char* kManyCaptures =
    "W:WK4,K5,K16,K26,K36,K46:B2,7,8,11,K13,19,20,K21,K24,29,30,31,33,K38,K41,K42,K47";

// A Frisian white king among 28 black men and kings: 2.2 million capture states, a second or more
// a generation.
constexpr const char* kFrisianKing =
    "W:WK17:B1,K4,K7,K9,11,K12,13,14,K16,K18,K21,K22,K23,K25,K27,29,30,31,32,K33,34,K36,K38,K41,"
    "42,K43,44,K45,K47";

// A white king on d4 among 30 black kings on the other colour (2 to 4 s a generation before).
constexpr const char* kTurkishKings =
    "W:WKd4:BKa2,Ka4,Ka6,Ka8,Kb1,Kb3,Kb5,Kb7,Kc2,Kc4,Kc8,Kd1,Kd3,Kd5,Kd7,Ke2,Ke4,Ke6,Ke8,Kf1,"
    "Kf3,Kf5,Kf7,Kg2,Kg4,Kg6,Kg8,Kh3,Kh5,Kh7";

// A sink that merges duplicates (so the generator may skip explored states) and counts the
// sequences the generator hands it.
template <class R>
struct CountingSink : CaptureCountSink<R> {
  std::size_t calls = 0;
  void add(Square from, Square to, Bitboard captured, bool crowns, CaptureStep step) {
    ++calls;
    CaptureCountSink<R>::add(from, to, captured, crowns, step);
  }
};

// The sequences a generation hands its sink, the moves it keeps and their rank.
struct Walked {
  std::size_t sequences = 0;
  std::size_t moves = 0;
  int rank = 0;
};
template <class R>
Walked walk(const Position& pos) {
  CountingSink<R> sink;
  typename MoveGen<R>::template CaptureSearch<CountingSink<R>> search(pos, sink);
  search.run(pos);
  return {sink.calls, sink.count, sink.best};
}

}  // namespace

TEST_CASE("a move list beyond its inline storage keeps every move", "[movegen][movelist]") {
  MoveList list;
  for (std::size_t i = 0; i < 3 * MoveList::kInline + 5; ++i)
    list.push(Move(static_cast<Square>(i % 50), static_cast<Square>(i / 50), bit(1), false));
  REQUIRE(list.size() == 3 * MoveList::kInline + 5);
  CHECK(list.spilled());
  CHECK(list[1000] == Move(0, 20, bit(1), false));
  const MoveList copy = list;
  CHECK(copy.size() == list.size());
  CHECK(std::equal(copy.begin(), copy.end(), list.begin()));
  MoveList moved = std::move(list);
  CHECK(moved.size() == copy.size());
  CHECK(list.empty());
  CHECK_FALSE(list.spilled());
  list.push(Move(1, 2, 0, false));
  CHECK(list.size() == 1);
  moved = list;
  CHECK(moved.size() == 1);
  CHECK(moved[0] == Move(1, 2, 0, false));
}

TEST_CASE("407 maximal captures: listed, counted and parsed alike", "[movegen][movelist]") {
  const Variant v = Variant::International;
  const Position pos = fen(v, kManyCaptures);
  const MoveList moves = legal_moves(v, pos);
  CHECK(moves.size() == 407);
  CHECK(moves.spilled());
  CHECK(MoveGen<InternationalRules>::count(pos) == 407);
  // Every path, then merged: the same 407 moves.
  CHECK(test::check_generation(v, pos, {.path_budget = 1'000'000}).empty());
  for (int depth : {1, 2}) {
    const std::uint64_t bulk = perft(v, pos, depth, {.bulk = true});
    CHECK(perft(v, pos, depth, {.bulk = false}) == bulk);
    CHECK(perft_levels(v, pos, depth).back() == bulk);
  }
  CHECK(perft(v, pos, 1, {.bulk = false, .keep_duplicates = true}) ==
        perft(v, pos, 1, {.bulk = true, .keep_duplicates = true}));
  // The move the Hub refused, in Hub and PDN notation; every listed move parses back.
  const auto hub = hub::parse_move(v, pos, "46x39x8x20x30x33x41x42");
  REQUIRE(hub.ok());
  CHECK(moves.contains(*hub));
  const auto pdn = notation::parse_move(v, pos, "46x39x8x20x30x33x41x42");
  REQUIRE(pdn.ok());
  CHECK(*pdn == *hub);
  for (const Move& m : moves) {
    const auto back = hub::parse_move(v, pos, hub::format_move(v, m));
    REQUIRE(back.ok());
    CHECK(*back == m);
  }
}

TEST_CASE("407 maximal captures: the game and the search take any of them", "[movegen][movelist]") {
  const Variant v = Variant::International;
  Game game(v, fen(v, kManyCaptures));
  const MoveList moves = game.legal_moves();
  REQUIRE(moves.size() == 407);
  Game last = game;
  CHECK(last.play(moves[406]));
  CHECK(game.play(*hub::parse_move(v, game.position(), "46x39x8x20x30x33x41x42")));
  // The search orders and plays more moves than the inline storage holds.
  const test::Analysis a = test::analyse(Game(v, fen(v, kManyCaptures)), 3);
  REQUIRE(a.best.has_move);
  CHECK(moves.contains(a.best.move));
}

TEST_CASE("capture search walks each state once: Frisian king among 28 pieces",
          "[movegen][capture-search]") {
  const Variant v = Variant::Frisian;
  const Position pos = fen(v, kFrisianKing);
  // Walking every order of the same captures handed the sink 186,231,116 sequences (about 10 s);
  // walking each state once, 2,177,877.
  // One generation only: each still takes a second or more.
  const Walked w = walk<FrisianRules>(pos);
  CHECK(w.sequences < 5'000'000);
  // As before: four moves taking 24 pieces, 16 of them kings, with a king.
  CHECK(w.moves == 4);
  CHECK(w.rank == capture_rank<FrisianRules>(24, true, 16, 0));
}

TEST_CASE("a contrived capture: one generation kept, one path per move, PDN paths bounded",
          "[movegen][capture-search]") {
  const Variant v = Variant::Frisian;
  const Position pos = fen(v, kFrisianKing);
  // The slow generation is kept (engine/rules/legal.cpp): asked again, the same four moves.
  const MoveList first = legal_moves(v, pos);
  const MoveList again = legal_moves(v, pos);
  REQUIRE(first.size() == 4);
  CHECK(std::equal(first.begin(), first.end(), again.begin(), again.end()));
  // One path per move walks each state once, like the generation (every path: ~190 million).
  const std::vector<MovePath> one = move_paths(v, pos, Paths::OnePerMove);
  REQUIRE(one.size() == 4);
  for (const MovePath& p : one) {
    CHECK(first.contains(p.move));
    CHECK(p.landings.size() == 24);  // one landing per captured piece
  }
  // Its full path, written out, parses back at once.
  std::string path = notation::square_name(v, one[0].move.from);
  for (Square sq : one[0].landings) path += "x" + notation::square_name(v, sq);
  const auto full = notation::parse_move(v, pos, path);
  REQUIRE(full.ok());
  CHECK(*full == one[0].move);
  // A PDN path that fits no move would need every path: refused within a budget, with the way
  // out (every path took 12 s before the budget, then said "illegal capture").
  const auto parsed = notation::parse_move(v, pos, "17x28x8");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().kind == notation::MoveError::Kind::Ambiguous);
  CHECK_THAT(parsed.error().message, Catch::Contains("give the captured squares"));
  // The Hub form of a legal move still parses at once.
  const auto hub = notation::parse_move(v, pos, notation::format_move(v, first[0]));
  REQUIRE(hub.ok());
  CHECK(*hub == first[0]);
}

TEST_CASE("capture search walks each state once: Turkish king among 30 kings",
          "[movegen][capture-search]") {
  const Variant v = Variant::Turkish;
  const Position pos = fen(v, kTurkishKings);
  // Every order: 47,793,830 sequences; each state once: 2,242,916.
  const Walked w = walk<TurkishRules>(pos);
  CHECK(w.sequences < 5'000'000);
  CHECK(w.moves == 63);  // as before: 63 moves taking 29 kings
  CHECK(w.rank == 29);
}

TEST_CASE("random dense positions: every generator consistent", "[movegen][random]") {
  // Deterministic: a fixed seed per rule set.
  for (Variant v : all_variants()) {
    std::mt19937 rng(1234U + static_cast<unsigned>(v));
    auto next = [&] { return static_cast<unsigned>(rng() & 0xFF); };
    for (int i = 0; i < 3000; ++i) {
      const Position pos = test::random_position(v, next);
      const std::string error = test::check_generation(v, pos, {.path_budget = 5000});
      INFO(info(v).name << " " << notation::format_fen(v, pos) << ": " << error);
      REQUIRE(error.empty());
    }
  }
}

TEST_CASE("repetition is seen after more than 32768 reversible plies", "[draw]") {
  // Czech draughts has no move-count rule: two kings may shuffle for ever.
  const Variant v = Variant::Czech;
  Game g(v, fen(v, "W:WK1,22:BK32,11"));
  const char* cycle[] = {"1-6", "32-27", "6-1", "27-32"};
  std::vector<Move> moves;
  {
    Game probe = g;
    for (const char* m : cycle) {
      moves.push_back(test::move(v, probe.position(), m));
      REQUIRE(probe.play(moves.back()));
    }
  }
  const int plies = 32'768 + 4;
  for (int i = 0; i < plies; ++i) REQUIRE(g.play(moves[static_cast<std::size_t>(i % 4)]));
  CHECK(g.draw_state().reversible == plies);
  CHECK(g.repetitions() > 3);
  CHECK(g.result().reason == ResultReason::Repetition);
}

TEST_CASE("a search keeps its deadline inside a long capture search", "[movegen][search]") {
  // Black to move has 32 quiet moves; after each, the white king's capture search walks millions
  // of states (seconds each even when every state is walked once). The hard deadline must cut
  // the generation short: unguarded, depth 1 alone took over 30 s.
  const Variant v = Variant::Frisian;
  const Game game(
      v, fen(v,
             "B:WK17:B1,K4,K7,K9,11,K12,13,14,K16,K18,K21,K22,K23,K25,K27,29,30,31,32,K33,34,K36,"
             "K38,K41,42,K43,44,K45,K47"));
  Engine engine;
  EngineOptions options;
  options.tt_log2 = 16;
  options.book = false;
  engine.set_options(options);
  engine.set_position(game);
  SearchLimits limits;
  limits.move_time = 0.2;
  const auto start = std::chrono::steady_clock::now();
  const BestMove best = engine.think(limits, [](const SearchInfo&) {});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(best.has_move);
  CHECK(game.legal_moves().contains(best.move));
  CHECK(seconds < 10.0);
}

TEST_CASE("more moves than the inline storage below the root: search and perft",
          "[movegen][movelist]") {
  // After 44-49, White has 386 captures: the search and perft meet them inside the tree, where
  // they use fixed lists and must go over to growing ones.
  const Variant v = Variant::International;
  const std::string text =
      "B:WK4,K5,K16,K26,K36,K46:B2,7,8,11,K13,19,20,K21,K24,29,30,31,33,K38,K41,K42,K47,44";
  const Position pos = fen(v, text);
  const Position after = pos.after(test::move(v, pos, "44-49"));
  CHECK(legal_moves(v, after).size() == 386);
  const std::uint64_t bulk = perft(v, pos, 2, {.bulk = true});
  CHECK(perft(v, pos, 2, {.bulk = false}) == bulk);
  CHECK(perft_levels(v, pos, 2).back() == bulk);
  CHECK(perft(v, pos, 3, {.bulk = false}) == perft(v, pos, 3, {.bulk = true}));
  const test::Analysis a = test::analyse(Game(v, pos), 4);
  REQUIRE(a.best.has_move);
  CHECK(legal_moves(v, pos).contains(a.best.move));
}

namespace {

// The legal moves as the depth-first search finds them: move_paths walks depth first whatever
// the number of states (a path search never goes over to the frontier).
MoveList depth_first_moves(Variant v, const Position& pos) {
  MoveList out;
  for (const MovePath& p : move_paths(v, pos, Paths::OnePerMove)) out.push(p.move);
  return out;
}

bool same_moves(const MoveList& a, const MoveList& b) {
  if (a.size() != b.size()) return false;
  for (const Move& m : a)
    if (!b.contains(m)) return false;
  return true;
}

std::uint64_t frontier_searches() {
  return movegen_detail::CaptureFrontier::local().searches();
}

// A Turkish white king among n black kings on the squares of the other colour (the crafted
// position's pattern, which makes the capture states explode), from a seeded shuffle.
Position turkish_king_among_kings(std::mt19937& rng, int n) {
  std::vector<Square> squares;
  for (Square s = 0; s < 64; ++s) squares.push_back(s);
  std::shuffle(squares.begin(), squares.end(), rng);
  const Square king = squares[0];
  const int colour = (king / 8 + king % 8 + 1) % 2;
  Bitboard black = 0;
  for (Square s : squares)
    if ((s / 8 + s % 8) % 2 == colour && popcount(black) < n) black |= bit(s);
  return make_position(Variant::Turkish, bit(king), black, black | bit(king), Side::White);
}

}  // namespace

TEST_CASE("frontier capture search: the depth-first search's moves, listed and counted",
          "[movegen][capture-search]") {
  SECTION("the crafted Turkish and Frisian positions") {
    for (const auto& [v, text] :
         {std::pair{Variant::Turkish, kTurkishKings}, std::pair{Variant::Frisian, kFrisianKing}}) {
      INFO(info(v).name);
      const Position pos = fen(v, text);
      const std::uint64_t before = frontier_searches();
      MoveList moves;
      with_rules(v, [&]<class R>(R) { MoveGen<R>::generate(pos, moves); });
      CHECK(frontier_searches() == before + 1);
      CHECK(with_rules(v, [&]<class R>(R) { return MoveGen<R>::count(pos); }) == moves.size());
      CHECK(same_moves(moves, depth_first_moves(v, pos)));
    }
  }
  SECTION("Turkish kings among kings, seeded") {
    std::mt19937 rng(29);
    int switched = 0;
    for (int i = 0; i < 60; ++i) {
      const Position pos = turkish_king_among_kings(rng, 16 + i % 6);
      INFO(notation::format_fen(Variant::Turkish, pos));
      const std::uint64_t before = frontier_searches();
      MoveList moves;
      MoveGen<TurkishRules>::generate(pos, moves);
      switched += frontier_searches() > before ? 1 : 0;
      REQUIRE(same_moves(moves, depth_first_moves(Variant::Turkish, pos)));
      REQUIRE(MoveGen<TurkishRules>::count(pos) == moves.size());
      // Bulk and played-out perft agree below it too.
      REQUIRE(perft(Variant::Turkish, pos, 2, {.bulk = true}) ==
              perft(Variant::Turkish, pos, 2, {.bulk = false}));
    }
    CHECK(switched >= 20);  // the seed gives 30 of 60 past the switch
  }
  SECTION("a layer beyond the frontier's bound: depth first after all, the same moves") {
    auto& frontier = movegen_detail::CaptureFrontier::local();
    // The first seeded position whose king search goes over to the frontier.
    std::mt19937 rng(29);
    Position pos;
    MoveList unbounded;
    for (int i = 0; i < 100; ++i) {
      pos = turkish_king_among_kings(rng, 20);
      const std::uint64_t before = frontier_searches();
      unbounded.clear();
      MoveGen<TurkishRules>::generate(pos, unbounded);
      if (frontier_searches() > before) break;
    }
    REQUIRE(unbounded.size() > 0);
    frontier.limit(100);
    MoveList bounded;
    const std::uint64_t before = frontier_searches();
    MoveGen<TurkishRules>::generate(pos, bounded);
    const std::size_t counted = MoveGen<TurkishRules>::count(pos);
    frontier.limit(movegen_detail::CaptureFrontier::kMaxCandidates);
    CHECK(frontier_searches() > before);
    CHECK(same_moves(bounded, unbounded));
    CHECK(counted == unbounded.size());
  }
}

TEST_CASE("the crafted Turkish position: one generation walks each state once by layers",
          "[movegen][capture-search]") {
  // The cost of a generation is its states, counted here; its time is `tsuru perft`'s to print
  // (0.8-0.9 s of CPU a generation before the frontier search, 0.25-0.3 s after, on the 2-core
  // machine the README measures). Its layers hold 4,222,224 states (capture_frontier.hpp: each
  // captured set and last capture once); every order of the same captures hands the sink
  // 47,793,830 sequences (above).
  const Position pos = fen(Variant::Turkish, kTurkishKings);
  auto& frontier = movegen_detail::CaptureFrontier::local();
  const std::uint64_t searches = frontier.searches();
  const std::uint64_t states = frontier.states();
  MoveList moves;
  MoveGen<TurkishRules>::generate(pos, moves);
  CHECK(moves.size() == 63);
  CHECK(frontier.searches() == searches + 1);
  const std::uint64_t walked = frontier.states() - states;
  INFO("states in the frontier's layers: " << walked);
  CHECK(walked > 4'000'000);  // the search went over to the frontier early: most states are its
  CHECK(walked < 4'300'000);  // each state once
}

TEST_CASE("a search keeps its deadline: the crafted Turkish position, either side to move",
          "[movegen][search]") {
  // White to move: the root's 63 captures (the generation is part of the move time); Black to
  // move: 112 quiet moves, each answered by the white king's capture of 29 kings inside the tree.
  for (const char side : {'W', 'B'}) {
    INFO(side);
    std::string text = kTurkishKings;
    text[0] = side;
    const Game game(Variant::Turkish, fen(Variant::Turkish, text));
    // The root's own generation, timed here the same way (the engine's is part of its move
    // time; a loaded machine stretches both alike).
    const auto generation_start = std::chrono::steady_clock::now();
    MoveList root;
    MoveGen<TurkishRules>::generate(game.position(), root);
    const double generation =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - generation_start).count();
    Engine engine;
    EngineOptions options;
    options.tt_log2 = 16;
    options.book = false;
    engine.set_options(options);
    engine.set_position(game);
    SearchLimits limits;
    limits.move_time = 0.5;
    const auto start = std::chrono::steady_clock::now();
    const BestMove best = engine.think(limits, [](const SearchInfo&) {});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(best.has_move);
    CHECK(game.legal_moves().contains(best.move));
    INFO("answered after " << seconds << " s; the root's generation took " << generation << " s");
    CHECK(seconds < 0.5 + 1.5 * generation + 1.0);
  }
}
