// What a search reports, as Hub lines:
//   info depth=12 mean-depth=11.3 score=0.25 nodes=1234567 time=0.512 nps=2.4 pv="32-28 19-23"
//   info depth=12 rank=2 mean-depth=11.3 score=0.10 ... pv="33-28 ..."  (multi-pv > 1: one line
//                                        per root move, best first, rank 1 the best)
//   done move=32-28 ponder=19-23         (move first; ponder only when the PV has a reply)
//   done                                 (no legal move)
#pragma once

#include <string>

#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"
#include "engine/search/limits.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/notation.hpp"

namespace tsuru::hub {

// Centi-men as men with two decimals: 25 -> "0.25", -130 -> "-1.30". A forced win in n plies
// (kWin - n) prints as 100.00 - n/100, e.g. "99.95"; a loss as its negative.
std::string format_score(Score score);

// Moves are written in the numbering n (notation.hpp).
Message info_message(Variant v, const SearchInfo& info, MoveNumbers n);
// root is the searched position: the ponder move is checked legal after the best move.
Message done_message(Variant v, const Position& root, const BestMove& best, MoveNumbers n);

}  // namespace tsuru::hub
