// Search settings that differ between rule sets. Each is switched on only for the rule sets
// where an SPRT match showed a gain (docs/search-tests.md); elsewhere the search is as before.
#pragma once

#include <type_traits>

#include "engine/rules/rules.hpp"

namespace tsuru {

template <class R>
struct SearchParams {
  // ProbCut (search.hpp): international +49.3 ± 38.7 Elo (SPRT H1 in 156 games); English
  // +15.0 ± 24.1 (H0 in 301 games), so English searches without it.
  static constexpr bool kProbCut = std::is_same_v<R, InternationalRules>;
};

}  // namespace tsuru
