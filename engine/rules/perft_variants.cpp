// Perft of the rule sets off the hot path (see perft.hpp).
#include "engine/rules/perft_rules.hpp"

namespace tsuru {
TSURU_INSTANTIATE_PERFT(BrazilianRules)
TSURU_INSTANTIATE_PERFT(RussianRules)
TSURU_INSTANTIATE_PERFT(PoolRules)
TSURU_INSTANTIATE_PERFT(CzechRules)
TSURU_INSTANTIATE_PERFT(SpanishRules)
TSURU_INSTANTIATE_PERFT(ItalianRules)
TSURU_INSTANTIATE_PERFT(ThaiRules)
TSURU_INSTANTIATE_PERFT(TurkishRules)
TSURU_INSTANTIATE_PERFT(FrisianRules)
TSURU_INSTANTIATE_PERFT(KillerRules)
TSURU_INSTANTIATE_PERFT(BreakthroughRules)
TSURU_INSTANTIATE_PERFT(AntidraughtsRules)

// perft_levels (the test suite's deep perft) of every rule set: kept out of the English and
// international units, where its extra call sites would change what gets inlined.
TSURU_INSTANTIATE_PERFT_LEVELS(EnglishRules)
TSURU_INSTANTIATE_PERFT_LEVELS(InternationalRules)
TSURU_INSTANTIATE_PERFT_LEVELS(BrazilianRules)
TSURU_INSTANTIATE_PERFT_LEVELS(RussianRules)
TSURU_INSTANTIATE_PERFT_LEVELS(PoolRules)
TSURU_INSTANTIATE_PERFT_LEVELS(CzechRules)
TSURU_INSTANTIATE_PERFT_LEVELS(SpanishRules)
TSURU_INSTANTIATE_PERFT_LEVELS(ItalianRules)
TSURU_INSTANTIATE_PERFT_LEVELS(ThaiRules)
TSURU_INSTANTIATE_PERFT_LEVELS(TurkishRules)
TSURU_INSTANTIATE_PERFT_LEVELS(FrisianRules)
TSURU_INSTANTIATE_PERFT_LEVELS(KillerRules)
TSURU_INSTANTIATE_PERFT_LEVELS(BreakthroughRules)
TSURU_INSTANTIATE_PERFT_LEVELS(AntidraughtsRules)
}  // namespace tsuru
