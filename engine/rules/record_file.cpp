#include "engine/rules/record_file.hpp"

#include <algorithm>
#include <cstring>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/legal.hpp"

namespace tsuru {

std::vector<std::uint8_t> encode_record_header(const RecordFileKind& k, Variant v,
                                               std::uint64_t count, std::uint64_t checksum) {
  std::vector<std::uint8_t> out(k.magic, k.magic + 8);
  put_le(out, k.version, 4);
  put_le(out, k.record_size, 4);
  char name[16] = {};
  const std::string_view n = info(v).name;
  std::memcpy(name, n.data(), std::min<std::size_t>(n.size(), 15));
  out.insert(out.end(), name, name + 16);
  put_le(out, start_position(v).key(), 8);
  put_le(out, count, 8);
  put_le(out, checksum, 8);
  put_le(out, 0, 8);
  return out;
}

Expected<std::uint64_t> check_record_header(const RecordFileKind& k, Variant v,
                                            const std::uint8_t* h, std::uint64_t size) {
  using E = Expected<std::uint64_t>;
  const std::string noun = k.noun;
  if (size < kRecordHeaderSize) return E::failure("not a Tsuru " + noun + " (file too short)");
  if (std::memcmp(h, k.magic, 8) != 0) return E::failure("not a Tsuru " + noun + " (bad magic)");
  if (get_le(h + 8, 4) != k.version)
    return E::failure(noun + " format version " + std::to_string(get_le(h + 8, 4)) +
                      " is not supported (expected " + std::to_string(k.version) + ")");
  if (get_le(h + 12, 4) != k.record_size)
    return E::failure(noun + " has an unexpected record size");
  const std::string name = record_header_rule_set(h);
  if (name != info(v).name)
    return E::failure(noun + " is for rule set '" + name + "', not '" + std::string(info(v).name) +
                      "'");
  if (get_le(h + 32, 8) != start_position(v).key())
    return E::failure(noun + " was built with different position keys (" + k.stale_keys + ")");
  const std::uint64_t count = get_le(h + 40, 8);
  if (count > k.max_records)
    return E::failure(noun + " claims " + std::to_string(count) +
                      " records, more than the limit of " + std::to_string(k.max_records));
  if (size != kRecordHeaderSize + count * k.record_size)
    return E::failure(noun + " is truncated or has trailing bytes (" + std::to_string(size) +
                      " bytes, the header gives " +
                      std::to_string(kRecordHeaderSize + count * k.record_size) + ")");
  return count;
}

std::string record_header_rule_set(const std::uint8_t* h) {
  return {reinterpret_cast<const char*>(h + 16),
          strnlen(reinterpret_cast<const char*>(h + 16), 16)};
}

std::uint64_t record_header_checksum(const std::uint8_t* h) {
  return get_le(h + 48, 8);
}

}  // namespace tsuru
