// libFuzzer target (clang, -DTSURU_FUZZ=ON): the move generators of every rule set on positions
// built from the fuzz bytes (any mix of men and kings, either side to move; see
// tests/movegen_check.hpp). Aborts with a message when
//   - the listed moves, the bulk count and the every-path lists disagree (a move lost or listed
//     twice, whatever the list's size);
//   - a move does not replay to a sound position, or its notation does not parse back;
//   - one generation takes more than a second of CPU (an exponential capture search).
// Run: build-fuzz/tsuru_fuzz_movegen -max_total_time=60 CORPUS_DIR tests/fuzz/movegen_corpus
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "engine/rules/notation.hpp"
#include "tests/movegen_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tsuru;
  if (size < 2) return 0;
  const auto variants = all_variants();
  const Variant v = variants[data[0] % variants.size()];
  std::size_t at = 1;
  // Past the end the board is left empty (a byte of 0xFF places no piece).
  auto next = [&]() -> unsigned { return at < size ? data[at++] : 0xFFU; };
  const Position pos = test::random_position(v, next);
  // The fuzz build (coverage, ASan, UBSan) runs the generators about ten times slower than
  // Release. The slowest generation fuzzing has found, a Frisian king taking 21 of 23 kings
  // (movegen_corpus/frisian-21-kings), takes 10 ms in Release and 0.12 s here; a second of CPU is
  // far more than any position needs once each capture state is walked once, and far less than a
  // search of every path would take.
  const std::string error =
      test::check_generation(v, pos, {.max_seconds = 1.0, .path_budget = 20000});
  if (!error.empty()) {
    std::fprintf(stderr, "movegen check failed: %s %s: %s\n", std::string(info(v).name).c_str(),
                 notation::format_fen(v, pos).c_str(), error.c_str());
    std::abort();
  }
  return 0;
}
