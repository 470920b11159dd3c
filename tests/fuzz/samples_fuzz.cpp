// libFuzzer target (clang, -DTSURU_FUZZ=ON): the training sample format. An input whose first
// byte is even is a file image (the seeds, which start with the magic's T) for the reader,
// train::decode_samples, for every rule set (the header names one; the others refuse it:
// damaged headers, counts, sizes, checksums, records); an odd first byte makes the rest samples
// of one rule set's board, which are encoded and decoded. Aborts when
//   - decoded samples do not encode back to the same bytes, or decode again to themselves;
//   - a decoded sample is no position of the rule set's board (pieces off it, both sides on a
//     square, kings that are no pieces), or its legal moves cannot be generated.
// Run: build-fuzz/tsuru_fuzz_samples -max_total_time=30 CORPUS_DIR
#include <cstdint>
#include <vector>

#include "engine/rules/legal.hpp"
#include "tests/fuzz/check.hpp"
#include "tools/train/sample.hpp"

using tsuru::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tsuru;
  if (size > 2 && (data[0] & 1)) {
    const auto variants = all_variants();
    const Variant v = variants[data[1] % variants.size()];
    const Bitboard board = info(v).board.valid;
    std::vector<train::Sample> samples;
    for (std::size_t at = 2; at + 16 <= size; at += 16) {
      const std::uint8_t* p = data + at;
      Bitboard a = 0, b = 0;
      for (int i = 0; i < 8; ++i) {
        a |= Bitboard{p[i]} << (8 * i);
        b |= Bitboard{static_cast<std::uint8_t>(p[i] ^ 0x5A)} << (8 * ((i + 3) % 8));
      }
      train::Sample s;
      s.white = a & board;
      s.black = b & board & ~s.white;
      s.kings = (a ^ b) & (s.white | s.black);
      s.game = static_cast<std::uint32_t>(p[8] | p[9] << 8 | p[10] << 16);
      s.ply = static_cast<std::uint16_t>(p[11] | p[12] << 8);
      s.score = static_cast<std::int16_t>(static_cast<std::uint16_t>(p[13] | p[14] << 8));
      s.turn = p[15] & 1 ? Side::Black : Side::White;
      s.result = static_cast<std::int8_t>(p[15] >> 1 & 1 ? 0 : (p[15] >> 2 & 1 ? 1 : -1));
      samples.push_back(s);
    }
    const auto back = train::decode_samples(v, train::encode_samples(v, samples));
    check(back.ok() && *back == samples);
    return 0;
  }
  const std::vector<std::uint8_t> bytes(data, data + size);
  for (Variant v : all_variants()) {
    const auto samples = train::decode_samples(v, bytes);
    if (!samples) continue;
    const std::vector<std::uint8_t> image = train::encode_samples(v, *samples);
    const auto again = train::decode_samples(v, image);
    check(again.ok() && *again == *samples);
    const Bitboard board = info(v).board.valid;
    for (const train::Sample& s : *samples) {
      check(!(s.white & s.black));
      check(!((s.white | s.black) & ~board));
      check(!(s.kings & ~(s.white | s.black)));
      check(s.result >= -1 && s.result <= 1);
      (void)legal_moves(v, s.position()).size();
    }
  }
  return 0;
}
