#include "eval/pattern_weights.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/legal.hpp"
#include "eval/embedded_weights.hpp"

namespace tsuru::eval {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'U', 'R', 'U', 'E', 'V', '\0'};
constexpr int kGroups = 6;
// The largest file of the first version: sixteen regions (10x10), uncoded.
constexpr std::uint64_t kMaxV1Weights =
    std::uint64_t{kMaxRegions} * kRegionStates * kPhases + kPhases * kV1LinearCount;
// The largest body of this version: every weight of a 10x10 set, none zero, with the run
// counts (at most 3 bytes each per weight in the worst coding) and group headers.
constexpr std::uint64_t kMaxBody = 3 * (std::uint64_t{kMaxRegions} * kRegionStates * kPhases +
                                        std::uint64_t{kMaxWide} * kWideStates * kPhases +
                                        std::uint64_t{kMaxRegions + 1} * kKingStates * kPhases +
                                        2 * kMaxSquares * kPhases + kPhases * kLinearCount) +
                                   8 * kGroups;

std::string header_name(const std::uint8_t* h) {
  return {reinterpret_cast<const char*>(h + 16),
          strnlen(reinterpret_cast<const char*>(h + 16), 16)};
}

void put_leb(std::vector<std::uint8_t>& out, std::uint64_t x) {
  do {
    const auto low = static_cast<std::uint8_t>(x & 0x7f);
    x >>= 7;
    out.push_back(x ? low | 0x80 : low);
  } while (x);
}

// Zero runs and runs of other weights, alternately, to the group's end.
std::vector<std::uint8_t> code_group(const std::vector<std::int16_t>& w) {
  std::vector<std::uint8_t> out;
  std::size_t i = 0;
  while (i < w.size()) {
    std::size_t zeros = 0;
    while (i + zeros < w.size() && w[i + zeros] == 0) ++zeros;
    i += zeros;
    std::size_t n = 0;
    while (i + n < w.size() && w[i + n] != 0) ++n;
    put_leb(out, zeros);
    put_leb(out, n);
    for (std::size_t k = 0; k < n; ++k) put_le(out, static_cast<std::uint16_t>(w[i + k]), 2);
    i += n;
  }
  return out;
}

// Reads a coded group of `count` weights from [p, end); false when the runs do not cover it
// exactly.
bool decode_group(const std::uint8_t* p, const std::uint8_t* end, std::vector<std::int16_t>& w) {
  auto leb = [&](std::uint64_t& x) {
    x = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (p == end) return false;
      const std::uint8_t b = *p++;
      x |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  std::size_t i = 0;
  while (p != end) {
    std::uint64_t zeros = 0, n = 0;
    if (!leb(zeros) || zeros > w.size() - i) return false;
    std::fill_n(w.begin() + static_cast<std::ptrdiff_t>(i), zeros, std::int16_t{0});
    i += zeros;
    if (!leb(n) || n > w.size() - i || static_cast<std::uint64_t>(end - p) < 2 * n) return false;
    for (std::uint64_t k = 0; k < n; ++k, p += 2)
      w[i++] = static_cast<std::int16_t>(static_cast<std::uint16_t>(get_le(p, 2)));
  }
  return i == w.size();
}

// The groups of a weights set in file order (the linear terms copied out and back).
std::vector<std::int16_t> linear_weights(const PatternWeights& w) {
  std::vector<std::int16_t> out;
  for (const auto& phase : w.linear) out.insert(out.end(), phase.begin(), phase.end());
  return out;
}

Expected<PatternWeights> decode_v1(Variant v, const std::uint8_t* h, std::size_t size) {
  using E = Expected<PatternWeights>;
  const std::uint64_t regions = get_le(h + 40, 4);
  if (regions != static_cast<std::uint64_t>(region_count(v)) || get_le(h + 44, 4) != kV1LinearCount)
    return E::failure("weights file does not have the features of its version (" +
                      std::to_string(regions) + " regions, " + std::to_string(get_le(h + 44, 4)) +
                      " linear terms)");
  const std::uint64_t count = get_le(h + 12, 4);
  if (count != regions * kRegionStates * kPhases + kPhases * kV1LinearCount ||
      count > kMaxV1Weights)
    return E::failure("weights file gives an inconsistent weight count");
  if (size != kWeightsHeaderSize + 2 * count)
    return E::failure("weights file is truncated or has trailing bytes (" + std::to_string(size) +
                      " bytes, the header gives " + std::to_string(kWeightsHeaderSize + 2 * count) +
                      ")");
  const std::uint8_t* body = h + kWeightsHeaderSize;
  if (fnv1a(body, static_cast<std::size_t>(2 * count)) != get_le(h + 48, 8))
    return E::failure("weights file checksum mismatch (damaged file)");
  if (get_le(h + 56, 8) != 0) return E::failure("weights file has a non-zero reserved field");
  PatternWeights w = PatternWeights::zero(v);
  const std::uint8_t* p = body;
  for (std::int16_t& x : w.region) {
    x = static_cast<std::int16_t>(static_cast<std::uint16_t>(get_le(p, 2)));
    p += 2;
  }
  for (auto& phase : w.linear)
    for (std::size_t k = 0; k < kV1LinearCount; ++k, p += 2)
      phase[k] = static_cast<std::int16_t>(static_cast<std::uint16_t>(get_le(p, 2)));
  return w;
}

}  // namespace

bool has_patterns(Variant v) {
  return with_rules(v, []<class R>(R) { return kPatternRules<R>; });
}

int wide_count(Variant v) {
  return with_rules(v, []<class R>(R) {
    if constexpr (kPatternRules<R>) {
      return WideLayout<typename R::Geometry>::kWindows;
    } else {
      return 0;
    }
  });
}

int region_count(Variant v) {
  return with_rules(v, []<class R>(R) {
    if constexpr (kPatternRules<R>) {
      return PatternLayout<typename R::Geometry>::kRegions;
    } else {
      return 0;
    }
  });
}

PatternWeights PatternWeights::zero(Variant v, bool king_regions, bool wide_windows) {
  PatternWeights w;
  w.variant = v;
  w.regions = region_count(v);
  w.squares = info(v).board.squares;
  const auto regions = static_cast<std::size_t>(w.regions);
  w.region.assign(regions * kRegionStates * kPhases, 0);
  if (wide_windows)
    w.wide.assign(static_cast<std::size_t>(wide_count(v)) * kWideStates * kPhases, 0);
  w.king_shared.assign(std::size_t{kKingStates} * kPhases, 0);
  if (king_regions) w.king_region.assign(regions * kKingStates * kPhases, 0);
  w.king_square.assign(2 * static_cast<std::size_t>(w.squares) * kPhases, 0);
  return w;
}

std::vector<std::uint8_t> encode_weights(const PatternWeights& w) {
  std::vector<std::uint8_t> body;
  for (const auto* group : {&w.region, &w.wide, &w.king_shared, &w.king_region, &w.king_square}) {
    const auto coded = code_group(*group);
    put_le(body, group->size(), 4);
    put_le(body, coded.size(), 4);
    body.insert(body.end(), coded.begin(), coded.end());
  }
  const auto linear = linear_weights(w);
  const auto coded = code_group(linear);
  put_le(body, linear.size(), 4);
  put_le(body, coded.size(), 4);
  body.insert(body.end(), coded.begin(), coded.end());

  std::vector<std::uint8_t> out(kMagic, kMagic + 8);
  out.reserve(kWeightsHeaderSize + body.size());
  put_le(out, kWeightsVersion, 4);
  put_le(out, kGroups, 4);
  const std::string_view name = info(w.variant).name;
  for (std::size_t i = 0; i < 16; ++i)
    out.push_back(i < name.size() ? static_cast<std::uint8_t>(name[i]) : 0);
  put_le(out, start_position(w.variant).key(), 8);
  put_le(out, static_cast<std::uint64_t>(w.regions), 4);
  put_le(out, kLinearCount, 4);
  put_le(out, fnv1a(body.data(), body.size()), 8);
  put_le(out, (w.kings_only ? 1u : 0u) | (w.on_classic ? 2u : 0u), 8);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

Expected<PatternWeights> decode_weights(std::span<const std::uint8_t> bytes) {
  using E = Expected<PatternWeights>;
  const std::uint8_t* h = bytes.data();
  if (bytes.size() < kWeightsHeaderSize)
    return E::failure("not a Tsuru weights file (file too short)");
  if (std::memcmp(h, kMagic, 8) != 0) return E::failure("not a Tsuru weights file (bad magic)");
  const std::uint64_t version = get_le(h + 8, 4);
  if (version != 1 && version != kWeightsVersion)
    return E::failure("weights format version " + std::to_string(version) +
                      " is not supported (expected 1 or " + std::to_string(kWeightsVersion) + ")");
  const std::string name = header_name(h);
  const auto v = parse_variant(name);
  if (!v || info(*v).name != name)
    return E::failure("weights are for an unknown rule set '" + name + "'");
  if (!has_patterns(*v)) return E::failure("rule set '" + name + "' has no pattern evaluation");
  if (get_le(h + 32, 8) != start_position(*v).key())
    return E::failure("weights were written with a different board layout or keys");
  if (version == 1) return decode_v1(*v, h, bytes.size());

  const std::uint64_t regions = get_le(h + 40, 4);
  if (get_le(h + 12, 4) != kGroups || regions != static_cast<std::uint64_t>(region_count(*v)) ||
      get_le(h + 44, 4) != kLinearCount)
    return E::failure("weights file does not have the features of this version (" +
                      std::to_string(get_le(h + 12, 4)) + " groups, " + std::to_string(regions) +
                      " regions, " + std::to_string(get_le(h + 44, 4)) + " linear terms)");
  if (bytes.size() - kWeightsHeaderSize > kMaxBody)
    return E::failure("weights file is too large (" + std::to_string(bytes.size()) + " bytes)");
  const std::uint8_t* const body = h + kWeightsHeaderSize;
  const std::uint8_t* const end = bytes.data() + bytes.size();
  const char* names[kGroups] = {"men windows",         "wide windows", "king windows",
                                "region king windows", "king squares", "linear terms"};
  // The groups' extents first, so that a cut or padded file says so rather than failing its
  // checksum.
  std::array<const std::uint8_t*, kGroups> at{};
  const std::uint8_t* p = body;
  for (int g = 0; g < kGroups; ++g) {
    if (end - p < 8 || get_le(p + 4, 4) > static_cast<std::uint64_t>(end - p - 8))
      return E::failure("weights file is truncated (in its " + std::string(names[g]) + ")");
    at[static_cast<std::size_t>(g)] = p;
    p += 8 + get_le(p + 4, 4);
  }
  if (p != end) return E::failure("weights file has trailing bytes");
  if (fnv1a(body, static_cast<std::size_t>(end - body)) != get_le(h + 48, 8))
    return E::failure("weights file checksum mismatch (damaged file)");
  const std::uint64_t flags = get_le(h + 56, 8);
  if (flags & ~std::uint64_t{3}) return E::failure("weights file has unknown flags");

  // Only the optional groups the file holds are allocated (the per-region king windows and the
  // wide windows are 25 MB each on 10x10: zeroing them made loading the first evaluation slow).
  PatternWeights w = PatternWeights::zero(*v, get_le(at[3], 4) != 0, get_le(at[1], 4) != 0);
  std::vector<std::int16_t> linear(kPhases * kLinearCount);
  std::vector<std::int16_t>* groups[kGroups] = {&w.region,      &w.wide,        &w.king_shared,
                                                &w.king_region, &w.king_square, &linear};
  for (int g = 0; g < kGroups; ++g) {
    auto& group = *groups[g];
    const std::uint8_t* q = at[static_cast<std::size_t>(g)];
    const std::uint64_t count = get_le(q, 4), coded = get_le(q + 4, 4);
    if ((g == 1 || g == 3) && count == 0) group.clear();  // no wide or per-region king windows
    if (count != group.size())
      return E::failure("weights file has " + std::to_string(count) + " " + names[g] +
                        " weights, this version " + std::to_string(group.size()));
    if (!decode_group(q + 8, q + 8 + coded, group))
      return E::failure("weights file has badly coded " + std::string(names[g]));
  }
  for (std::size_t phase = 0; phase < kPhases; ++phase)
    for (std::size_t k = 0; k < kLinearCount; ++k)
      w.linear[phase][k] = linear[phase * kLinearCount + k];
  w.kings_only = flags & 1;
  w.on_classic = (flags & 2) != 0;
  return w;
}

Expected<PatternWeights> read_weights(const std::string& path) {
  using E = Expected<PatternWeights>;
  const auto size = regular_file_size(path, "weights file");
  if (!size) return E::failure(size.error());
  if (*size > kWeightsHeaderSize + kMaxBody)
    return E::failure(path + ": too large for a weights file (" + std::to_string(*size) +
                      " bytes)");
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(*size));
  if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(*size)))
    return E::failure(path + ": cannot read the weights file");
  auto w = decode_weights(bytes);
  if (!w) return E::failure(path + ": " + w.error());
  return w;
}

Expected<bool> write_weights(const std::string& path, const PatternWeights& w) {
  const auto bytes = encode_weights(w);
  return write_file_atomically(path, bytes);
}

bool trained_by_default(Variant v) {
  // The SPRT matches of README "Training an evaluation" decide each entry: English, trained
  // against classic at 0.1 s a move, H1 (+50 Elo) accepted after 33 games, +109 +- 77 Elo;
  // international, H1 accepted after 11 games (W6 D5 L0), and its second generation against
  // the first, H1 after 38 games (W13 D22 L3). English's weights with kings in the features
  // (format 2), fitted to 3.9 M positions of generation 1, against the men-only ones: H1 (+10
  // Elo) after 770 games (W202 D418 L151), +23 +- 17 Elo. The other rule sets' first weights
  // (docs/training.md, "The other rule sets"), each against classic, SPRT (0, 50) on game pairs:
  // Brazilian W12 D7 L3, Russian W34 D45 L21, Frisian W15 D2 L3, Breakthrough W17 D0 L3, Pool
  // W13 D18 L5, Italian W11 D13 L2, Killer W8 D4 L0, Thai W10 D0 L0, Antidraughts W14 D0 L2,
  // Giveaway W12 D1 L1, all H1.
  switch (v) {
    case Variant::English:
    case Variant::International:
    case Variant::Brazilian:
    case Variant::Russian:
    case Variant::Frisian:
    case Variant::Breakthrough:
    case Variant::Pool:
    case Variant::Italian:
    case Variant::Killer:
    case Variant::Thai:
    case Variant::Antidraughts:
    case Variant::Giveaway:
      return true;
    default:
      return false;
  }
}

std::span<const std::uint8_t> builtin_weights_image(Variant v) {
  for (const EmbeddedWeights* e = kEmbeddedWeights; e->name; ++e)
    if (info(v).name == e->name) return {e->data, e->size};
  return {};
}

std::shared_ptr<const PatternWeights> builtin_weights(Variant v) {
  static std::mutex mutex;
  static std::map<Variant, std::shared_ptr<const PatternWeights>> decoded;
  std::lock_guard lock(mutex);
  if (const auto it = decoded.find(v); it != decoded.end()) return it->second;
  std::shared_ptr<const PatternWeights> w;
  const auto image = builtin_weights_image(v);
  if (!image.empty()) {
    auto parsed = decode_weights(image);
    // The build checks every shipped file (tests too); a bad one would be a build defect.
    if (parsed && parsed->variant == v) w = std::make_shared<PatternWeights>(std::move(*parsed));
  }
  decoded[v] = w;
  return w;
}

Expected<std::shared_ptr<const PatternWeights>> load_evaluation(Variant v,
                                                                const std::string& eval_file) {
  using E = Expected<std::shared_ptr<const PatternWeights>>;
  if (eval_file.empty()) return std::shared_ptr<const PatternWeights>{};
  if (eval_file == kBuiltinEval) return builtin_weights(v);
  if (eval_file == kDefaultEval)
    return trained_by_default(v) ? builtin_weights(v) : std::shared_ptr<const PatternWeights>{};
  auto w = read_weights(eval_file);
  if (!w) return E::failure(w.error());
  if (w->variant != v)
    return E::failure(eval_file + ": weights are for rule set '" +
                      std::string(info(w->variant).name) + "', not '" + std::string(info(v).name) +
                      "'");
  return std::shared_ptr<const PatternWeights>(std::make_shared<PatternWeights>(std::move(*w)));
}

}  // namespace tsuru::eval
