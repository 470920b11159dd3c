// The 64-byte header that Tsuru's record files share (opening books, training samples), written
// and checked in one place; each format keeps its own records and their checks.
//
//   magic (8) | version u32 | record size u32 | rule-set name (16, NUL padded)
//   | start-position key u64 | record count u64 | FNV-1a 64 checksum of the records u64
//   | reserved u64 (0)
//
// The rule-set name and the start position's Zobrist key tie a file to its rules, its board
// layout and the keys it was written with. docs/formats.md describes both formats.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/variant.hpp"

namespace tsuru {

inline constexpr std::size_t kRecordHeaderSize = 64;

struct RecordFileKind {
  char magic[8];
  std::uint32_t version;
  std::uint32_t record_size;
  std::uint64_t max_records;  // a hostile header cannot make a reader allocate more
  const char* noun;           // "book", "sample file": the subject of every message
  const char* stale_keys;     // the advice when the start key differs: "rebuild it"
};

// The header of a file of `count` records of kind k for rule set v.
std::vector<std::uint8_t> encode_record_header(const RecordFileKind& k, Variant v,
                                               std::uint64_t count, std::uint64_t checksum);
// Checks a header against the size of the whole file or image; the record count.
Expected<std::uint64_t> check_record_header(const RecordFileKind& k, Variant v,
                                            const std::uint8_t* h, std::uint64_t size);
// Fields of a header that passed check_record_header (or whose magic was checked).
std::string record_header_rule_set(const std::uint8_t* h);
std::uint64_t record_header_checksum(const std::uint8_t* h);

}  // namespace tsuru
