// Move generation against published perft counts (tests/data/perft.tsv).
#include <catch2/catch.hpp>

#include "engine/legal.hpp"
#include "engine/perft.hpp"
#include "protocol/notation.hpp"
#include "tests/reference_data.hpp"

using namespace tsuru;

namespace {

// The rule set of a table row: its name, or "thai-3row", dctl's Thai series from a 12-man start
// (three rows each): Thai rules from the FEN the row gives.
std::optional<Variant> row_variant(const std::string& name) {
  if (name == "thai-3row") return Variant::Thai;
  return parse_variant(name);
}

// Checks every row of the implemented rule sets with at most max_nodes nodes; returns how many.
int check_rows(std::uint64_t min_nodes, std::uint64_t max_nodes) {
  int checked = 0;
  for (const test::PerftRow& row : test::perft_rows()) {
    const auto v = row_variant(row.variant);
    if (!v || row.nodes < min_nodes || row.nodes > max_nodes) continue;
    const auto pos = notation::parse_fen(*v, row.fen);
    INFO(row.variant << " " << row.duplicates << " " << row.fen << " depth " << row.depth);
    REQUIRE(pos.ok());
    if (row.duplicates != "kept") {
      CHECK(perft(*v, *pos, row.depth, {.bulk = true, .keep_duplicates = false}) == row.nodes);
    }
    if (row.duplicates != "removed") {
      CHECK(perft(*v, *pos, row.depth, {.bulk = true, .keep_duplicates = true}) == row.nodes);
    }
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("perft equals every fast reference entry", "[perft]") {
  CHECK(check_rows(0, 3'000'000) > 100);
}

TEST_CASE("perft without bulk counting agrees with bulk counting", "[perft]") {
  for (Variant v : all_variants()) {
    const Position start = start_position(v);
    for (int d = 1; d <= 6; ++d)
      CHECK(perft(v, start, d, {.bulk = false}) == perft(v, start, d, {.bulk = true}));
  }
  const auto pos = notation::parse_fen(Variant::International, "W:WK1,26:B12,24,31,42,K44");
  REQUIRE(pos.ok());
  CHECK(perft(Variant::International, *pos, 4, {.bulk = false}) == 3223);
}

// Deep entries (up to 2e9 nodes each): a minute or two of work, run by .ci/run only (`tsuru_tests
// "[.deep]"`).
TEST_CASE("perft equals the deep reference entries", "[.deep][perft]") {
  CHECK(check_rows(3'000'001, 2'000'000'000) > 10);
}
