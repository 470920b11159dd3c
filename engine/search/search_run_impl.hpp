// Definition of run_search (search_run.hpp), included only by the units that instantiate it.
#pragma once

#include <memory>
#include <system_error>
#include <thread>
#include <vector>

#include "engine/search/search.hpp"
#include "engine/search/search_run.hpp"

namespace tsuru {

// Lazy SMP: the main searcher runs on the calling thread and answers; threads - 1 helpers run the
// same search on threads of their own over the shared table, at staggered depths (Search::skips),
// and stop once the main searcher is done. They share nothing else but the control and the
// node counts, so one thread is exactly the single-threaded search.
template <class R>
SearchResult run_search(TranspositionTable& tt, SearchControl& control, const Game& game,
                        const MoveList& root_moves, int max_depth, std::uint64_t node_limit,
                        int threads, int multi_pv,
                        const std::function<void(const SearchInfo&)>& on_info,
                        const egdb::Database* egdb) {
  SearchShared shared(threads);
  tt.new_search(shared.threads());
  std::vector<std::unique_ptr<Search<R>>> helpers;
  std::vector<std::thread> workers;
  // The helpers are halted and joined however the main search ends.
  struct Join {
    SearchShared& shared;
    std::vector<std::thread>& workers;
    ~Join() {
      shared.halt();
      for (std::thread& w : workers) w.join();
    }
  } join{shared, workers};
  for (int id = 1; id < shared.threads(); ++id) {
    helpers.push_back(std::make_unique<Search<R>>(tt, control, game.options(), shared, id));
    helpers.back()->set_egdb(egdb);
    try {
      workers.emplace_back([&, helper = helpers.back().get()] {
        helper->run(game, root_moves, max_depth, node_limit, {});
      });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: search with those started
    }
  }
  SearchResult result;
  {
    auto main = std::make_unique<Search<R>>(tt, control, game.options(), shared, 0);
    main->set_multi_pv(multi_pv);
    main->set_egdb(egdb);
    result = main->run(game, root_moves, max_depth, node_limit, on_info);
  }
  shared.halt();
  for (std::thread& w : workers) w.join();
  workers.clear();
  result.thread_nodes.clear();
  result.nodes = 0;
  for (int id = 0; id < shared.threads(); ++id) {
    result.thread_nodes.push_back(shared.nodes_of(id));
    result.nodes += shared.nodes_of(id);
  }
  return result;
}

#define TSURU_INSTANTIATE_SEARCH(R)                                                               \
  template SearchResult run_search<R>(                                                            \
      TranspositionTable&, SearchControl&, const Game&, const MoveList&, int, std::uint64_t, int, \
      int, const std::function<void(const SearchInfo&)>&, const egdb::Database*);

}  // namespace tsuru
