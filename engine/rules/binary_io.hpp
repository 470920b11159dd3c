// Little-endian fields, the FNV-1a checksum and safe file handling shared by Tsuru's binary
// files (opening books, training samples): each format keeps its own header layout and checks,
// built from these pieces (docs/formats.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/rules/expected.hpp"

namespace tsuru {

// FNV-1a, 64 bits; `from` continues a running checksum.
inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n, std::uint64_t from = kFnvOffset);

// Appends the low `bytes` bytes of value, least significant first.
void put_le(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes);
// Reads `bytes` bytes, least significant first.
std::uint64_t get_le(const std::uint8_t* p, int bytes);

// The size of a regular file; a missing file, a directory, a device or a FIFO is an error that
// names `what` ("book", "sample file") and the path.
Expected<std::uint64_t> regular_file_size(const std::string& path, const std::string& what);

// Writes bytes to a temporary file of a unique name beside path (PATH.tmp.XXXXXX, never an
// existing file), mode 0644, then renames it over path: a reader never sees half a file.
Expected<bool> write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);

}  // namespace tsuru
