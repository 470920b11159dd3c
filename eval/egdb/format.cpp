#include "eval/egdb/format.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "engine/rules/binary_io.hpp"
#include "eval/egdb/block_cache.hpp"
#include "eval/egdb/packed_values.hpp"
#include "eval/egdb/run_coder.hpp"

namespace tsuru::egdb {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'U', 'R', 'U', 'E', 'G', '\0'};
constexpr std::size_t kHeaderChecked = 132;

std::uint8_t symbol_of(Value v) {
  if (is_win(v)) return 1;
  if (is_loss(v)) return 2;
  return 0;
}

void encode_block(const std::vector<std::uint8_t>& symbols, std::vector<std::uint8_t>& out) {
  std::vector<std::uint8_t> raw{0};
  raw.resize(1 + (symbols.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < symbols.size(); ++i)
    raw[1 + i / 4] = static_cast<std::uint8_t>(raw[1 + i / 4] | (symbols[i] << (2 * (i % 4))));
  std::vector<std::uint8_t> runs{1};
  for (std::size_t i = 0; i < symbols.size();) {
    std::size_t j = i;
    while (j < symbols.size() && symbols[j] == symbols[i]) ++j;
    const std::size_t length = j - i;
    if (length < 64) {
      runs.push_back(static_cast<std::uint8_t>((std::size_t{symbols[i]} << 6) | (length - 1)));
    } else {
      runs.push_back(static_cast<std::uint8_t>(symbols[i] << 6 | 63));
      std::size_t rest = length - 64;
      do {
        const auto low = static_cast<std::uint8_t>(rest & 0x7F);
        rest >>= 7;
        runs.push_back(static_cast<std::uint8_t>(low | (rest ? 0x80 : 0)));
      } while (rest);
    }
    i = j;
    if (runs.size() >= raw.size()) break;  // raw wins anyway
  }
  const auto& best = runs.size() < raw.size() ? runs : raw;
  out.insert(out.end(), best.begin(), best.end());
}

}  // namespace

SliceCounts count_values(const std::vector<Value>& values) {
  SliceCounts c;
  c.positions = values.size();
  for (Value v : values) {
    if (v == kInvalid) {
      ++c.invalid;
      continue;
    }
    if (is_win(v))
      ++c.wins;
    else if (is_loss(v))
      ++c.losses;
    else
      ++c.draws;
    if (v != kUnknown)
      c.max_distance = std::max(c.max_distance, static_cast<std::uint32_t>(distance_of(v)));
  }
  return c;
}

namespace {

bool omitted(const std::vector<std::uint64_t>* omit, std::uint64_t i) {
  return omit && (((*omit)[i / 64] >> (i % 64)) & 1U);
}

// The file of n values, value(i) each, whose counts are c.
template <class ValueAt>
std::vector<std::uint8_t> encode(std::string_view rules, const Slice& slice, std::uint64_t n,
                                 const ValueAt& value, const SliceCounts& c, bool with_distance,
                                 const std::vector<std::uint64_t>* omit, std::uint32_t version,
                                 std::uint8_t omit_flags) {
  if (version != 1 && version != kVersion)
    throw std::invalid_argument("egdb format version " + std::to_string(version));
  if (omit_flags != kFlagCapturesOmitted &&
      omit_flags != (kFlagCapturesOmitted | kFlagThreatsOmitted))
    throw std::invalid_argument("egdb: threats are left out only with the captures");
  if (version == 1) omit = nullptr;  // version 1 stores every position
  const std::uint32_t block_positions = version == 1 ? kBlockPositionsV1 : kBlockPositions;
  const int distance_bytes = !with_distance ? 0 : c.max_distance < 256 ? 1 : 2;
  // Values, block by block; an index the probe never asks about (invalid, or omitted) repeats
  // the symbol before it, which lengthens that run.
  const auto block_count = static_cast<std::uint32_t>((n + block_positions - 1) / block_positions);
  std::vector<std::uint8_t> blocks;
  std::vector<std::uint32_t> offsets{0};
  std::vector<std::uint8_t> symbols;
  std::uint8_t last = 0;
  for (std::uint32_t b = 0; b < block_count; ++b) {
    symbols.clear();
    const std::uint64_t end = std::min<std::uint64_t>(n, std::uint64_t{b + 1} * block_positions);
    for (std::uint64_t i = std::uint64_t{b} * block_positions; i < end; ++i) {
      const Value v = value(i);
      if (v != kInvalid && !omitted(omit, i)) last = symbol_of(v);
      symbols.push_back(last);
    }
    if (version == 1)
      encode_block(symbols, blocks);
    else
      encode_runs(symbols, blocks);
    if (blocks.size() > 0xFFFFFFFFULL) throw std::runtime_error("slice too large for the format");
    offsets.push_back(static_cast<std::uint32_t>(blocks.size()));
  }
  std::vector<std::uint8_t> body;
  for (std::uint32_t o : offsets) put_le(body, o, 4);
  body.insert(body.end(), blocks.begin(), blocks.end());
  const std::uint64_t values_size = body.size();
  for (std::uint64_t i = 0; distance_bytes > 0 && i < n; ++i) {
    const Value v = value(i);
    const int d = (v == kInvalid || v == kUnknown) ? 0 : distance_of(v);
    put_le(body, static_cast<std::uint64_t>(d), distance_bytes);
  }
  std::vector<std::uint8_t> out(kMagic, kMagic + 8);
  put_le(out, version, 4);
  put_le(out, kHeaderSize, 4);
  char name[16] = {};
  std::memcpy(name, rules.data(), std::min<std::size_t>(rules.size(), 15));
  out.insert(out.end(), name, name + 16);
  for (int v : {slice.wm, slice.wk, slice.bm, slice.bk})
    put_le(out, static_cast<std::uint64_t>(v), 1);
  put_le(out, block_positions, 4);
  put_le(out, static_cast<std::uint64_t>(distance_bytes), 1);
  put_le(out, omit ? omit_flags : 0, 1);
  put_le(out, 0, 2);
  put_le(out, n, 8);
  put_le(out, c.wins, 8);
  put_le(out, c.draws, 8);
  put_le(out, c.losses, 8);
  put_le(out, c.invalid, 8);
  put_le(out, c.max_distance, 4);
  put_le(out, block_count, 4);
  put_le(out, kHeaderSize, 8);
  put_le(out, values_size, 8);
  put_le(out, kHeaderSize + values_size, 8);
  put_le(out, body.size() - values_size, 8);
  put_le(out, fnv1a(body.data(), body.size()), 8);
  put_le(out, fnv1a(out.data(), out.size()), 8);
  out.resize(kHeaderSize, 0);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

}  // namespace

std::vector<std::uint8_t> encode_slice(std::string_view rules, const Slice& slice,
                                       const std::vector<Value>& values, bool with_distance,
                                       const std::vector<std::uint64_t>* omit,
                                       std::uint32_t version, std::uint8_t omitted) {
  return encode(
      rules, slice, values.size(), [&](std::uint64_t i) { return values[i]; }, count_values(values),
      with_distance, omit, version, omitted);
}

std::vector<std::uint8_t> encode_slice(std::string_view rules, const Slice& slice,
                                       const PackedValues& values, const SliceCounts& counts,
                                       const std::vector<std::uint64_t>* omit,
                                       std::uint8_t omitted) {
  return encode(
      rules, slice, values.size(), [&](std::uint64_t i) { return values[i]; }, counts, false, omit,
      kVersion, omitted);
}

std::optional<std::string> header_problem(const std::uint8_t* data, std::size_t size,
                                          std::string_view rules, const Slice& expected) {
  if (size < kHeaderSize) return "too short for a header";
  if (std::memcmp(data, kMagic, 8) != 0) return "not an endgame database file";
  const auto version = get_le(data + 8, 4);
  if (version != 1 && version != kVersion)
    return "format version " + std::to_string(version) + ", expected 1 or " +
           std::to_string(kVersion) +
           " (a newer Tsuru wrote it: rebuild the databases with "
           "this one, tsuru egdb build)";
  if (get_le(data + 12, 4) != kHeaderSize) return "unexpected header size";
  if (get_le(data + kHeaderChecked, 8) != fnv1a(data, kHeaderChecked))
    return "header checksum mismatch";
  char name[17] = {};
  std::memcpy(name, data + 16, 16);
  if (std::string_view(name) != rules)
    return "built for rule set '" + std::string(name) + "', not '" + std::string(rules) + "'";
  const Slice s{data[32], data[33], data[34], data[35]};
  if (!(s == expected)) return "holds slice " + s.name() + ", not " + expected.name();
  return std::nullopt;
}

Expected<SliceView> SliceView::parse(const std::uint8_t* data, std::size_t size,
                                     std::string_view rules, const Slice& expected,
                                     std::uint64_t expected_positions, bool check_blocks) {
  using E = Expected<SliceView>;
  if (auto problem = header_problem(data, size, rules, expected)) return E::failure(*problem);
  SliceView v;
  v.data_ = data;
  v.block_positions_ = static_cast<std::uint32_t>(get_le(data + 36, 4));
  v.distance_bytes_ = data[40];
  v.version_ = static_cast<std::uint32_t>(get_le(data + 8, 4));
  v.flags_ = data[41];
  const unsigned known = kFlagCapturesOmitted | kFlagThreatsOmitted;
  if (v.version_ == 1 ? v.flags_ != 0 : (v.flags_ & ~known) != 0)
    return E::failure("unknown flags in the header");
  if (v.flags_ == kFlagThreatsOmitted)
    return E::failure("threat positions left out without the captures");
  v.counts_.positions = get_le(data + 44, 8);
  v.counts_.wins = get_le(data + 52, 8);
  v.counts_.draws = get_le(data + 60, 8);
  v.counts_.losses = get_le(data + 68, 8);
  v.counts_.invalid = get_le(data + 76, 8);
  v.counts_.max_distance = static_cast<std::uint32_t>(get_le(data + 84, 4));
  v.block_count_ = static_cast<std::uint32_t>(get_le(data + 88, 4));
  const std::uint64_t values_offset = get_le(data + 92, 8), values_size = get_le(data + 100, 8),
                      dist_offset = get_le(data + 108, 8), dist_size = get_le(data + 116, 8);
  const std::uint64_t n = v.counts_.positions;
  if (n != expected_positions)
    return E::failure("holds " + std::to_string(n) + " positions, the slice has " +
                      std::to_string(expected_positions));
  if (v.block_positions_ == 0 || v.distance_bytes_ > 2 ||
      v.block_count_ != (n + v.block_positions_ - 1) / v.block_positions_ ||
      v.counts_.wins + v.counts_.draws + v.counts_.losses + v.counts_.invalid != n)
    return E::failure("inconsistent header");
  if (values_offset != kHeaderSize || dist_offset != values_offset + values_size ||
      dist_offset + dist_size != size ||
      dist_size != n * static_cast<std::uint64_t>(v.distance_bytes_) ||
      values_size < 4 * (std::uint64_t{v.block_count_} + 1))
    return E::failure("file size " + std::to_string(size) + " does not match its header");
  if (get_le(data + 124, 8) != fnv1a(data + kHeaderSize, size - kHeaderSize))
    return E::failure("checksum mismatch: the file is damaged");
  v.offsets_ = data + values_offset;
  v.blocks_ = v.offsets_ + 4 * (std::uint64_t{v.block_count_} + 1);
  const std::uint64_t blocks_size = values_size - 4 * (std::uint64_t{v.block_count_} + 1);
  std::uint64_t previous = 0;
  for (std::uint32_t b = 0; b <= v.block_count_; ++b) {
    const std::uint64_t o = get_le(v.offsets_ + 4 * b, 4);
    if (o < previous || o > blocks_size || (b == 0 && o != 0))
      return E::failure("block table out of order");
    previous = o;
  }
  if (previous != blocks_size) return E::failure("block table does not cover the values");
  v.distances_ = v.distance_bytes_ ? data + dist_offset : nullptr;
  // Each block must decode to exactly its number of values (so a probe never runs off it).
  for (std::uint32_t b = 0; b < v.block_count_; ++b) {
    const std::uint8_t* p = v.blocks_ + get_le(v.offsets_ + 4 * b, 4);
    const std::uint8_t* end = v.blocks_ + get_le(v.offsets_ + 4 * (b + 1), 4);
    const std::uint64_t want =
        std::min<std::uint64_t>(v.block_positions_, n - std::uint64_t{b} * v.block_positions_);
    if (p == end) return E::failure("empty block");
    if (v.version_ == 2) {
      if (!check_blocks) continue;
      if (const auto why = decode_runs(p, static_cast<std::size_t>(end - p),
                                       static_cast<std::uint32_t>(want), nullptr))
        return E::failure(*why + " (block " + std::to_string(b) + ")");
      continue;
    }
    if (*p == 0) {
      if (static_cast<std::uint64_t>(end - p) != 1 + (want + 3) / 4)
        return E::failure("raw block of the wrong size");
      continue;
    }
    if (*p != 1) return E::failure("unknown block encoding");
    std::uint64_t got = 0;
    for (++p; p < end;) {
      const std::uint8_t byte = *p++;
      std::uint64_t length = (byte & 63U) + 1;
      if ((byte >> 6) == 3) return E::failure("bad value in a block");
      if ((byte & 63U) == 63) {
        std::uint64_t extra = 0;
        int shift = 0;
        while (true) {
          if (p == end || shift > 56) return E::failure("truncated run length");
          extra |= static_cast<std::uint64_t>(*p & 0x7F) << shift;
          shift += 7;
          if (!(*p++ & 0x80)) break;
        }
        length = 64 + extra;
      }
      got += length;
      if (got > want) return E::failure("block decodes to too many values");
    }
    if (got != want) return E::failure("block decodes to too few values");
  }
  return v;
}

namespace {

// One run of a run-length coded block (docs/formats.md): a byte with the symbol in its top two
// bits and the length - 1 in the low six; 63 there means 64 plus a little-endian base-128
// number that follows. Advances p past the run.
struct Run {
  unsigned symbol;
  std::uint64_t length;
};
Run next_run(const std::uint8_t*& p) {
  const std::uint8_t byte = *p++;
  std::uint64_t length = (byte & 63U) + 1;
  if ((byte & 63U) == 63) {
    std::uint64_t extra = 0;
    int shift = 0;
    while (true) {
      extra |= static_cast<std::uint64_t>(*p & 0x7F) << shift;
      shift += 7;
      if (!(*p++ & 0x80)) break;
    }
    length = 64 + extra;
  }
  return {static_cast<unsigned>(byte >> 6U), length};
}

}  // namespace

std::uint32_t SliceView::block_size_of(std::uint32_t b) const {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(
      block_positions_, counts_.positions - std::uint64_t{b} * block_positions_));
}

const std::uint8_t* SliceView::block_data(std::uint32_t b) const {
  return blocks_ + get_le(offsets_ + 4 * b, 4);
}

std::size_t SliceView::block_bytes(std::uint32_t b) const {
  return static_cast<std::size_t>(get_le(offsets_ + 4 * (b + 1), 4) - get_le(offsets_ + 4 * b, 4));
}

Wdl SliceView::wdl(std::uint64_t index) const {
  const auto b = static_cast<std::uint32_t>(index / block_positions_);
  const auto i = static_cast<std::uint32_t>(index % block_positions_);
  const std::uint8_t* p = block_data(b);
  if (version_ == 2) {
    if (!cache_) return static_cast<Wdl>(symbol_at(p, block_bytes(b), block_size_of(b), i));
    return static_cast<Wdl>(cache_->symbol(data_, b, i, [&](std::vector<std::uint8_t>& packed) {
      decode_packed(p, block_bytes(b), block_size_of(b), packed);
    }));
  }
  if (*p == 0) return static_cast<Wdl>((p[1 + i / 4] >> (2 * (i % 4))) & 3U);
  ++p;
  std::uint64_t at = 0;
  while (true) {
    const Run run = next_run(p);
    at += run.length;
    if (i < at) return static_cast<Wdl>(run.symbol);
  }
}

int SliceView::distance(std::uint64_t index) const {
  if (!distance_bytes_) return -1;
  return static_cast<int>(
      get_le(distances_ + index * static_cast<std::uint64_t>(distance_bytes_), distance_bytes_));
}

void SliceView::for_each_symbol(
    const std::function<void(std::uint64_t first, const std::uint8_t* symbols, std::uint64_t n)>& f)
    const {
  std::vector<std::uint8_t> symbols;
  for (std::uint32_t b = 0; b < block_count_; ++b) {
    const std::uint8_t* p = blocks_ + get_le(offsets_ + 4 * b, 4);
    const std::uint64_t first = std::uint64_t{b} * block_positions_;
    const std::uint64_t n = std::min<std::uint64_t>(block_positions_, counts_.positions - first);
    if (version_ == 2) {
      decode_runs(p, block_bytes(b), block_size_of(b), &symbols);
    } else if (*p == 0) {
      symbols.resize(n);
      for (std::uint64_t i = 0; i < n; ++i)
        symbols[i] = static_cast<std::uint8_t>((p[1 + i / 4] >> (2 * (i % 4))) & 3U);
    } else {
      ++p;
      symbols.clear();
      for (std::uint64_t at = 0; at < n;) {
        const Run run = next_run(p);
        symbols.insert(symbols.end(), run.length, static_cast<std::uint8_t>(run.symbol));
        at += run.length;
      }
    }
    f(first, symbols.data(), n);
  }
}

namespace {
// A block symbol (Wdl: 0 draw, 1 win, 2 loss; 3, an index the file does not care about, reads
// as a draw) as a value with distance d.
Value value_of(unsigned symbol, Value d = 0) {
  return symbol == 1 ? Value(kWinFlag | d) : symbol == 2 ? Value(kLossFlag | d) : kUnknown;
}
}  // namespace

std::vector<Value> SliceView::decode_all() const {
  std::vector<Value> out(counts_.positions);
  for_each_symbol([&](std::uint64_t first, const std::uint8_t* symbols, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto d = static_cast<Value>(distance_bytes_ ? distance(first + i) : 0);
      out[first + i] = value_of(symbols[i], d);
    }
  });
  return out;
}

PackedValues SliceView::decode_wdl() const {
  PackedValues out(counts_.positions);
  for_each_symbol([&](std::uint64_t first, const std::uint8_t* symbols, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) out.set_alone(first + i, value_of(symbols[i]));
  });
  return out;
}

}  // namespace tsuru::egdb
