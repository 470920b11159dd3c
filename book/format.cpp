#include "book/format.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

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

std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
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

Expected<std::vector<Record>> decode(Variant v, const std::vector<std::uint8_t>& bytes) {
  using E = Expected<std::vector<Record>>;
  if (bytes.size() < kHeaderSize) return E::failure("not a Tsuru book (file too short)");
  const std::uint8_t* h = bytes.data();
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
  if (count > (bytes.size() - kHeaderSize) / kRecordSize ||
      bytes.size() != kHeaderSize + count * kRecordSize)
    return E::failure("book is truncated or has trailing bytes");
  const std::uint8_t* body = h + kHeaderSize;
  if (fnv1a(body, count * kRecordSize) != get(h + 48, 8))
    return E::failure("book is corrupted (checksum mismatch)");

  const BoardShape& shape = info(v).board;
  std::vector<Record> records;
  records.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint8_t* p = body + i * kRecordSize;
    Record r;
    r.key = get(p, 8);
    const Bitboard captured = get(p + 8, 8);
    const auto from = static_cast<Square>(p[16]), to = static_cast<Square>(p[17]);
    if (from >= 64 || to >= 64 || !has(shape.valid, from) || !has(shape.valid, to) ||
        (captured & ~shape.valid) || p[18] > 1)
      return E::failure("book record " + std::to_string(i) + " holds an impossible move");
    r.move = Move(from, to, captured, p[18] == 1);
    r.depth = p[19];
    r.score = static_cast<std::int16_t>(static_cast<std::uint16_t>(get(p + 20, 2)));
    if (!records.empty() && r < records.back()) return E::failure("book records are out of order");
    records.push_back(r);
  }
  return records;
}

Expected<std::vector<Record>> read_file(Variant v, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Expected<std::vector<Record>>::failure("cannot open book " + path);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  auto records = decode(v, bytes);
  if (!records) return Expected<std::vector<Record>>::failure(path + ": " + records.error());
  return records;
}

Expected<bool> write_file(Variant v, const std::string& path, std::vector<Record> records) {
  const std::vector<std::uint8_t> bytes = encode(v, std::move(records));
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Expected<bool>::failure("cannot write " + tmp);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) return Expected<bool>::failure("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return Expected<bool>::failure("cannot rename " + tmp + " to " + path);
  return true;
}

}  // namespace tsuru::book
