// Game results made exact by the endgame databases: a self-play game at a few thousand nodes a
// move often throws away a won ending or saves a lost one, and every position of the game is then
// trained towards a result its play did not deserve. Relabelling takes the first position of each
// game that the databases know and gives its value (win, draw or loss with best play) to every
// earlier position of the game, each from its own side's point of view; the later positions get
// their own database values. Games that never reach the databases keep their results.
//
// The values are the databases' with the move-count draw rules as the engine's search combines
// them (egdb::verdict in eval/egdb/search_probe.hpp), the counters taken as fresh at the sample:
// a kings-only win that a counter would cut short (the FMJD 16-move rule's three kings against
// one, a distance beyond the 25- or 40-move rule) is a draw, and a kings-only win or loss whose
// distance the slice does not store is not known, so it anchors nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/egdb/database.hpp"
#include "tools/train/sample.hpp"

namespace tsuru::train {

struct RelabelStats {
  std::uint64_t games = 0;
  std::uint64_t games_reached = 0;  // games with a position the databases know
  std::uint64_t games_changed = 0;  // of those, games whose result the databases changed
  // [played][exact] for the reached games, from White's point of view: 0 White won, 1 drawn,
  // 2 Black won.
  std::uint64_t transitions[3][3] = {};
  std::uint64_t samples = 0;
  std::uint64_t samples_probed = 0;   // samples labelled by their own probe
  std::uint64_t samples_changed = 0;  // samples whose result changed
};

// Relabels samples in place. The samples must be grouped by game and in ply order within a game
// (as `tsuru selfplay` and `selfplay merge` write them); a game's samples are found as a run of
// equal game indices.
RelabelStats relabel_with_database(std::vector<Sample>& samples, const egdb::Database& db);

}  // namespace tsuru::train
