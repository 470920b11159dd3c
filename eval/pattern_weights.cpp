#include "eval/pattern_weights.hpp"

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
// The largest file of this version: sixteen regions (10x10).
constexpr std::uint64_t kMaxWeights =
    std::uint64_t{kMaxRegions} * kRegionStates * kPhases + kPhases * kLinearCount;

std::string header_name(const std::uint8_t* h) {
  return {reinterpret_cast<const char*>(h + 16),
          strnlen(reinterpret_cast<const char*>(h + 16), 16)};
}

}  // namespace

bool has_patterns(Variant v) {
  return with_rules(v, []<class R>(R) { return kPatternRules<R>; });
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

PatternWeights PatternWeights::zero(Variant v) {
  PatternWeights w;
  w.variant = v;
  w.regions = region_count(v);
  w.region.assign(static_cast<std::size_t>(w.regions) * kRegionStates * kPhases, 0);
  return w;
}

std::vector<std::uint8_t> encode_weights(const PatternWeights& w) {
  std::vector<std::uint8_t> body;
  body.reserve(w.count() * 2);
  for (std::int16_t x : w.region) put_le(body, static_cast<std::uint16_t>(x), 2);
  for (const auto& phase : w.linear)
    for (std::int16_t x : phase) put_le(body, static_cast<std::uint16_t>(x), 2);
  std::vector<std::uint8_t> out(kMagic, kMagic + 8);
  out.reserve(kWeightsHeaderSize + body.size());
  put_le(out, kWeightsVersion, 4);
  put_le(out, w.count(), 4);
  const std::string_view name = info(w.variant).name;
  for (std::size_t i = 0; i < 16; ++i)
    out.push_back(i < name.size() ? static_cast<std::uint8_t>(name[i]) : 0);
  put_le(out, start_position(w.variant).key(), 8);
  put_le(out, static_cast<std::uint64_t>(w.regions), 4);
  put_le(out, kLinearCount, 4);
  put_le(out, fnv1a(body.data(), body.size()), 8);
  put_le(out, 0, 8);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

Expected<PatternWeights> decode_weights(std::span<const std::uint8_t> bytes) {
  using E = Expected<PatternWeights>;
  const std::uint8_t* h = bytes.data();
  if (bytes.size() < kWeightsHeaderSize)
    return E::failure("not a Tsuru weights file (file too short)");
  if (std::memcmp(h, kMagic, 8) != 0) return E::failure("not a Tsuru weights file (bad magic)");
  if (get_le(h + 8, 4) != kWeightsVersion)
    return E::failure("weights format version " + std::to_string(get_le(h + 8, 4)) +
                      " is not supported (expected " + std::to_string(kWeightsVersion) + ")");
  const std::string name = header_name(h);
  const auto v = parse_variant(name);
  if (!v || info(*v).name != name)
    return E::failure("weights are for an unknown rule set '" + name + "'");
  if (!has_patterns(*v)) return E::failure("rule set '" + name + "' has no pattern evaluation");
  if (get_le(h + 32, 8) != start_position(*v).key())
    return E::failure("weights were written with a different board layout or keys");
  const std::uint64_t regions = get_le(h + 40, 4);
  if (regions != static_cast<std::uint64_t>(region_count(*v)) || get_le(h + 44, 4) != kLinearCount)
    return E::failure("weights file does not have the features of this version (" +
                      std::to_string(regions) + " regions, " + std::to_string(get_le(h + 44, 4)) +
                      " linear terms)");
  const std::uint64_t count = get_le(h + 12, 4);
  if (count != regions * kRegionStates * kPhases + kPhases * kLinearCount || count > kMaxWeights)
    return E::failure("weights file gives an inconsistent weight count");
  if (bytes.size() != kWeightsHeaderSize + 2 * count)
    return E::failure("weights file is truncated or has trailing bytes (" +
                      std::to_string(bytes.size()) + " bytes, the header gives " +
                      std::to_string(kWeightsHeaderSize + 2 * count) + ")");
  const std::uint8_t* body = h + kWeightsHeaderSize;
  if (fnv1a(body, static_cast<std::size_t>(2 * count)) != get_le(h + 48, 8))
    return E::failure("weights file checksum mismatch (damaged file)");
  if (get_le(h + 56, 8) != 0) return E::failure("weights file has a non-zero reserved field");
  PatternWeights w = PatternWeights::zero(*v);
  const std::uint8_t* p = body;
  for (std::int16_t& x : w.region) {
    x = static_cast<std::int16_t>(static_cast<std::uint16_t>(get_le(p, 2)));
    p += 2;
  }
  for (auto& phase : w.linear)
    for (std::int16_t& x : phase) {
      x = static_cast<std::int16_t>(static_cast<std::uint16_t>(get_le(p, 2)));
      p += 2;
    }
  return w;
}

Expected<PatternWeights> read_weights(const std::string& path) {
  using E = Expected<PatternWeights>;
  const auto size = regular_file_size(path, "weights file");
  if (!size) return E::failure(size.error());
  if (*size > kWeightsHeaderSize + 2 * kMaxWeights)
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
  // the first, H1 after 38 games (W13 D22 L3).
  return v == Variant::English || v == Variant::International;
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
