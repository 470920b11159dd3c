// Definition of run_search (search_run.hpp), included only by the units that instantiate it.
#pragma once

#include <memory>

#include "engine/search.hpp"
#include "engine/search_run.hpp"

namespace tsuru {

template <class R>
SearchResult run_search(TranspositionTable& tt, SearchControl& control, const Game& game,
                        const MoveList& root_moves, int max_depth, std::uint64_t node_limit,
                        const std::function<void(const SearchInfo&)>& on_info,
                        const egdb::Database* egdb) {
  auto search = std::make_unique<Search<R>>(tt, control, game.options());
  search->set_egdb(egdb);
  return search->run(game, root_moves, max_depth, node_limit, on_info);
}

#define TSURU_INSTANTIATE_SEARCH(R)                                                          \
  template SearchResult run_search<R>(                                                       \
      TranspositionTable&, SearchControl&, const Game&, const MoveList&, int, std::uint64_t, \
      const std::function<void(const SearchInfo&)>&, const egdb::Database*);

}  // namespace tsuru
