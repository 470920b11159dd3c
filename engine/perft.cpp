#include "engine/perft.hpp"

namespace tsuru {

std::uint64_t perft(Variant v, const Position& pos, int depth, const PerftOptions& options) {
  return with_rules(v, [&]<class R>(R) {
    if (options.bulk)
      return options.keep_duplicates ? perft<R, true, true>(pos, depth)
                                     : perft<R, true, false>(pos, depth);
    return options.keep_duplicates ? perft<R, false, true>(pos, depth)
                                   : perft<R, false, false>(pos, depth);
  });
}

}  // namespace tsuru
