// libFuzzer target (clang, -DTSURU_FUZZ=ON): the evaluation weights format. An input whose first
// byte is even is a file image (the seeds, which start with the magic's T) for the reader,
// eval::decode_weights (damaged headers, counts, sizes, checksums, weights); an odd first byte
// makes the rest the weights of one rule set (any values, the extremes too), which are encoded
// and decoded. Aborts when
//   - decoded weights do not encode and decode back to themselves;
//   - the evaluation with decoded weights misbehaves (the sanitizers watch it) on the start
//     position and the positions of a few plies after it.
// Run: build-fuzz/tsuru_fuzz_weights -max_total_time=30 CORPUS_DIR (seeds: eval/data/*.weights)
#include <cstdint>
#include <span>

#include "engine/rules/legal.hpp"
#include "eval/pattern.hpp"
#include "eval/pattern_weights.hpp"
#include "tests/fuzz/check.hpp"

using tsuru::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tsuru;
  eval::PatternWeights built;
  const bool build = size > 3 && (data[0] & 1);
  if (build) {
    std::vector<Variant> pattern;
    for (Variant v : all_variants())
      if (eval::has_patterns(v)) pattern.push_back(v);
    built = eval::PatternWeights::zero(pattern[data[1] % pattern.size()]);
    const std::size_t n = (size - 2) / 2;
    auto weight = [&](std::size_t i) {
      const std::uint8_t* p = data + 2 + 2 * (i % n);
      return static_cast<std::int16_t>(static_cast<std::uint16_t>(p[0] | p[1] << 8));
    };
    for (std::size_t i = 0; i < built.region.size(); ++i) built.region[i] = weight(i * 7919);
    for (std::size_t ph = 0; ph < built.linear.size(); ++ph)
      for (std::size_t t = 0; t < built.linear[ph].size(); ++t)
        built.linear[ph][t] = weight(ph * 31 + t);
  }
  const auto weights = build ? eval::decode_weights(eval::encode_weights(built))
                             : eval::decode_weights(std::span<const std::uint8_t>(data, size));
  if (build) check(weights.ok() && *weights == built);
  if (!weights) {
    check(!weights.error().empty());
    return 0;
  }
  const auto again = eval::decode_weights(eval::encode_weights(*weights));
  check(again.ok() && *again == *weights);
  const Variant v = weights->variant;
  check(eval::has_patterns(v));
  with_rules(v, [&]<class R>(R) {
    Position pos = start_position(v);
    for (std::size_t ply = 0; ply < 8; ++ply) {
      (void)eval::evaluate<R>(pos, &*weights);
      const MoveList moves = legal_moves(v, pos);
      if (moves.empty()) break;
      pos = pos.after(moves[static_cast<std::size_t>(data[ply % size]) % moves.size()]);
    }
  });
  return 0;
}
