#include "tools/train/sample_journal.hpp"

#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tsuru::train {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'U', 'R', 'U', 'S', 'J', '\0'};
constexpr std::uint32_t kJournalVersion = 1;
constexpr std::size_t kJournalHeader = 32;

std::vector<std::uint8_t> header(std::uint64_t fingerprint) {
  std::vector<std::uint8_t> h(kMagic, kMagic + 8);
  put_le(h, kJournalVersion, 4);
  put_le(h, 0, 4);
  put_le(h, fingerprint, 8);
  put_le(h, 0, 8);
  return h;
}

}  // namespace

Expected<std::unique_ptr<SampleJournal>> SampleJournal::open(const std::string& path, Variant v,
                                                             std::uint64_t fingerprint) {
  using E = Expected<std::unique_ptr<SampleJournal>>;
  std::unique_ptr<SampleJournal> j(new SampleJournal());
  j->variant_ = v;
  j->path_ = path;
  std::error_code ec;
  // An empty file is a journal whose header never made it (killed at once): started afresh.
  if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) > 0 && !ec) {
    const auto size = regular_file_size(path, "self-play journal");
    if (!size) return E::failure(size.error());
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    if (bytes.size() != *size) return E::failure("cannot read " + path);
    if (bytes.size() < kJournalHeader || std::memcmp(bytes.data(), kMagic, 8) != 0)
      return E::failure(path + " is not a Tsuru self-play journal: remove it to start afresh");
    if (get_le(bytes.data() + 8, 4) != kJournalVersion)
      return E::failure(path + ": journal version " + std::to_string(get_le(bytes.data() + 8, 4)) +
                        " is not " + std::to_string(kJournalVersion));
    if (get_le(bytes.data() + 16, 8) != fingerprint)
      return E::failure(path +
                        " is the journal of a run with other options (rule set, games, limits, "
                        "openings, seed, shard, randomness, evaluation or table size): run "
                        "the command that made it again to resume it, or remove it");
    std::size_t at = kJournalHeader;
    while (bytes.size() - at >= 8) {
      const auto game = static_cast<std::uint32_t>(get_le(bytes.data() + at, 4));
      const auto length = static_cast<std::size_t>(get_le(bytes.data() + at + 4, 4));
      if (bytes.size() - at - 8 < length) break;
      const std::vector<std::uint8_t> image(
          bytes.begin() + static_cast<std::ptrdiff_t>(at + 8),
          bytes.begin() + static_cast<std::ptrdiff_t>(at + 8 + length));
      auto samples = decode_samples(v, image);
      if (!samples) break;
      j->recovered_.push_back(JournalGame{game, std::move(*samples)});
      at += 8 + length;
    }
    j->cut_off_ = bytes.size() - at;
    if (j->cut_off_ > 0 && ::truncate(path.c_str(), static_cast<off_t>(at)) != 0)
      return E::failure("cannot cut the torn end off " + path + ": " + std::strerror(errno));
    if (auto opened = j->file_.open(path, false); !opened) return E::failure(opened.error());
    return j;
  }
  if (auto opened = j->file_.open(path, true); !opened) return E::failure(opened.error());
  const std::vector<std::uint8_t> h = header(fingerprint);
  if (auto w = j->file_.append({reinterpret_cast<const char*>(h.data()), h.size()}); !w) {
    j->file_.close();
    std::remove(path.c_str());
    return E::failure(w.error());
  }
  return j;
}

Expected<bool> SampleJournal::append(std::uint32_t game, const std::vector<Sample>& samples) {
  const std::vector<std::uint8_t> image = encode_samples(variant_, samples);
  std::vector<std::uint8_t> record;
  record.reserve(8 + image.size());
  put_le(record, game, 4);
  put_le(record, image.size(), 4);
  record.insert(record.end(), image.begin(), image.end());
  return file_.append({reinterpret_cast<const char*>(record.data()), record.size()});
}

void SampleJournal::remove() {
  file_.close();
  std::remove(path_.c_str());
}

}  // namespace tsuru::train
