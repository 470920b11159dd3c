// libFuzzer target (clang, -DTSURU_FUZZ=ON): the endgame database file format. An input whose
// first byte is even is a file image (the seeds, which start with the magic's T): it goes to the
// reader, egdb::SliceView::parse, expected as each slice of up to three pieces of English and
// international (the header names one; the others refuse it: damaged headers, sizes, offsets,
// checksums). An odd first byte makes the rest a slice's values (runs of wins, draws and losses
// with distances), which encode_slice writes: as the checksums guard the blocks of a file, this
// is how the block encoder and decoder meet every pattern. Aborts when
//   - a slice that parses cannot be read at every index (the sanitizers watch the decoder);
//   - values written with encode_slice do not parse and read back the same.
// Run: build-fuzz/tsuru_fuzz_egdb -max_total_time=30 CORPUS_DIR (seeds: small slice files)
#include <cstdint>
#include <vector>

#include "eval/egdb/database.hpp"
#include "eval/egdb/format.hpp"
#include "eval/egdb/plan.hpp"
#include "tests/fuzz/check.hpp"

using tsuru::fuzz::check;

namespace {

// Values for a slice from the fuzz bytes: each byte a run (value in the top two bits, length in
// the others, some runs long), each win or loss with a distance from the next byte.
std::vector<tsuru::egdb::Value> values_from(const std::uint8_t* data, std::size_t size,
                                            std::uint64_t positions, bool long_distances) {
  using namespace tsuru::egdb;
  std::vector<Value> values;
  values.reserve(positions);
  std::size_t at = 0;
  auto next = [&]() -> unsigned { return at < size ? data[at++] : 0U; };
  while (values.size() < positions) {
    const unsigned b = next();
    const unsigned kind = b >> 6;
    std::uint64_t run = (b & 31U) + 1;
    if (b & 32U) run *= 97;
    Value v = kUnknown;
    if (kind == 1 || kind == 2) {
      unsigned d = next();
      if (long_distances) d = d * 37 % (kDistanceMask + 1);
      v = static_cast<Value>((kind == 1 ? kWinFlag : kLossFlag) | (d & kDistanceMask));
    }
    for (; run > 0 && values.size() < positions; --run) values.push_back(v);
  }
  return values;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tsuru;
  if (size > 2 && (data[0] & 1)) {
    const Variant v = data[1] & 1 ? Variant::International : Variant::English;
    const std::string rules(info(v).name);
    const std::vector<egdb::Slice> slices = egdb::slices_with(2 + (data[1] >> 1 & 1));
    const egdb::Slice slice = slices[(data[1] >> 2) % slices.size()];
    const std::uint64_t positions = egdb::slice_size(egdb::layout_of(v), slice);
    const bool with_distance = (data[2] & 1) != 0;
    const std::vector<egdb::Value> values =
        values_from(data + 3, size - 3, positions, (data[2] & 2) != 0);
    const std::vector<std::uint8_t> image = egdb::encode_slice(rules, slice, values, with_distance);
    const auto view = egdb::SliceView::parse(image.data(), image.size(), rules, slice, positions);
    check(view.ok());
    const std::vector<egdb::Value> back = view->decode_all();
    check(back.size() == values.size());
    for (std::uint64_t i = 0; i < positions; ++i) {
      const egdb::Value want =
          with_distance ? values[i] : static_cast<egdb::Value>(values[i] & ~egdb::kDistanceMask);
      check((back[i] & (egdb::kWinFlag | egdb::kLossFlag)) ==
            (want & (egdb::kWinFlag | egdb::kLossFlag)));
      if (with_distance) check(back[i] == want);
    }
    return 0;
  }
  for (Variant v : {Variant::English, Variant::International}) {
    const std::string rules(info(v).name);
    const egdb::Layout layout = egdb::layout_of(v);
    for (int pieces = 2; pieces <= 3; ++pieces) {
      for (const egdb::Slice& slice : egdb::slices_with(pieces)) {
        const std::uint64_t positions = egdb::slice_size(layout, slice);
        const auto view = egdb::SliceView::parse(data, size, rules, slice, positions);
        if (!view) continue;
        const std::vector<egdb::Value> values = view->decode_all();
        check(values.size() == positions);
        for (std::uint64_t i = 0; i < positions; i += 1 + positions / 64) {
          (void)view->wdl(i);
          (void)view->distance(i);
        }
        const std::vector<std::uint8_t> image =
            egdb::encode_slice(rules, slice, values, view->has_distance());
        const auto again =
            egdb::SliceView::parse(image.data(), image.size(), rules, slice, positions);
        check(again.ok() && again->decode_all() == values);
      }
    }
  }
  return 0;
}
