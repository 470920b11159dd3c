#include "tools/train/sample.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/record_file.hpp"

namespace tsuru::train {
namespace {

constexpr RecordFileKind kSampleFile{{'T', 'S', 'U', 'R', 'U', 'S', 'P', '\0'},
                                     kSampleVersion,
                                     kSampleRecordSize,
                                     kMaxSamples,
                                     "sample file",
                                     "make it again"};

Expected<std::uint64_t> check_header(Variant v, const std::uint8_t* h, std::uint64_t size) {
  return check_record_header(kSampleFile, v, h, size);
}

// Decodes one record; false when it is not a position of the board.
bool decode_record(const std::uint8_t* p, Bitboard valid, Sample& s) {
  s.white = get_le(p, 8);
  s.black = get_le(p + 8, 8);
  s.kings = get_le(p + 16, 8);
  s.game = static_cast<std::uint32_t>(get_le(p + 24, 4));
  s.ply = static_cast<std::uint16_t>(get_le(p + 28, 2));
  s.score = static_cast<std::int16_t>(static_cast<std::uint16_t>(get_le(p + 30, 2)));
  const std::uint8_t turn = p[32];
  s.result = static_cast<std::int8_t>(p[33]);
  s.turn = turn == 0 ? Side::White : Side::Black;
  const Bitboard all = s.white | s.black;
  return !((s.white & s.black) || (all & ~valid) || (s.kings & ~all) || turn > 1 || s.result < -1 ||
           s.result > 1 || p[34] || p[35]);
}

std::string bad_record(std::uint64_t index) {
  return "sample " + std::to_string(index) + " is not a valid position";
}

// Parses records chunk by chunk with a running checksum; the first impossible record.
class RecordReader {
 public:
  RecordReader(Variant v, std::uint64_t count) : valid_(info(v).board.valid) {
    samples_.reserve(static_cast<std::size_t>(count));
  }

  void feed(const std::uint8_t* body, std::size_t records) {
    checksum_ = fnv1a(body, records * kSampleRecordSize, checksum_);
    for (std::size_t i = 0; i < records && error_.empty(); ++i) {
      Sample s;
      if (!decode_record(body + i * kSampleRecordSize, valid_, s)) {
        error_ = bad_record(samples_.size());
        return;
      }
      samples_.push_back(s);
    }
  }

  Expected<std::vector<Sample>> finish(std::uint64_t expected_checksum) {
    using E = Expected<std::vector<Sample>>;
    if (checksum_ != expected_checksum)
      return E::failure("sample file is corrupted (checksum mismatch)");
    if (!error_.empty()) return E::failure(error_);
    return std::move(samples_);
  }

 private:
  Bitboard valid_;
  std::uint64_t checksum_ = kFnvOffset;
  std::string error_;
  std::vector<Sample> samples_;
};

}  // namespace

std::vector<std::uint8_t> encode_samples(Variant v, const std::vector<Sample>& samples) {
  std::vector<std::uint8_t> body;
  body.reserve(samples.size() * kSampleRecordSize);
  for (const Sample& s : samples) {
    put_le(body, s.white, 8);
    put_le(body, s.black, 8);
    put_le(body, s.kings, 8);
    put_le(body, s.game, 4);
    put_le(body, s.ply, 2);
    put_le(body, static_cast<std::uint16_t>(s.score), 2);
    put_le(body, s.turn == Side::White ? 0 : 1, 1);
    put_le(body, static_cast<std::uint8_t>(s.result), 1);
    put_le(body, 0, 2);
  }
  std::vector<std::uint8_t> out =
      encode_record_header(kSampleFile, v, samples.size(), fnv1a(body.data(), body.size()));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

Expected<std::vector<Sample>> decode_samples(Variant v, const std::vector<std::uint8_t>& bytes) {
  using E = Expected<std::vector<Sample>>;
  const auto count = check_header(v, bytes.data(), bytes.size());
  if (!count) return E::failure(count.error());
  RecordReader reader(v, *count);
  reader.feed(bytes.data() + kSampleHeaderSize, static_cast<std::size_t>(*count));
  return reader.finish(record_header_checksum(bytes.data()));
}

Expected<Variant> sample_file_variant(const std::string& path) {
  using E = Expected<Variant>;
  const auto size = regular_file_size(path, "sample file");
  if (!size) return E::failure(size.error());
  std::ifstream in(path, std::ios::binary);
  std::uint8_t header[kSampleHeaderSize] = {};
  if (*size < kRecordHeaderSize || !in.read(reinterpret_cast<char*>(header), kSampleHeaderSize))
    return E::failure(path + ": not a Tsuru sample file (file too short)");
  if (std::memcmp(header, kSampleFile.magic, 8) != 0)
    return E::failure(path + ": not a Tsuru sample file (bad magic)");
  const std::string name = record_header_rule_set(header);
  const auto v = parse_variant(name);
  if (!v) return E::failure(path + ": unknown rule set '" + name + "'");
  return *v;
}

Expected<std::vector<Sample>> read_samples(Variant v, const std::string& path) {
  using E = Expected<std::vector<Sample>>;
  const auto size = regular_file_size(path, "sample file");
  if (!size) return E::failure(size.error());
  std::ifstream in(path, std::ios::binary);
  if (!in) return E::failure("cannot open sample file " + path);
  std::uint8_t header[kSampleHeaderSize] = {};
  if (*size >= kSampleHeaderSize && !in.read(reinterpret_cast<char*>(header), kSampleHeaderSize))
    return E::failure("cannot read sample file " + path);
  const auto count = check_header(v, header, *size);
  if (!count) return E::failure(path + ": " + count.error());
  RecordReader reader(v, *count);
  constexpr std::size_t kChunk = 1 << 14;  // records (576 KiB)
  std::vector<std::uint8_t> chunk(kChunk * kSampleRecordSize);
  for (std::uint64_t done = 0; done < *count;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, *count - done));
    if (!in.read(reinterpret_cast<char*>(chunk.data()),
                 static_cast<std::streamsize>(n * kSampleRecordSize)))
      return E::failure(path + ": sample file is truncated (cannot read record " +
                        std::to_string(done) + ")");
    reader.feed(chunk.data(), n);
    done += n;
  }
  auto samples = reader.finish(record_header_checksum(header));
  if (!samples) return E::failure(path + ": " + samples.error());
  return samples;
}

Expected<bool> MemorySamples::read(std::uint64_t first, std::size_t n,
                                   std::vector<Sample>& out) const {
  if (first > samples_.size() || n > samples_.size() - first)
    return Expected<bool>::failure(name_ + ": no samples " + std::to_string(first) + " to " +
                                   std::to_string(first + n));
  const auto b = samples_.begin() + static_cast<std::ptrdiff_t>(first);
  out.insert(out.end(), b, b + static_cast<std::ptrdiff_t>(n));
  return true;
}

Expected<std::unique_ptr<SampleFileReader>> SampleFileReader::open(Variant v,
                                                                   const std::string& path) {
  using E = Expected<std::unique_ptr<SampleFileReader>>;
  const auto size = regular_file_size(path, "sample file");
  if (!size) return E::failure(size.error());
  std::unique_ptr<SampleFileReader> r(new SampleFileReader(v, path, 0));
  r->in_.open(path, std::ios::binary);
  if (!r->in_) return E::failure("cannot open sample file " + path);
  std::uint8_t header[kSampleHeaderSize] = {};
  if (*size >= kSampleHeaderSize &&
      !r->in_.read(reinterpret_cast<char*>(header), kSampleHeaderSize))
    return E::failure("cannot read sample file " + path);
  const auto count = check_header(v, header, *size);
  if (!count) return E::failure(path + ": " + count.error());
  // The checksum of the whole file first: a damaged file is refused before training starts.
  constexpr std::size_t kChunk = 1 << 14;
  std::vector<std::uint8_t> chunk(kChunk * kSampleRecordSize);
  std::uint64_t checksum = kFnvOffset;
  for (std::uint64_t done = 0; done < *count;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, *count - done));
    if (!r->in_.read(reinterpret_cast<char*>(chunk.data()),
                     static_cast<std::streamsize>(n * kSampleRecordSize)))
      return E::failure(path + ": sample file is truncated (cannot read record " +
                        std::to_string(done) + ")");
    checksum = fnv1a(chunk.data(), n * kSampleRecordSize, checksum);
    done += n;
  }
  if (checksum != record_header_checksum(header))
    return E::failure(path + ": sample file is corrupted (checksum mismatch)");
  r->count_ = *count;
  return r;
}

Expected<bool> SampleFileReader::read(std::uint64_t first, std::size_t n,
                                      std::vector<Sample>& out) const {
  using E = Expected<bool>;
  if (first > count_ || n > count_ - first)
    return E::failure(path_ + ": no samples " + std::to_string(first) + " to " +
                      std::to_string(first + n));
  std::vector<std::uint8_t> bytes(n * kSampleRecordSize);
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(kSampleHeaderSize + first * kSampleRecordSize));
  if (!in_.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
    return E::failure(path_ + ": cannot read samples " + std::to_string(first) + " to " +
                      std::to_string(first + n) + " (the file changed?)");
  const Bitboard valid = info(variant_).board.valid;
  out.reserve(out.size() + n);
  for (std::size_t i = 0; i < n; ++i) {
    Sample s;
    if (!decode_record(bytes.data() + i * kSampleRecordSize, valid, s))
      return E::failure(path_ + ": " + bad_record(first + i));
    out.push_back(s);
  }
  return true;
}

Expected<bool> write_samples(Variant v, const std::string& path,
                             const std::vector<Sample>& samples) {
  return write_file_atomically(path, encode_samples(v, samples));
}

}  // namespace tsuru::train
