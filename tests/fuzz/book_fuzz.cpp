// libFuzzer target (clang, -DTSURU_FUZZ=ON): the opening book format. An input whose first byte
// is even is a file image (the seeds, which start with the magic's T) for the reader,
// book::decode, for every rule set (the header names one; the others refuse it: damaged headers,
// record counts, sizes, checksums, records out of order); an odd first byte makes the rest
// records (keys, scores, depths and legal moves of positions a few plies in), which are encoded
// and decoded. Aborts when
//   - a decoded book does not encode and decode back to the same records;
//   - a book built from the records misbehaves when asked for the start position's moves.
// Run: build-fuzz/tsuru_fuzz_book -max_total_time=30 CORPUS_DIR (seeds: book/data/*.book)
#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "book/book.hpp"
#include "book/format.hpp"
#include "engine/rules/legal.hpp"
#include "tests/fuzz/check.hpp"

using tsuru::fuzz::check;

namespace {

// The records in one order, for comparing two lists as sets with repeats.
std::vector<tsuru::book::Record> ordered(std::vector<tsuru::book::Record> records) {
  auto fields = [](const tsuru::book::Record& r) {
    return std::tie(r.key, r.move.from, r.move.to, r.move.captured, r.move.crowns, r.score,
                    r.depth);
  };
  std::sort(records.begin(), records.end(),
            [&](const auto& a, const auto& b) { return fields(a) < fields(b); });
  return records;
}

bool same(const std::vector<tsuru::book::Record>& a, const std::vector<tsuru::book::Record>& b) {
  if (a.size() != b.size()) return false;
  const auto x = ordered(a), y = ordered(b);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!(x[i].key == y[i].key && x[i].move == y[i].move && x[i].score == y[i].score &&
          x[i].depth == y[i].depth))
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tsuru;
  if (size > 2 && (data[0] & 1)) {
    const auto variants = all_variants();
    const Variant v = variants[data[1] % variants.size()];
    std::vector<book::Record> records;
    Position pos = start_position(v);
    for (std::size_t at = 2; at + 12 <= size; at += 12) {
      const std::uint8_t* p = data + at;
      MoveList moves = legal_moves(v, pos);
      if (moves.empty()) pos = start_position(v), moves = legal_moves(v, pos);
      book::Record r;
      r.key = 0;
      for (int i = 0; i < 8; ++i) r.key |= Key{p[i]} << (8 * i);
      r.move = moves[p[8] % moves.size()];
      r.score = static_cast<std::int16_t>(static_cast<std::uint16_t>(p[9] | p[10] << 8));
      r.depth = p[11];
      records.push_back(r);
      pos = pos.after(r.move);
    }
    const auto back = book::decode(v, book::encode(v, records));
    check(back.ok() && same(*back, records));
    return 0;
  }
  const std::vector<std::uint8_t> bytes(data, data + size);
  for (Variant v : all_variants()) {
    const auto records = book::decode(v, bytes);
    if (!records) continue;
    const auto again = book::decode(v, book::encode(v, *records));
    check(again.ok() && same(*again, *records));
    const book::Book b(v, *records);
    const Position start = start_position(v);
    const MoveList legal = legal_moves(v, start);
    for (const book::BookMove& m : b.moves(start)) check(legal.contains(m.move));
    std::mt19937_64 rng(size);
    if (const auto m = b.choose(start, 20, rng)) check(legal.contains(m->move));
  }
  return 0;
}
