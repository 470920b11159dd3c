#include "book/format.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <tuple>

#include "engine/rules/legal.hpp"
#include "engine/rules/record_file.hpp"

namespace tsuru::book {
namespace {

constexpr RecordFileKind kBookFile{{'T', 'S', 'U', 'R', 'U', 'B', 'K', '\0'},
                                   kVersion,
                                   kRecordSize,
                                   kMaxRecords,
                                   "book",
                                   "rebuild it"};

constexpr auto put = put_le;
constexpr auto get = get_le;

}  // namespace

std::vector<std::uint8_t> encode(Variant v, std::vector<Record> records) {
  // By key, then score; moves of one score by from, to and captured squares, so the same records
  // give the same bytes whatever order they come in (a resumed book build reads them back).
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    if (a < b || b < a) return a < b;
    return std::tie(a.move.from, a.move.to, a.move.captured, a.depth) <
           std::tie(b.move.from, b.move.to, b.move.captured, b.depth);
  });
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
  std::vector<std::uint8_t> out =
      encode_record_header(kBookFile, v, records.size(), fnv1a(body.data(), body.size()));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

namespace {

// Checks a header against the size of the whole image (header and records); the record count.
Expected<std::uint64_t> check_header(Variant v, const std::uint8_t* h, std::uint64_t size) {
  return check_record_header(kBookFile, v, h, size);
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
  return reader.finish(record_header_checksum(bytes.data()));
}

Expected<std::vector<Record>> read_file(Variant v, const std::string& path) {
  using E = Expected<std::vector<Record>>;
  const auto size = regular_file_size(path, "book file");
  if (!size) return E::failure(size.error());
  std::ifstream in(path, std::ios::binary);
  if (!in) return E::failure("cannot open book " + path);
  std::uint8_t header[kHeaderSize] = {};
  if (*size >= kHeaderSize && !in.read(reinterpret_cast<char*>(header), kHeaderSize))
    return E::failure("cannot read book " + path);
  const auto count = check_header(v, header, *size);
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
  auto records = reader.finish(record_header_checksum(header));
  if (!records) return E::failure(path + ": " + records.error());
  return records;
}

Expected<bool> write_file(Variant v, const std::string& path, std::vector<Record> records) {
  return write_file_atomically(path, encode(v, std::move(records)));
}

}  // namespace tsuru::book
