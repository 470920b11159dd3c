// Perft of the rule sets off the hot path (see perft.hpp): every rule set of the registry's
// TSURU_OTHER_RULE_SETS (rule_set_list.hpp); English and international draughts have
// translation units of their own (perft_english.cpp, perft_international.cpp).
#include "engine/rules/perft_rules.hpp"
#include "engine/rules/rule_set_list.hpp"

namespace tsuru {
#define TSURU_PERFT_OF(Id, Trait) TSURU_INSTANTIATE_PERFT(Trait)
TSURU_OTHER_RULE_SETS(TSURU_PERFT_OF)
#undef TSURU_PERFT_OF

// perft_levels (the test suite's deep perft) of every rule set: kept out of the English and
// international units, where its extra call sites would change what gets inlined.
#define TSURU_PERFT_LEVELS_OF(Id, Trait) TSURU_INSTANTIATE_PERFT_LEVELS(Trait)
TSURU_RULE_SETS(TSURU_PERFT_LEVELS_OF)
#undef TSURU_PERFT_LEVELS_OF
}  // namespace tsuru
