// The endgame databases of one rule set, memory-mapped from a directory, and the probe.
//
// Database::open maps every slice file of the rule set found in the directory, checks each
// (header, sizes, checksums; format.hpp) and keeps the valid ones; a damaged or foreign file is
// skipped with its reason in problems(). pieces() is the largest N for which every slice of at
// most N pieces is present. The probe answers for every slice present.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/variant.hpp"
#include "eval/egdb/block_cache.hpp"
#include "eval/egdb/format.hpp"
#include "eval/egdb/index.hpp"

namespace tsuru::egdb {

// Why rule set v has no endgame databases, or nullopt when it can have them.
std::optional<std::string> unsupported(Variant v);

// The index layout of rule set v's board.
Layout layout_of(Variant v);

// A read-only memory map of a whole file.
class MappedFile {
 public:
  static Expected<MappedFile> open(const std::string& path);
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();
  const std::uint8_t* data() const { return static_cast<const std::uint8_t*>(addr_); }
  std::size_t size() const { return size_; }

 private:
  MappedFile() = default;
  void* addr_ = nullptr;
  std::size_t size_ = 0;
};

// A probe's answer for the side to move: win, draw or loss, and the plies to the end of the game
// with best play when the slice stores distances (-1 otherwise; 0 for draws).
struct Probe {
  Wdl wdl = Wdl::Draw;
  int distance = -1;
};

struct SliceInfo {
  Slice slice;
  SliceCounts counts;
  bool distance = false;
  std::uint64_t bytes = 0;
  std::string path;
  bool play = false;  // a play file: threats left out (format.hpp, kFlagThreatsOmitted)
};

// What a directory holds for one rule set, judged by the files' names and headers only (cheap:
// nothing is mapped or checksummed; Database::open checks every byte).
struct SetSurvey {
  Variant variant = Variant::International;
  int pieces = 0;   // the largest N with every slice of 2..N pieces present
  int files = 0;    // slice files whose header is right
  int refused = 0;  // slice files whose header is not (a damaged or foreign file)
};
// The rule sets with at least one slice file in dir, in the registry's order; empty when dir
// is no directory.
std::vector<SetSurvey> survey(const std::string& dir);
// The complete sets of a survey as rule set:pieces, comma-separated ("english:7,international:4"),
// or "none".
std::string summary(const std::vector<SetSurvey>& sets);

class Database {
 public:
  // Fails only when the rule set is unsupported or dir is no directory; an empty directory
  // gives a database of 0 pieces.
  // cache_bytes: the decoded blocks kept for the probes (block_cache.hpp). check_blocks: decode
  // every block of the compact files first (SliceView::parse; `egdb info` does, the engine
  // does not).
  static Expected<std::shared_ptr<const Database>> open(Variant v, const std::string& dir,
                                                        std::size_t cache_bytes = kDefaultCache,
                                                        bool check_blocks = true);
  static constexpr std::size_t kDefaultCache = std::size_t{64} << 20;

  Variant variant() const { return variant_; }
  int pieces() const { return pieces_; }
  // The most pieces of any slice present (at least pieces(): a set may be partly built).
  int probe_limit() const { return probe_limit_; }
  // nullopt when the position's slice is not present or it is no position of the index (a
  // man on its own crowning row; a side without pieces). A position with a capture pending
  // that its file leaves out (format version 2) is answered through its captures, from the
  // slices they lead to (nullopt when one is missing): the same value and distance the
  // generator gave it. A threat a play file leaves out (format.hpp, kFlagThreatsOmitted;
  // capture_positions.hpp) is answered through its moves the same way.
  std::optional<Probe> probe(const Position& pos) const;
  // The same for a position the caller knows has no capture pending (the search's probes):
  // no move generation, but for a threat in a play file (the exact probe then). For a position
  // with a capture pending the answer is meaningless.
  std::optional<Probe> probe_quiet(const Position& pos) const;
  // The shared cache of decoded blocks: its hits and misses so far.
  std::uint64_t cache_hits() const;
  std::uint64_t cache_misses() const;
  const std::vector<std::string>& problems() const { return problems_; }
  std::vector<SliceInfo> slices() const;
  std::uint64_t bytes() const;

 private:
  struct Entry {
    MappedFile file;
    SliceView view;
    SliceInfo info;
  };
  Variant variant_ = Variant::International;
  Layout layout_;
  int pieces_ = 0;
  int probe_limit_ = 0;
  std::vector<Entry> entries_;
  std::vector<int> by_code_;  // Slice::code() -> entries_ index, -1 when absent
  std::vector<std::string> problems_;
  std::unique_ptr<BlockCache> cache_;
  const Entry* entry_of(const Position& pos, std::uint64_t& index) const;
  std::optional<Probe> stored(const Entry& e, std::uint64_t index) const;
};

}  // namespace tsuru::egdb
