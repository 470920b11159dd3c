// The endgame database file: one slice per file, a versioned, checksummed header, then the
// win/draw/loss value of every index in compressed blocks, then (for the smaller slices) the
// distance of every index. docs/formats.md, "Endgame databases", describes the layout.
//
//   header (160 bytes, little-endian)
//     magic "TSURUEG\0" (8) | version u32 | header size u32 | rule-set name (16, NUL padded)
//     | wm u8 | wk u8 | bm u8 | bk u8 | block positions u32 | distance bytes u8 | flags u8
//     | 2 zero | positions u64 | wins u64 | draws u64 | losses u64 | invalid u64
//     | max distance u32 | block count u32 | values offset u64 | values size u64
//     | distances offset u64 | distances size u64 | FNV-1a 64 of everything after the header u64
//     | FNV-1a 64 of the header's first 132 bytes u64 | 20 zero
//   values: (block count + 1) u32 offsets, relative to the first block, then the blocks.
//     Version 2 (written now): each block `block positions` (32768) symbols coded by
//     run_coder.hpp, decodable alone. Flags bit 0: the positions with a capture pending for the
//     side to move are not stored (their symbols are don't-care; the probe resolves them through
//     the captures, Database::probe). Flags bit 1 (only with bit 0; written by `tsuru egdb
//     compact --threats`): the positions where the side not to move has a capture (threats)
//     and none of whose moves leads to another (capture_positions.hpp) are not stored either;
//     the probes answer them through those moves, and the generator does not build on such
//     files. Invalid indices are don't-care too.
//     Version 1 (still read): 8192 values a block of 2 bits (0 draw, 1 win, 2 loss): a first
//     byte 0 and the values packed four to a byte, lowest bits first; or a first byte 1 and
//     runs, each a byte (value << 6 | length - 1) for runs of 1..63, or (value << 6 | 63) and a
//     LEB128 varint of length - 64. Every position is stored.
//   distances: one or two bytes (little-endian) per index: plies to the end of the game with
//     best play (the winner shortest, the loser longest); 0 for draws and invalid indices (and,
//     in version 2, don't-care for the positions left out).
//
// A file is judged by its header and both checksums before any value is read; a mismatch of
// rule set, slice, sizes or checksum is reported with the reason.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/expected.hpp"
#include "eval/egdb/index.hpp"

namespace tsuru::egdb {

inline constexpr std::uint32_t kVersion = 2;  // written; version 1 is still read
inline constexpr std::size_t kHeaderSize = 160;
inline constexpr std::uint32_t kBlockPositions = 32768;  // version 2
inline constexpr std::uint32_t kBlockPositionsV1 = 8192;
inline constexpr std::uint8_t kFlagCapturesOmitted = 1;
inline constexpr std::uint8_t kFlagThreatsOmitted = 2;

class BlockCache;
class PackedValues;

enum class Wdl : std::uint8_t { Draw = 0, Win = 1, Loss = 2 };

// A position's value while a slice is built or decoded: kUnknown (a draw once the build is
// done), kInvalid, or a win or a loss flag with the distance in plies in the low bits.
using Value = std::uint16_t;
inline constexpr Value kUnknown = 0;
inline constexpr Value kInvalid = 0xFFFF;
inline constexpr Value kWinFlag = 0x8000;
inline constexpr Value kLossFlag = 0x4000;
inline constexpr Value kDistanceMask = 0x3FFF;
constexpr bool is_win(Value v) {
  return v != kInvalid && (v & kWinFlag);
}
constexpr bool is_loss(Value v) {
  return v != kInvalid && (v & kLossFlag);
}
constexpr int distance_of(Value v) {
  return v & kDistanceMask;
}

struct SliceCounts {
  std::uint64_t positions = 0;  // the index range
  std::uint64_t wins = 0, draws = 0, losses = 0, invalid = 0;
  std::uint32_t max_distance = 0;
};

SliceCounts count_values(const std::vector<Value>& values);

// Serialises a slice; the distances are written when with_distance. omit (when given, a bit
// per index, bit i % 64 of word i / 64): the indices whose values the file need not keep, set;
// omitted says which they are, as the header's flags (kFlagCapturesOmitted: the positions with
// a capture pending; with kFlagThreatsOmitted also the threats, see omit_mask).
// version 1 writes the previous format (every position stored; for comparisons).
std::vector<std::uint8_t> encode_slice(std::string_view rules, const Slice& slice,
                                       const std::vector<Value>& values, bool with_distance,
                                       const std::vector<std::uint64_t>* omit = nullptr,
                                       std::uint32_t version = kVersion,
                                       std::uint8_t omitted = kFlagCapturesOmitted);
// The same from win/draw/loss values (no distances, this version), whose counts are given
// (their largest distance is the build's, which two bits do not keep).
std::vector<std::uint8_t> encode_slice(std::string_view rules, const Slice& slice,
                                       const PackedValues& values, const SliceCounts& counts,
                                       const std::vector<std::uint64_t>* omit,
                                       std::uint8_t omitted = kFlagCapturesOmitted);

// Why a file's header (its first kHeaderSize bytes, or fewer) is not that of the rule set's slice
// `expected` in this version: magic, version, header checksum, rule set, slice. nullopt when it
// is; the rest of the file is not looked at (SliceView::parse checks it all).
std::optional<std::string> header_problem(const std::uint8_t* data, std::size_t size,
                                          std::string_view rules, const Slice& expected);

// A validated slice file image (the bytes stay owned by the caller, e.g. a memory map).
class SliceView {
 public:
  // Checks the header against the rule set and slice expected and both checksums, and (with
  // check_blocks) that every block decodes to exactly its number of values. Without it a
  // version-2 block is only decoded when probed (its decoder stays within the block's bytes and
  // count whatever they hold; the checksum has vouched for them): the engine's way, which maps a
  // large set in a second rather than decoding every block first.
  static Expected<SliceView> parse(const std::uint8_t* data, std::size_t size,
                                   std::string_view rules, const Slice& expected,
                                   std::uint64_t expected_positions, bool check_blocks = true);

  // The value of an index the file stores (for an omitted one, a don't-care value).
  Wdl wdl(std::uint64_t index) const;
  // Plies to the end with best play, or -1 when the file has no distances.
  int distance(std::uint64_t index) const;
  bool has_distance() const { return distance_bytes_ > 0; }
  const SliceCounts& counts() const { return counts_; }
  // Every value decoded (distances 0 when the file has none; don't-care values where the file
  // omits positions).
  std::vector<Value> decode_all() const;
  // Every value as win, draw or loss (eval/egdb/packed_values.hpp): two bits an index.
  PackedValues decode_wdl() const;
  std::uint32_t version() const { return version_; }
  // The positions with a capture pending are not stored (version 2, kFlagCapturesOmitted).
  bool omits_captures() const { return (flags_ & kFlagCapturesOmitted) != 0; }
  // Nor those where the side not to move has a capture (kFlagThreatsOmitted).
  bool omits_threats() const { return (flags_ & kFlagThreatsOmitted) != 0; }
  // Decoded blocks are kept in this cache (shared, thread-safe); without one every probe decodes
  // its block up to the index.
  void use_cache(BlockCache* cache) { cache_ = cache; }

 private:
  const std::uint8_t* data_ = nullptr;
  const std::uint8_t* offsets_ = nullptr;  // (blocks + 1) u32
  const std::uint8_t* blocks_ = nullptr;
  const std::uint8_t* distances_ = nullptr;
  std::uint32_t block_positions_ = 0;
  std::uint32_t block_count_ = 0;
  std::uint32_t version_ = kVersion;
  std::uint8_t flags_ = 0;
  BlockCache* cache_ = nullptr;
  std::uint32_t block_size_of(std::uint32_t b) const;
  // f(first index, symbols, count) for every block in order, its symbols decoded.
  void for_each_symbol(const std::function<void(std::uint64_t first, const std::uint8_t* symbols,
                                                std::uint64_t n)>& f) const;
  const std::uint8_t* block_data(std::uint32_t b) const;
  std::size_t block_bytes(std::uint32_t b) const;
  int distance_bytes_ = 0;
  SliceCounts counts_;
};

}  // namespace tsuru::egdb
