// Helpers shared by the engine and search tests.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "engine/engine.hpp"
#include "protocol/notation.hpp"

namespace tsuru::test {

inline Position fen(Variant v, const std::string& text) {
  auto p = notation::parse_fen(v, text);
  INFO(text << ": " << (p.ok() ? "" : p.error()));
  REQUIRE(p.ok());
  return *p;
}

inline Move move(Variant v, const Position& pos, const std::string& text) {
  auto m = notation::parse_move(v, pos, text);
  INFO(text);
  REQUIRE(m.ok());
  return *m;
}

// A fixed-depth analysis of a game's current position; the last info report is kept.
struct Analysis {
  BestMove best;
  SearchInfo last;
  int reports = 0;
  std::string best_text;
};

inline Analysis analyse(const Game& game, int depth, std::uint64_t nodes = 0) {
  Engine engine;
  EngineOptions options;
  options.tt_log2 = 18;
  options.book = false;
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

inline Analysis analyse(Variant v, const std::string& text, int depth) {
  return analyse(Game(v, fen(v, text)), depth);
}

}  // namespace tsuru::test
