#include "book/format.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "engine/legal.hpp"

namespace tsuru::book {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'U', 'R', 'U', 'B', 'K', '\0'};

void put(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::uint64_t get(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

}  // namespace

std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n, std::uint64_t from) {
  std::uint64_t h = from;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::vector<std::uint8_t> encode(Variant v, std::vector<Record> records) {
  std::sort(records.begin(), records.end());
  std::vector<std::uint8_t> body;
  body.reserve(records.size() * kRecordSize);
  for (const Record& r : records) {
    put(body, r.key, 8);
    put(body, r.move.captured, 8);
    put(body, r.move.from, 1);
    put(body, r.move.to, 1);
    put(body, r.move.crowns ? 1 : 0, 1);
    put(body, r.depth, 1);
    put(body, static_cast<std::uint16_t>(r.score), 2);
    put(body, 0, 2);
  }
  std::vector<std::uint8_t> out(kMagic, kMagic + 8);
  put(out, kVersion, 4);
  put(out, kRecordSize, 4);
  char name[16] = {};
  const std::string_view n = info(v).name;
  std::memcpy(name, n.data(), std::min<std::size_t>(n.size(), 15));
  out.insert(out.end(), name, name + 16);
  put(out, start_position(v).key(), 8);
  put(out, records.size(), 8);
  put(out, fnv1a(body.data(), body.size()), 8);
  put(out, 0, 8);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

namespace {

// Checks a header against the size of the whole image (header and records); the record count.
Expected<std::uint64_t> check_header(Variant v, const std::uint8_t* h, std::uint64_t size) {
  using E = Expected<std::uint64_t>;
  if (size < kHeaderSize) return E::failure("not a Tsuru book (file too short)");
  if (std::memcmp(h, kMagic, 8) != 0) return E::failure("not a Tsuru book (bad magic)");
  if (get(h + 8, 4) != kVersion)
    return E::failure("book format version " + std::to_string(get(h + 8, 4)) +
                      " is not supported (expected " + std::to_string(kVersion) + ")");
  if (get(h + 12, 4) != kRecordSize) return E::failure("book has an unexpected record size");
  const std::string name(reinterpret_cast<const char*>(h + 16),
                         strnlen(reinterpret_cast<const char*>(h + 16), 16));
  if (name != info(v).name)
    return E::failure("book is for rule set '" + name + "', not '" + std::string(info(v).name) +
                      "'");
  if (get(h + 32, 8) != start_position(v).key())
    return E::failure("book was built with different position keys (rebuild it)");
  const std::uint64_t count = get(h + 40, 8);
  if (count > kMaxRecords)
    return E::failure("book claims " + std::to_string(count) + " records, more than the limit of " +
                      std::to_string(kMaxRecords));
  if (size != kHeaderSize + count * kRecordSize)
    return E::failure("book is truncated or has trailing bytes (" + std::to_string(size) +
                      " bytes, the header gives " +
                      std::to_string(kHeaderSize + count * kRecordSize) + ")");
  return count;
}

// Parses records one chunk at a time: a running checksum, and the first impossible or
// out-of-order record. A bad checksum is the reason given when there is one (a damaged record
// is more likely damage than an impossible move).
class RecordReader {
 public:
  RecordReader(Variant v, std::uint64_t count) : shape_(info(v).board) {
    records_.reserve(static_cast<std::size_t>(count));
  }

  void feed(const std::uint8_t* body, std::size_t records) {
    checksum_ = fnv1a(body, records * kRecordSize, checksum_);
    for (std::size_t i = 0; i < records && !error_; ++i) {
      const std::uint8_t* p = body + i * kRecordSize;
      const std::size_t index = records_.size();
      Record r;
      r.key = get(p, 8);
      const Bitboard captured = get(p + 8, 8);
      const auto from = static_cast<Square>(p[16]), to = static_cast<Square>(p[17]);
      if (from >= 64 || to >= 64 || !has(shape_.valid, from) || !has(shape_.valid, to) ||
          (captured & ~shape_.valid) || p[18] > 1) {
        error_ = "book record " + std::to_string(index) + " holds an impossible move";
        return;
      }
      r.move = Move(from, to, captured, p[18] == 1);
      r.depth = p[19];
      r.score = static_cast<std::int16_t>(static_cast<std::uint16_t>(get(p + 20, 2)));
      if (!records_.empty() && r < records_.back()) {
        error_ = "book records are out of order";
        return;
      }
      records_.push_back(r);
    }
  }

  Expected<std::vector<Record>> finish(std::uint64_t expected_checksum) {
    using E = Expected<std::vector<Record>>;
    if (checksum_ != expected_checksum) return E::failure("book is corrupted (checksum mismatch)");
    if (error_) return E::failure(*error_);
    return std::move(records_);
  }

 private:
  const BoardShape& shape_;
  std::uint64_t checksum_ = kFnvOffset;
  std::optional<std::string> error_;
  std::vector<Record> records_;
};

}  // namespace

Expected<std::vector<Record>> decode(Variant v, const std::vector<std::uint8_t>& bytes) {
  using E = Expected<std::vector<Record>>;
  const auto count = check_header(v, bytes.data(), bytes.size());
  if (!count) return E::failure(count.error());
  RecordReader reader(v, *count);
  reader.feed(bytes.data() + kHeaderSize, static_cast<std::size_t>(*count));
  return reader.finish(get(bytes.data() + 48, 8));
}

Expected<std::vector<Record>> read_file(Variant v, const std::string& path) {
  using E = Expected<std::vector<Record>>;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status))
    return E::failure("cannot open book " + path + ": " +
                      (ec ? ec.message() : std::string("no such file")));
  if (fs::is_directory(status)) return E::failure(path + " is a directory, not a book file");
  if (!fs::is_regular_file(status)) return E::failure(path + " is not a regular file");
  std::ifstream in(path, std::ios::binary);
  const std::uint64_t size = fs::file_size(path, ec);
  if (!in || ec) return E::failure("cannot open book " + path);
  std::uint8_t header[kHeaderSize] = {};
  if (size >= kHeaderSize && !in.read(reinterpret_cast<char*>(header), kHeaderSize))
    return E::failure("cannot read book " + path);
  const auto count = check_header(v, header, size);
  if (!count) return E::failure(path + ": " + count.error());
  RecordReader reader(v, *count);
  constexpr std::size_t kChunk = 4096;  // records (96 KiB)
  std::vector<std::uint8_t> chunk(kChunk * kRecordSize);
  for (std::uint64_t done = 0; done < *count;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, *count - done));
    if (!in.read(reinterpret_cast<char*>(chunk.data()),
                 static_cast<std::streamsize>(n * kRecordSize)))
      return E::failure(path + ": book is truncated (cannot read record " + std::to_string(done) +
                        ")");
    reader.feed(chunk.data(), n);
    done += n;
  }
  auto records = reader.finish(get(header + 48, 8));
  if (!records) return E::failure(path + ": " + records.error());
  return records;
}

Expected<bool> write_file(Variant v, const std::string& path, std::vector<Record> records) {
  const std::vector<std::uint8_t> bytes = encode(v, std::move(records));
  // mkstemp never opens an existing file: a FILE.tmp of someone else's stays untouched, and two
  // writers of one book do not share a temporary file.
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    return Expected<bool>::failure("cannot create a temporary file " + tmp + ": " +
                                   std::strerror(errno));
  ::fchmod(fd, 0644);  // mkstemp makes it 0600; a book is not a secret
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  const bool closed = ::close(fd) == 0;
  if (written != bytes.size() || !closed) {
    std::remove(tmp.c_str());
    return Expected<bool>::failure("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Expected<bool>::failure("cannot rename " + tmp + " to " + path);
  }
  return true;
}

}  // namespace tsuru::book
