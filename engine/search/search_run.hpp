// One search of a game's position under rule set R, the entry point Engine calls.
//
// Declared here, defined in search_run_impl.hpp and instantiated in one translation unit per hot
// rule set (search_english.cpp, search_international.cpp; search_variants.cpp for the others):
// GCC limits how much a translation unit may grow by inlining, and thirteen searches in one unit
// would leave the English and international move generators and evaluation less inlined.
#pragma once

#include <functional>

#include "engine/rules/game.hpp"
#include "engine/search/limits.hpp"
#include "engine/search/search_control.hpp"
#include "engine/search/tt.hpp"

namespace tsuru {

struct SearchResult;
namespace egdb {
class Database;
}

// threads: the number of searchers (lazy SMP, at least one); the node limit counts them all.
// multi_pv: the number of best root moves reported, each with its score and PV (1 = normal).
template <class R>
SearchResult run_search(TranspositionTable& tt, SearchControl& control, const Game& game,
                        const MoveList& root_moves, int max_depth, std::uint64_t node_limit,
                        int threads, int multi_pv,
                        const std::function<void(const SearchInfo&)>& on_info,
                        const egdb::Database* egdb = nullptr);

}  // namespace tsuru
