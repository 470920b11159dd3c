// The English search in a translation unit of its own (see search_run.hpp).
#include "engine/search/search_run_impl.hpp"

namespace tsuru {
TSURU_INSTANTIATE_SEARCH(EnglishRules)
}  // namespace tsuru
