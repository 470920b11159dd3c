// The opening book file: a versioned header and records sorted by position key.
//
//   header (64 bytes, little-endian)
//     magic "TSURUBK\0" (8) | version u32 | record size u32 | rule-set name (16, NUL padded)
//     | start-position key u64 | record count u64 | FNV-1a 64 checksum of the records u64
//     | reserved u64
//   records (24 bytes each), sorted by key, then by score (best first)
//     key u64 | captured squares u64 | from u8 | to u8 | crowns u8 | depth u8 | score i16 | 2 zero
//
// The rule-set name and the start key tie a book to its rules and to the Zobrist keys it was
// built with; a mismatch, a bad checksum, a truncated file or records out of order are
// reported as errors and the book is not used. A file is judged by its header before its
// records are read: the size the header gives must be the file's size and at most kMaxRecords
// records, so a huge or foreign file is refused at once and reading never holds more than the
// records themselves and one chunk.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/expected.hpp"
#include "engine/rules/move.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru::book {

inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::size_t kHeaderSize = 64;
inline constexpr std::size_t kRecordSize = 24;
// 4 Mi records (96 MiB): far above any book the builder makes (the default ones hold about
// 9,000), low enough that a hostile header cannot make the engine allocate without bound.
inline constexpr std::uint64_t kMaxRecords = std::uint64_t{1} << 22;

struct Record {
  Key key = 0;
  Move move{};
  std::int16_t score = 0;  // centi-men, for the side to move in the keyed position
  std::uint8_t depth = 0;  // depth of the search that scored the move

  friend bool operator<(const Record& a, const Record& b) {
    return a.key != b.key ? a.key < b.key : a.score > b.score;
  }
};

// The header's checksum of the records (engine/rules/binary_io.hpp).
using tsuru::fnv1a;
using tsuru::kFnvOffset;

// Serialises records (sorted here) for variant v.
std::vector<std::uint8_t> encode(Variant v, std::vector<Record> records);
// Parses and validates a book image for variant v.
Expected<std::vector<Record>> decode(Variant v, const std::vector<std::uint8_t>& bytes);

// Reads a book file: a directory, a device or a FIFO is refused, the header is checked against
// the file's size before any record is read, and the records are read in bounded chunks.
Expected<std::vector<Record>> read_file(Variant v, const std::string& path);
// Writes atomically: a temporary file of a unique name (PATH.tmp.XXXXXX, never an existing
// file) renamed over the target.
Expected<bool> write_file(Variant v, const std::string& path, std::vector<Record> records);

}  // namespace tsuru::book
