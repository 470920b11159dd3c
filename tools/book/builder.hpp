// Builds an opening book from the engine's own analysis by drop-out expansion: positions are
// analysed in order of a priority that grows by one per ply and by how much worse than the best
// each move on the way was, so the book goes deep on the main lines and shallower on sidelines.
// Every legal move of an analysed position is scored by a fixed-depth search; moves within a
// margin of the best are expanded. An existing output book is extended by a new build.
//
// A build stopped at any point (the book is saved every 10 positions; SIGKILL, the machine
// gone) resumes when it is run again with the same options: its progress file, OUT.build, holds
// the book's size when the build began and the build's options, so the rerun knows what is left
// and ends with the bytes of the uninterrupted build. Each position is analysed from a cleared
// hash table, so its scores do not depend on what was analysed before it in the same process.
#pragma once

#include <functional>
#include <string>

#include "engine/rules/expected.hpp"
#include "engine/rules/score.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::book {

struct BuildOptions {
  Variant variant = Variant::International;
  std::string out;            // the book file, created or extended
  int positions = 200;        // positions to analyse in this run
  int max_plies = 16;         // no position deeper than this (plies from the start position)
  int depth = 10;             // search depth of every move's score
  Score expand_margin = 30;   // expand the moves this close to the best (centi-men)
  double drop_weight = 0.05;  // priority added per centi-man lost on the way (1.0 = one ply)
  bool ballots = true;        // English: also grow from every standard 3-move ballot
  int tt_log2 = 22;
  std::function<void(int done, int total)> progress;  // called after each position
};

struct BuildStats {
  int analysed = 0;           // positions analysed by this build (a resumed one: before too)
  int resumed = 0;            // of those, analysed before the build was stopped and resumed
  std::size_t positions = 0;  // positions in the book now
  std::size_t records = 0;
};

Expected<BuildStats> build(const BuildOptions& options);

}  // namespace tsuru::book
