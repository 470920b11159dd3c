// The searches of the rule sets off the hot path (see search_run.hpp): every rule set of the
// registry's TSURU_OTHER_RULE_SETS (rule_set_list.hpp); English and international draughts have
// translation units of their own (search_english.cpp, search_international.cpp).
#include "engine/rules/rule_set_list.hpp"
#include "engine/search/search_run_impl.hpp"

namespace tsuru {
#define TSURU_SEARCH_OF(Id, Trait) TSURU_INSTANTIATE_SEARCH(Trait)
TSURU_OTHER_RULE_SETS(TSURU_SEARCH_OF)
#undef TSURU_SEARCH_OF
}  // namespace tsuru
