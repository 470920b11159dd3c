// The searches of the rule sets off the hot path (see search_run.hpp).
#include "engine/search/search_run_impl.hpp"

namespace tsuru {
TSURU_INSTANTIATE_SEARCH(BrazilianRules)
TSURU_INSTANTIATE_SEARCH(RussianRules)
TSURU_INSTANTIATE_SEARCH(PoolRules)
TSURU_INSTANTIATE_SEARCH(CzechRules)
TSURU_INSTANTIATE_SEARCH(SpanishRules)
TSURU_INSTANTIATE_SEARCH(ItalianRules)
TSURU_INSTANTIATE_SEARCH(ThaiRules)
TSURU_INSTANTIATE_SEARCH(TurkishRules)
TSURU_INSTANTIATE_SEARCH(FrisianRules)
TSURU_INSTANTIATE_SEARCH(KillerRules)
TSURU_INSTANTIATE_SEARCH(BreakthroughRules)
TSURU_INSTANTIATE_SEARCH(AntidraughtsRules)
}  // namespace tsuru
