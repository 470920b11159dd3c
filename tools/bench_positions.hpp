// The positions `tsuru bench` searches: openings, middlegames and endgames per rule set.
#pragma once

#include <string>
#include <vector>

#include "engine/rules/variant.hpp"

namespace tsuru::tools {

const std::vector<std::string>& bench_positions(Variant v);
int bench_depth(Variant v);

}  // namespace tsuru::tools
