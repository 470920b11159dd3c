// The pattern evaluation's weights (pattern_features.hpp names the features) and their file.
//
//   header (64 bytes, little-endian)
//     magic "TSURUEV\0" (8) | version u32 (2) | group count u32 (6) | rule-set name (16, NUL
//     padded) | start-position key u64 | regions u32 | linear terms u32 | FNV-1a 64 checksum of
//     the body u64 | flags u64 (bit 0: the weights score positions of kings only; bit 1: they
//     are a correction added to the classic evaluation; no other bit)
//   body: the six groups in this order, each as its weight count u32, its coded size in bytes u32,
//     then its weights (i16 each, in quarter centi-men), coded as runs: a run of zeros (a
//     LEB128 count), a run of n other weights (n in LEB128, then the n weights), and so on to
//     the group's count
//     men windows     for each region, for each of its 6561 states, opening then endgame
//     wide windows    for each wide window, for each of its 531,441 states, as above (a count
//                     of 0: none)
//     king windows    shared: for each of the 390,625 states, opening then endgame
//     king windows    per region: for each region, as above (a count of 0: none)
//     king squares    own kings then the other side's, for each square, opening then endgame
//     linear terms    the opening set's kLinearCount terms, then the endgame set's
//
// Most king-window states never occur, so their weights are zero and the runs keep the file
// small. The rule-set name and start key tie a file to its rules and board layout, the region
// and linear counts and the group sizes to the features of this version; any mismatch, a bad
// checksum, a truncated file or trailing bytes are errors and the weights are not used. Files of
// the first version (men windows and five linear terms, uncoded) are still read, the other
// weights zero. docs/formats.md "Evaluation weights" describes the format for users.
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

inline constexpr std::uint32_t kWeightsVersion = 2;
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
  int squares = 0;
  // region[(j * kRegionStates + state) * kPhases + phase]
  std::vector<std::int16_t> region;
  // wide[(j * kWideStates + state) * kPhases + phase]; empty: none
  std::vector<std::int16_t> wide;
  // king_shared[state * kPhases + phase]
  std::vector<std::int16_t> king_shared;
  // king_region[(j * kKingStates + state) * kPhases + phase]; empty: none (all zero)
  std::vector<std::int16_t> king_region;
  // king_square[(other * squares + square) * kPhases + phase]
  std::vector<std::int16_t> king_square;
  // linear[phase][term]
  std::array<std::array<std::int16_t, kLinearCount>, kPhases> linear{};
  // Whether these weights score positions with no man on the board (else the classic
  // evaluation does: weights trained without them know nothing there).
  bool kings_only = false;
  // Whether these weights are a correction added to the classic evaluation's score (trained so,
  // `tsuru train --on-classic`) rather than a whole evaluation.
  bool on_classic = false;

  // All zero, sized for variant v's board (v must have a pattern board); the per-region king
  // windows only when asked for (25 MB on 10x10).
  static PatternWeights zero(Variant v, bool king_regions = false, bool wide_windows = false);
  std::size_t count() const {
    return region.size() + wide.size() + king_shared.size() + king_region.size() +
           king_square.size() + kPhases * kLinearCount;
  }
  friend bool operator==(const PatternWeights&, const PatternWeights&) = default;
};

// Whether the pattern evaluation serves rule set v (pattern_features.hpp kPatternRules), and
// how many regions its board has.
bool has_patterns(Variant v);
int region_count(Variant v);
int wide_count(Variant v);

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
