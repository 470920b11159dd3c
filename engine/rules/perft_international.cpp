// International perft in a translation unit of its own (see perft.hpp).
#include "engine/rules/perft_rules.hpp"

namespace tsuru {
TSURU_INSTANTIATE_PERFT(InternationalRules)
}  // namespace tsuru
