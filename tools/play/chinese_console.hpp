// `tsuru play --variant chinese`: Chinese checkers against the engine in the terminal. The star
// is drawn with every point's number (docs/notation.md); a piece shows as its number in red or
// blue when the output is a terminal with colour, else as R or B before the number. Moves are
// typed in the notation (`113-104`, `116x103`, or with every landing); `moves` lists the legal
// ones, `undo` takes back a move pair, `quit` ends.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "engine/chinese/engine.hpp"

namespace tsuru::play {

std::string draw_star(const chinese::Position& pos, bool colour);

struct ChinesePlaySettings {
  Level level = Level::Medium;
  chinese::Side human = chinese::Side::Red;
  chinese::Position start = chinese::Position::start();
  std::uint64_t seed = 1;
  bool colour = false;  // ANSI colours
};

// Plays until the game ends, `quit` or the end of input; returns the exit code (0).
int run_chinese_console(const ChinesePlaySettings& settings, std::istream& in, std::ostream& out);

}  // namespace tsuru::play
