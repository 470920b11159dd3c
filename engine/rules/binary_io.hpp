// Little-endian fields, the FNV-1a checksum and safe file handling shared by Tsuru's binary
// files (opening books, training samples): each format keeps its own header layout and checks,
// built from these pieces (docs/formats.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
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
// existing file), mode 0644, flushes it to the disk, then renames it over path: a reader never
// sees half a file. When the disk is full (or a file-size limit is reached) the temporary file
// is removed and path keeps what it held; the error names path and the system's reason.
Expected<bool> write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);

// A file that grows by whole records (a PDN file, one game at a time): each record goes in one
// write, and a record that cannot be written whole (the disk full, a file-size limit) is cut off
// again, so the file always ends with a complete record.
class AppendFile {
 public:
  AppendFile() = default;
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;
  ~AppendFile() { close(); }
  // Opens (creates) path for appending; truncate empties it first.
  Expected<bool> open(const std::string& path, bool truncate);
  bool is_open() const { return fd_ >= 0; }
  // Appends text whole, or not at all (the error names the file and the reason).
  Expected<bool> append(std::string_view text);
  void close();

 private:
  int fd_ = -1;
  std::string path_;
  std::uint64_t size_ = 0;  // the bytes of the whole records written
};

}  // namespace tsuru
