#include "eval/train/sample.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "engine/binary_io.hpp"
#include "engine/legal.hpp"

namespace tsuru::train {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'U', 'R', 'U', 'S', 'P', '\0'};

std::string header_name(const std::uint8_t* h) {
  return {reinterpret_cast<const char*>(h + 16),
          strnlen(reinterpret_cast<const char*>(h + 16), 16)};
}

// Checks a header against the size of the whole image; the record count.
Expected<std::uint64_t> check_header(Variant v, const std::uint8_t* h, std::uint64_t size) {
  using E = Expected<std::uint64_t>;
  if (size < kSampleHeaderSize) return E::failure("not a Tsuru sample file (file too short)");
  if (std::memcmp(h, kMagic, 8) != 0) return E::failure("not a Tsuru sample file (bad magic)");
  if (get_le(h + 8, 4) != kSampleVersion)
    return E::failure("sample format version " + std::to_string(get_le(h + 8, 4)) +
                      " is not supported (expected " + std::to_string(kSampleVersion) + ")");
  if (get_le(h + 12, 4) != kSampleRecordSize)
    return E::failure("sample file has an unexpected record size");
  const std::string name = header_name(h);
  if (name != info(v).name)
    return E::failure("samples are for rule set '" + name + "', not '" + std::string(info(v).name) +
                      "'");
  if (get_le(h + 32, 8) != start_position(v).key())
    return E::failure("samples were written with a different board layout or keys");
  const std::uint64_t count = get_le(h + 40, 8);
  if (count > kMaxSamples)
    return E::failure("sample file claims " + std::to_string(count) +
                      " records, more than the limit of " + std::to_string(kMaxSamples));
  if (size != kSampleHeaderSize + count * kSampleRecordSize)
    return E::failure("sample file is truncated or has trailing bytes (" + std::to_string(size) +
                      " bytes, the header gives " +
                      std::to_string(kSampleHeaderSize + count * kSampleRecordSize) + ")");
  return count;
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
      const std::uint8_t* p = body + i * kSampleRecordSize;
      Sample s;
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
      if ((s.white & s.black) || (all & ~valid_) || (s.kings & ~all) || turn > 1 || s.result < -1 ||
          s.result > 1 || p[34] || p[35]) {
        error_ = "sample " + std::to_string(samples_.size()) + " is not a valid position";
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
  std::vector<std::uint8_t> out(kMagic, kMagic + 8);
  put_le(out, kSampleVersion, 4);
  put_le(out, kSampleRecordSize, 4);
  char name[16] = {};
  const std::string_view n = info(v).name;
  std::memcpy(name, n.data(), std::min<std::size_t>(n.size(), 15));
  out.insert(out.end(), name, name + 16);
  put_le(out, start_position(v).key(), 8);
  put_le(out, samples.size(), 8);
  put_le(out, fnv1a(body.data(), body.size()), 8);
  put_le(out, 0, 8);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

Expected<std::vector<Sample>> decode_samples(Variant v, const std::vector<std::uint8_t>& bytes) {
  using E = Expected<std::vector<Sample>>;
  const auto count = check_header(v, bytes.data(), bytes.size());
  if (!count) return E::failure(count.error());
  RecordReader reader(v, *count);
  reader.feed(bytes.data() + kSampleHeaderSize, static_cast<std::size_t>(*count));
  return reader.finish(get_le(bytes.data() + 48, 8));
}

Expected<Variant> sample_file_variant(const std::string& path) {
  using E = Expected<Variant>;
  const auto size = regular_file_size(path, "sample file");
  if (!size) return E::failure(size.error());
  std::ifstream in(path, std::ios::binary);
  std::uint8_t header[kSampleHeaderSize] = {};
  if (*size < kSampleHeaderSize || !in.read(reinterpret_cast<char*>(header), kSampleHeaderSize))
    return E::failure(path + ": not a Tsuru sample file (file too short)");
  if (std::memcmp(header, kMagic, 8) != 0)
    return E::failure(path + ": not a Tsuru sample file (bad magic)");
  const std::string name = header_name(header);
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
  auto samples = reader.finish(get_le(header + 48, 8));
  if (!samples) return E::failure(path + ": " + samples.error());
  return samples;
}

Expected<bool> write_samples(Variant v, const std::string& path,
                             const std::vector<Sample>& samples) {
  return write_file_atomically(path, encode_samples(v, samples));
}

}  // namespace tsuru::train
