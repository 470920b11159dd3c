// Training samples: quiet positions from self-play games, each with the game's result and the
// search's score, written by `tsuru selfplay` and read by `tsuru train`.
//
//   header (64 bytes, little-endian)
//     magic "TSURUSP\0" (8) | version u32 | record size u32 | rule-set name (16, NUL padded)
//     | start-position key u64 | record count u64 | FNV-1a 64 checksum of the records u64
//     | reserved u64 (0)
//   records (36 bytes each), in the order written
//     white u64 | black u64 | kings u64 | game u32 | ply u16 | score i16 | turn u8
//     | result i8 | 2 zero bytes
//
// Bitboards are in the engine's board layout (engine/rules/geometry.hpp), so a file is read back
// only for the rule set (board) it was written for; the start-position key ties it to the layout
// and the Zobrist keys as in the opening book. docs/formats.md describes the format for users.
#pragma once

#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::train {

inline constexpr std::uint32_t kSampleVersion = 1;
inline constexpr std::size_t kSampleHeaderSize = 64;  // engine/rules/record_file.hpp
inline constexpr std::size_t kSampleRecordSize = 36;
// 128 Mi samples (4.5 GiB): far more than a session's self-play makes; a hostile header cannot
// make a reader allocate without bound.
inline constexpr std::uint64_t kMaxSamples = std::uint64_t{1} << 27;
// A sample whose score was not recorded.
inline constexpr std::int16_t kNoScore = std::numeric_limits<std::int16_t>::min();

struct Sample {
  Bitboard white = 0;
  Bitboard black = 0;
  Bitboard kings = 0;
  std::uint32_t game = 0;         // index of the game it comes from (validation splits by game)
  std::uint16_t ply = 0;          // plies played before it in that game (saturates at 65535)
  std::int16_t score = kNoScore;  // search score, centi-men, for the side to move
  Side turn = Side::White;
  std::int8_t result = 0;  // the game's result for the side to move: +1 won, 0 drawn, -1 lost

  Position position() const { return Position::from_bitboards(white, black, kings, turn); }
  friend bool operator==(const Sample&, const Sample&) = default;
};

std::vector<std::uint8_t> encode_samples(Variant v, const std::vector<Sample>& samples);
// Parses and validates a sample file image for variant v.
Expected<std::vector<Sample>> decode_samples(Variant v, const std::vector<std::uint8_t>& bytes);

// The rule set a sample file was written for, from its header alone.
Expected<Variant> sample_file_variant(const std::string& path);
// Reads a sample file of variant v: the header is checked against the file's size before any
// record is read; every record is checked (squares on the board, sides disjoint, result and
// turn in range).
Expected<std::vector<Sample>> read_samples(Variant v, const std::string& path);
// Samples read in ranges, so that a trainer can stream more of them than memory holds.
class SampleSource {
 public:
  virtual ~SampleSource() = default;
  virtual std::uint64_t size() const = 0;
  // Appends samples [first, first + n) to out (first + n <= size()).
  virtual Expected<bool> read(std::uint64_t first, std::size_t n,
                              std::vector<Sample>& out) const = 0;
  virtual std::string name() const = 0;
};

// Samples already in memory.
class MemorySamples : public SampleSource {
 public:
  explicit MemorySamples(const std::vector<Sample>& samples, std::string name = "memory")
      : samples_(samples), name_(std::move(name)) {}
  std::uint64_t size() const override { return samples_.size(); }
  Expected<bool> read(std::uint64_t first, std::size_t n, std::vector<Sample>& out) const override;
  std::string name() const override { return name_; }

 private:
  const std::vector<Sample>& samples_;
  std::string name_;
};

// A sample file read in ranges: open() checks the header against the file's size and the
// checksum of every record in one streaming pass; read() checks each record it decodes as
// read_samples does. Not for use from several threads at once.
class SampleFileReader : public SampleSource {
 public:
  static Expected<std::unique_ptr<SampleFileReader>> open(Variant v, const std::string& path);
  std::uint64_t size() const override { return count_; }
  Expected<bool> read(std::uint64_t first, std::size_t n, std::vector<Sample>& out) const override;
  std::string name() const override { return path_; }

 private:
  SampleFileReader(Variant v, std::string path, std::uint64_t count)
      : variant_(v), path_(std::move(path)), count_(count) {}
  Variant variant_;
  std::string path_;
  std::uint64_t count_;
  mutable std::ifstream in_;
};

// Writes atomically (engine/rules/binary_io.hpp).
Expected<bool> write_samples(Variant v, const std::string& path,
                             const std::vector<Sample>& samples);

}  // namespace tsuru::train
