// Where match games start: the English 3-move ballots in tournament use (book/ballots.hpp),
// positions from a FEN file, or random openings of N plies from the start position. Every opening
// is played twice, once with each engine moving first (the scheduler's job).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/game.hpp"

namespace tsuru::match {

struct Opening {
  std::string name;         // for the PDN record and messages
  Position start;           // the game's start position
  std::vector<Move> moves;  // played from start before the engines take over
};

// The game an opening gives: its start position with its moves played.
Game opening_game(Variant v, const Opening& opening);

// spec: "ballots" (English only), "random:N" (N plies of uniformly random legal moves), or the
// name of a file with one position (PDN FEN or Hub string) per line. The seed orders the
// ballot deck and draws the random moves; `wanted` is how many openings the match needs (the
// random generator makes that many, the other sources give what they hold).
Expected<std::vector<Opening>> load_openings(Variant v, std::string_view spec, std::uint64_t seed,
                                             int wanted);
// One position per line; blank lines and lines starting with '#' are skipped; a PDN tag line
// [FEN "..."] is accepted too. Errors name the line.
Expected<std::vector<Opening>> read_opening_file(Variant v, std::istream& in,
                                                 const std::string& name);
Expected<std::vector<Opening>> ballot_openings(Variant v, std::uint64_t seed);
Expected<std::vector<Opening>> random_openings(Variant v, int plies, std::uint64_t seed, int count);

}  // namespace tsuru::match
