// The endgame databases' index at its lowest level: the level scan's bit masks, subsets and
// their colex ranks on any board, and the unranking of large slices (eval/egdb/index.hpp,
// eval/egdb/value_marks.hpp). No database is built here.
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "eval/egdb/database.hpp"
#include "eval/egdb/index.hpp"
#include "eval/egdb/value_marks.hpp"

namespace tsuru {

TEST_CASE("the level scan's bits are the values equal to a distance's, vector or not", "[egdb]") {
  // Values drawn from a few that differ in one bit, high bits included (the loss flag), so a
  // wrong lane, shift or signed comparison shows.
  using egdb::EqualBits, egdb::Value;
  const Value pool[] = {0, 1, 0x4001, 0x8001, 0xC001, 0x4002, 0xFFFF, 0x7FFF, 0x8000};
  std::mt19937_64 rng(5);
  std::vector<Value> values(64 * 40 + 17);
  for (Value& v : values) v = pool[rng() % std::size(pool)];
  for (std::size_t base = 0; base < values.size(); base += 64) {
    const std::size_t count = std::min<std::size_t>(64, values.size() - base);
    for (Value a : pool)
      for (Value b : {Value{0x4001}, Value{0x8000}, Value{0xFFFF}}) {
        const EqualBits bits = egdb::equal_bits(values.data() + base, count, a, b);
        std::uint64_t want_a = 0, want_b = 0;
        for (std::size_t k = 0; k < count; ++k) {
          if (values[base + k] == a) want_a |= std::uint64_t{1} << k;
          if (values[base + k] == b) want_b |= std::uint64_t{1} << k;
        }
        REQUIRE(bits.a == want_a);
        REQUIRE(bits.b == want_b);
      }
  }
}

TEST_CASE("subsets unrank to the set of their rank, by table, by search and on any board",
          "[egdb]") {
  using egdb::SquareSet;
  std::mt19937_64 rng(11);
  // The x-th square of available, by walking it: the reference for the deposit (pdep).
  const auto nth = [](SquareSet available, int x) {
    for (; x > 0; --x) available &= available - 1;
    return SquareSet{1} << std::countr_zero(available);
  };
  for (int round = 0; round < 20000; ++round) {
    // Boards of 32 and 50 squares with some squares taken (men, kings placed before).
    const int squares = round % 2 ? 32 : 50;
    const SquareSet all = (SquareSet{1} << squares) - 1;
    const SquareSet available = all & ~(rng() & rng() & rng());
    const int n = std::popcount(available);
    const int k = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(std::min(n, 9)));
    // Any k of them: the table's ranks (all in the lowest 32) and the search's alike.
    SquareSet compact = 0;
    while (std::popcount(compact) < k)
      compact |= SquareSet{1} << (rng() % static_cast<unsigned>(n));
    SquareSet chosen = 0;
    for (SquareSet c = compact; c; c &= c - 1) chosen |= nth(available, std::countr_zero(c));
    REQUIRE(egdb::deposit_portable(compact, available) == chosen);
    const std::uint64_t r = egdb::subset_rank(chosen, available);
    REQUIRE(r < egdb::binomial(n, k));
    REQUIRE(egdb::subset_unrank(r, k, available) == chosen);
  }
  // Every 4-subset of 32 squares in order of rank: the whole table for k = 4.
  const SquareSet board = (SquareSet{1} << 32) - 1;
  SquareSet previous = 0;
  for (std::uint64_t r = 0; r < egdb::binomial(32, 4); ++r) {
    const SquareSet s = egdb::subset_unrank(r, 4, board);
    REQUIRE(std::popcount(s) == 4);
    REQUIRE(s > previous);  // colex order is the order of the words
    REQUIRE(egdb::subset_rank(s, board) == r);
    previous = s;
  }
}

TEST_CASE("large slices unrank every index they rank, up to the last", "[egdb]") {
  // The unranker divides by reciprocals: exact only while index * radix < 2^64, which it checks
  // per slice. Slices of 7 and 8 pieces on both boards, indices at random and at the ends.
  std::mt19937_64 rng(3);
  for (Variant v : {Variant::English, Variant::International}) {
    const egdb::Layout l = egdb::layout_of(v);
    for (const egdb::Slice s :
         {egdb::Slice{2, 1, 2, 2}, egdb::Slice{0, 3, 1, 3}, egdb::Slice{4, 0, 3, 0},
          egdb::Slice{1, 3, 1, 3}, egdb::Slice{0, 1, 0, 7}}) {
      const std::uint64_t n = egdb::slice_size(l, s);
      const egdb::SliceUnranker unrank(l, s);
      std::uint64_t valid = 0;
      for (int k = 0; k < 20000; ++k) {
        const std::uint64_t i = k < 64 ? n - 1 - static_cast<std::uint64_t>(k) : rng() % n;
        const auto p = unrank(i);
        if (!p) continue;
        ++valid;
        REQUIRE(egdb::rank(l, s, *p) == i);
        REQUIRE(std::popcount(p->wm) == s.wm);
        REQUIRE(std::popcount(p->bk) == s.bk);
      }
      REQUIRE(valid > 10000);
    }
  }
}

}  // namespace tsuru
