// Which of up to 64 consecutive values equal a given one, as the bits of a word: the scan the
// counters method of the generator (generator.hpp, mark_level) makes of every value once per
// distance. On x86-64 eight values are compared at a time (SSE2, part of the base instruction
// set); elsewhere, or for the last values of a slice, one at a time. Both give the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "eval/egdb/format.hpp"

namespace tsuru::egdb {

// Bit k of the result is set when v[k] == target, for k < count (count <= 64).
inline std::uint64_t equal_bits_scalar(const Value* v, std::size_t count, Value target) {
  std::uint64_t bits = 0;
  for (std::size_t k = 0; k < count; ++k) bits |= static_cast<std::uint64_t>(v[k] == target) << k;
  return bits;
}

// The bits of v[k] == a and of v[k] == b at once (one pass over the values).
struct EqualBits {
  std::uint64_t a = 0, b = 0;
};

inline EqualBits equal_bits(const Value* v, std::size_t count, Value a, Value b) {
#if defined(__SSE2__)
  if (count == 64) {
    const __m128i va = _mm_set1_epi16(static_cast<short>(a)),
                  vb = _mm_set1_epi16(static_cast<short>(b));
    EqualBits r;
    for (int q = 0; q < 4; ++q) {  // 16 values a step: two loads of eight, packed to 16 bytes
      const auto* p = reinterpret_cast<const __m128i*>(v + 16 * q);
      const __m128i lo = _mm_loadu_si128(p), hi = _mm_loadu_si128(p + 1);
      // Equal lanes are 0xFFFF, which packs (signed saturation) to 0xFF; others 0 to 0.
      const auto mask = [&](__m128i t) {
        return static_cast<std::uint64_t>(static_cast<unsigned>(
            _mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(lo, t), _mm_cmpeq_epi16(hi, t)))));
      };
      r.a |= mask(va) << (16 * q);
      r.b |= mask(vb) << (16 * q);
    }
    return r;
  }
#endif
  return {equal_bits_scalar(v, count, a), equal_bits_scalar(v, count, b)};
}

}  // namespace tsuru::egdb
