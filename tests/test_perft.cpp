// Move generation against published perft counts (tests/data/perft.tsv).
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "engine/rules/perft.hpp"
#include "tests/reference_data.hpp"

using namespace tsuru;

namespace {

// The rule set of a table row: its name, or "thai-3row", dctl's Thai series from a 12-man start
// (three rows each): Thai rules from the FEN the row gives.
std::optional<Variant> row_variant(const std::string& name) {
  if (name == "thai-3row") return Variant::Thai;
  return parse_variant(name);
}

// The rows of one position under one duplicate convention, checked in a single traversal.
struct Series {
  Variant variant;
  std::string name, fen;
  bool keep_duplicates;
  std::vector<const test::PerftRow*> rows;
};

// Checks every row with min_nodes..max_nodes nodes of the implemented rule sets (both
// conventions for `same` rows), one perft_levels traversal per series; returns the row count.
// `only` (when not empty) and `except` select rows by the table's variant name.
int check_rows(std::uint64_t min_nodes, std::uint64_t max_nodes,
               const std::set<std::string>& only = {}, const std::set<std::string>& except = {}) {
  static const std::vector<test::PerftRow> all = test::perft_rows();
  std::vector<Series> series;
  int checked = 0;
  for (const test::PerftRow& row : all) {
    const auto v = row_variant(row.variant);
    if (!v || row.nodes < min_nodes || row.nodes > max_nodes) continue;
    if ((!only.empty() && !only.count(row.variant)) || except.count(row.variant)) continue;
    ++checked;
    for (bool keep : {false, true}) {
      if (row.duplicates == (keep ? "removed" : "kept")) continue;
      auto it = std::find_if(series.begin(), series.end(), [&](const Series& s) {
        return s.name == row.variant && s.fen == row.fen && s.keep_duplicates == keep;
      });
      if (it == series.end())
        it = series.insert(series.end(), {*v, row.variant, row.fen, keep, {}});
      it->rows.push_back(&row);
    }
  }
  for (const Series& s : series) {
    INFO(s.name << " " << (s.keep_duplicates ? "kept" : "removed") << " " << s.fen);
    const auto pos = notation::parse_fen(s.variant, s.fen);
    REQUIRE(pos.ok());
    int depth = 0;
    for (const test::PerftRow* r : s.rows) depth = std::max(depth, r->depth);
    const std::vector<std::uint64_t> counts =
        perft_levels(s.variant, *pos, depth, s.keep_duplicates);
    for (const test::PerftRow* r : s.rows) {
      INFO("depth " << r->depth);
      CHECK(counts[static_cast<std::size_t>(r->depth - 1)] == r->nodes);
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("perft equals every fast reference entry", "[perft]") {
  CHECK(check_rows(0, 3'000'000) >= 450);
}

TEST_CASE("perft_levels gives perft of every depth", "[perft]") {
  for (Variant v : all_variants()) {
    const Position start = start_position(v);
    for (bool keep : {false, true}) {
      const std::vector<std::uint64_t> levels = perft_levels(v, start, 5, keep);
      REQUIRE(levels.size() == 5);
      for (int d = 1; d <= 5; ++d)
        CHECK(levels[static_cast<std::size_t>(d - 1)] ==
              perft(v, start, d, {.bulk = true, .keep_duplicates = keep}));
    }
  }
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

// Deep entries: a few minutes of work, run by .ci/run only (`tsuru_tests "[.deep]"`): English
// and international up to 2e9 nodes per entry, the other rule sets up to 5e8 (their generators
// are slower and their tables longer). The rest of the table, up to 2e9 nodes, is
// `tsuru_tests "[.deeper]"` (about five more minutes), also run by .ci/run.
TEST_CASE("perft equals the deep reference entries", "[.deep][perft]") {
  CHECK(check_rows(3'000'001, 2'000'000'000, {"english", "international"}) > 10);
  CHECK(check_rows(3'000'001, 500'000'000, {}, {"english", "international"}) > 50);
}

TEST_CASE("perft equals the deeper reference entries", "[.deeper][perft]") {
  CHECK(check_rows(500'000'001, 2'000'000'000, {}, {"english", "international"}) > 10);
}
