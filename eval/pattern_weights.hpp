// The pattern evaluation's weights (pattern_features.hpp names the features) and their file.
//
//   header (64 bytes, little-endian)
//     magic "TSURUEV\0" (8) | version u32 | weight count u32 | rule-set name (16, NUL padded)
//     | start-position key u64 | regions u32 | linear terms u32 | FNV-1a 64 checksum of the
//     weights u64 | reserved u64 (0)
//   weights (i16 each, in quarter centi-men)
//     region weights: for each region, for each of its 6561 states, opening then endgame
//     linear weights: the opening set's kLinearCount terms, then the endgame set's
//
// The rule-set name and start key tie a file to its rules and board layout, the region and
// linear counts to the features of this version; any mismatch, a bad checksum, a truncated file
// or trailing bytes are errors and the weights are not used. docs/formats.md "Evaluation
// weights" describes the format for users.
//
// Every shipped file (eval/data/<rule set>.weights) is compiled into the binary (CMake turns it
// into a generated source file): builtin_weights() needs no file beside the executable.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/variant.hpp"
#include "eval/pattern_features.hpp"

namespace tsuru::eval {

inline constexpr std::uint32_t kWeightsVersion = 1;
inline constexpr std::size_t kWeightsHeaderSize = 64;
// Weights are stored in quarter centi-men: an i16 holds up to about 82 men.
inline constexpr int kWeightScale = 4;
// The eval-file value that names the weights compiled into the binary.
inline constexpr std::string_view kBuiltinEval = "builtin";
// The eval-file value settings start from: the rule set's default evaluation, which is its
// compiled-in weights where a match showed them stronger than the classic evaluation
// (trained_by_default) and the classic evaluation elsewhere.
inline constexpr std::string_view kDefaultEval = "default";
bool trained_by_default(Variant v);

struct PatternWeights {
  Variant variant = Variant::International;
  int regions = 0;
  // region[(j * kRegionStates + state) * kPhases + phase]
  std::vector<std::int16_t> region;
  // linear[phase][term]
  std::array<std::array<std::int16_t, kLinearCount>, kPhases> linear{};

  // All zero, sized for variant v's board (v must have a pattern board).
  static PatternWeights zero(Variant v);
  std::size_t count() const { return region.size() + kPhases * kLinearCount; }
  friend bool operator==(const PatternWeights&, const PatternWeights&) = default;
};

// Whether the pattern evaluation serves rule set v (pattern_features.hpp kPatternRules), and
// how many regions its board has.
bool has_patterns(Variant v);
int region_count(Variant v);

std::vector<std::uint8_t> encode_weights(const PatternWeights& w);
// Parses and validates a weights image (for any rule set: PatternWeights::variant says which).
Expected<PatternWeights> decode_weights(std::span<const std::uint8_t> bytes);
Expected<PatternWeights> read_weights(const std::string& path);
// Writes atomically (engine/rules/binary_io.hpp).
Expected<bool> write_weights(const std::string& path, const PatternWeights& w);

// The weights compiled into the binary for rule set v, decoded once; null when none ship.
std::shared_ptr<const PatternWeights> builtin_weights(Variant v);
// The compiled-in image of v's weights (empty when none ship).
std::span<const std::uint8_t> builtin_weights_image(Variant v);

// What an eval-file setting means for rule set v: empty = the classic evaluation (null);
// kBuiltinEval = the compiled-in weights (null, i.e. classic, where none ship); kDefaultEval =
// the rule set's default (see above); anything else a weights file, which must be for rule set v.
Expected<std::shared_ptr<const PatternWeights>> load_evaluation(Variant v,
                                                                const std::string& eval_file);

}  // namespace tsuru::eval
