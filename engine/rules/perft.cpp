#include "engine/rules/perft.hpp"

namespace tsuru {

std::uint64_t perft(Variant v, const Position& pos, int depth, const PerftOptions& options) {
  return with_rules(v, [&]<class R>(R) { return perft_rules<R>(pos, depth, options); });
}

std::vector<std::uint64_t> perft_levels(Variant v, const Position& pos, int depth,
                                        bool keep_duplicates) {
  return with_rules(v,
                    [&]<class R>(R) { return perft_levels_rules<R>(pos, depth, keep_duplicates); });
}

}  // namespace tsuru
