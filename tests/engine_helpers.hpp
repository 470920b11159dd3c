// Helpers shared by the test suites: positions and moves from text (a bad one fails the test
// with the parser's reason), engine analyses, and games the engine plays against itself.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "engine/engine.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::test {

inline Position fen(Variant v, const std::string& text) {
  auto p = notation::parse_fen(v, text);
  INFO(text << ": " << (p.ok() ? "" : p.error()));
  REQUIRE(p.ok());
  return *p;
}

inline Move move(Variant v, const Position& pos, const std::string& text) {
  auto m = notation::parse_move(v, pos, text);
  INFO(text << ": " << (m.ok() ? "" : m.error().message));
  REQUIRE(m.ok());
  return *m;
}

// Plays the move text names in g.
inline void play(Game& g, const std::string& text) {
  REQUIRE(g.play(move(g.variant(), g.position(), text)));
}

// A fixed-depth analysis of a game's current position; the last info report is kept.
struct Analysis {
  BestMove best;
  SearchInfo last;
  int reports = 0;
  std::string best_text;
};

// Options for engines under test: a small table, no book (book moves would hide the search).
inline EngineOptions test_options(int tt_log2 = 18) {
  EngineOptions options;
  options.tt_log2 = tt_log2;
  options.book = false;
  return options;
}

// eval_file as EngineOptions::eval_file ("default": the rule set's default evaluation).
inline Analysis analyse(const Game& game, int depth, std::uint64_t nodes = 0,
                        const std::string& eval_file = "default") {
  Engine engine;
  EngineOptions options = test_options();
  options.eval_file = eval_file;
  engine.set_options(options);
  engine.set_position(game);
  SearchLimits limits;
  limits.depth = depth;
  limits.nodes = nodes;
  limits.analyze = true;
  Analysis a;
  a.best = engine.think(limits, [&](const SearchInfo& info) {
    a.last = info;
    ++a.reports;
  });
  if (a.best.has_move) a.best_text = notation::format_move(game.variant(), a.best.move);
  return a;
}

inline Analysis analyse(Variant v, const std::string& text, int depth,
                        const std::string& eval_file = "default") {
  return analyse(Game(v, fen(v, text)), depth, 0, eval_file);
}

struct Played {
  Game game;
  int plies = 0;  // played here
};

// The engine plays both sides at a fixed depth until the game ends, or stops after max_plies;
// every move it chooses must be legal.
inline Played play_out(Game game, int depth, int tt_log2 = 18, int max_plies = 1000) {
  Engine engine;
  engine.set_options(test_options(tt_log2));
  engine.new_game();
  Played p{std::move(game), 0};
  const Variant v = p.game.variant();
  while (p.game.result().outcome == Outcome::Ongoing && p.plies < max_plies) {
    engine.set_position(p.game);
    SearchLimits limits;
    limits.depth = depth;
    const BestMove best = engine.think(limits);
    INFO(info(v).name << " ply " << p.plies << " " << notation::format_fen(v, p.game.position()));
    REQUIRE(best.has_move);
    REQUIRE(p.game.legal_moves().contains(best.move));
    REQUIRE(p.game.play(best.move));
    ++p.plies;
  }
  return p;
}

// The losing games (side that cannot move wins): a whole game from the start, the engine at
// depth 2 on both sides, must end within 400 plies, and a game won by being blocked goes to the
// blocked side.
inline void check_losing_self_play(const Game& start) {
  Game game(start);
  for (int ply = 0; ply < 400 && game.result().outcome == Outcome::Ongoing; ++ply) {
    const Analysis step = analyse(game, 2);
    REQUIRE(step.best.has_move);
    REQUIRE(game.play(step.best.move));
  }
  const GameResult r = game.result();
  WARN(info(game.variant()).name << " self-play: " << describe(r.outcome) << " ("
                                 << describe(r.reason) << ")");
  REQUIRE(r.outcome != Outcome::Ongoing);
  if (r.reason == ResultReason::NoLegalMove)
    CHECK(r.outcome ==
          (game.position().turn() == Side::White ? Outcome::WhiteWins : Outcome::BlackWins));
}

}  // namespace tsuru::test
