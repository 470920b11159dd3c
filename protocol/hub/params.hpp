// The engine parameters a Hub client sees (`param` lines) and sets (`set-param`).
//
//   variant      enum   english international ... (variant_names(), then the aliases the
//                       clients send: american checkers normal standard bt losing, and frysk
//                       or frysk!, Frisian from the Frysk! start: five men each on the back row)
//   notation     enum   pydraughts tsuru: how moves are numbered (notation.hpp)
//   level        enum   none beginner medium hard (the seeds' computer opponent presets)
//   book         bool   play opening-book moves
//   book-ply     int    0..200, last game ply at which the book is used
//   book-margin  int    0..1000 centi-men, spread of the book moves chosen from
//   book-file    string opening book file; empty = the rule set's default book
//   eval-file    string the evaluation: default = the rule set's default (eval/pattern_weights.hpp
//                       trained_by_default), empty = classic (hand-set), builtin = the trained
//                       weights compiled in, else a weights file, also looked for in the data
//                       directory's weights/ folder (a damaged one is refused: "bad
//                       value: <reason>", and the evaluation in use stays)
//   egdb-dir     string endgame database directory (docs/egdb.md); default = the data
//                       directory's egdb/ (book/data_dir.hpp), empty = none
//   ponder       bool   the client may send `go ponder` (recorded; the engine always can)
//   threads      int    1..256 searchers (lazy SMP over one table; 1 is deterministic)
//   tt-size      int    10..26, hash table entries as a power of two (16 bytes each: 26 = 1 GiB)
//   seed         int    0..2147483647, random choices (beginner level, book variety)
//   multi-pv     int    1..64, best root moves reported, each on its own info line (rank=k)
//
// tt-size, variant (with its start position), book-file and egdb-dir are heavy: the session passes
// them on at the next `init`, `new-game`, `pos` or `go` rather than at once. The others reach the
// engine immediately.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "engine/rules/variant.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/notation.hpp"

namespace tsuru::hub {

struct Settings {
  Variant variant = Variant::International;
  // Frisian from the Frysk! start (variant frysk or frysk!).
  bool frysk = false;
  MoveNumbers numbers = MoveNumbers::Pydraughts;
  EngineOptions engine;
  bool ponder = false;
};

// The start position of the rule set as set: the rule set's own, or Frysk!'s (five men each on
// the back row, 1-5 and 46-50).
Position start_of(const Settings& settings);

// The `param` lines of the handshake, one per parameter, in the table's order.
std::vector<Message> param_messages(const Settings& settings);

// Sets a parameter from set-param's text. Returns the error message ("unknown parameter" or
// "bad value", or for eval-file "bad value: <why>") and leaves settings unchanged on failure.
std::optional<std::string> set_param(Settings& settings, std::string_view name,
                                     std::string_view value);

// Whether a parameter takes effect only at the next init, new-game, pos or go.
bool is_heavy(std::string_view name);

}  // namespace tsuru::hub
