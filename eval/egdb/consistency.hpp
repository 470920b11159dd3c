// The consistency check of a built slice: each position's stored value must follow from the
// values one move on (docs/egdb.md, "Checking a set").
//
// A win has a move to a position lost for the opponent, a loss only moves to positions won for
// the opponent, a draw no move to a loss and at least one to a draw; a position without a move
// is lost (won where the rule set says the side that cannot move wins) at distance 0. Where
// distances are stored, a win is one ply longer than its fastest losing child and a loss one
// ply longer than its slowest winning child. This is what the generator computed, checked
// again through the reader (the compact files' capture and threat positions included), so it
// finds a damaged value, a wrong index or a reader that disagrees with the writer.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/index.hpp"

namespace tsuru::egdb {

// The probe the check reads values through (a Database's, or a test's).
using ProbeFunction = std::function<std::optional<Probe>(const Position&)>;

struct ConsistencyReport {
  Slice slice;
  std::uint64_t size = 0;       // the slice's indices
  std::uint64_t sampled = 0;    // indices looked at
  std::uint64_t positions = 0;  // of those, positions of the index the probe answers
  std::uint64_t unknown = 0;    // of those, with a child the probe does not answer (skipped)
  std::uint64_t checked = 0;    // positions whose value was judged against its children's
  std::uint64_t distances = 0;  // of those, whose distance was judged too
  std::uint64_t wrong = 0;
  std::optional<std::uint64_t> first_wrong;  // the smallest wrong index sampled
  bool exhaustive() const { return sampled == size; }
};

struct ConsistencyOptions {
  // Indices looked at: every one when at least the slice's size, else this many, drawn from
  // the seed (the same ones for any number of threads).
  std::uint64_t samples = 2000;
  std::uint64_t seed = 1;
  int threads = 1;
};

// Checks slice s of rule set v (White to move; its mirror is a slice of its own). The probe
// must be safe to call from several threads when options.threads > 1 (a Database's is).
ConsistencyReport check_consistency(Variant v, const Slice& s, const ProbeFunction& probe,
                                    const ConsistencyOptions& options = {});

// The probe of a database, as a ProbeFunction.
ProbeFunction probe_of(const Database& db);

}  // namespace tsuru::egdb
