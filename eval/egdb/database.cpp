#include "eval/egdb/database.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/rules/movegen.hpp"
#include "engine/rules/movegen_lines.hpp"
#include "eval/egdb/capture_positions.hpp"
#include "eval/egdb/plan.hpp"

namespace tsuru::egdb {

std::optional<std::string> unsupported(Variant v) {
  // Read from the trait, so that a new rule set gets its databases unless its rules rule them
  // out.
  return with_rules(v, []<class R>(R) -> std::optional<std::string> {
    if constexpr (R::kKingMoveLimit > 0)
      return std::string(R::kName) + ": a king may make only " + std::to_string(R::kKingMoveLimit) +
             " quiet moves in a row, so a position's value "
             "depends on the moves before it; the databases hold positions without history";
    if constexpr (R::kFirstKingWins)
      return std::string(R::kName) +
             ": the first king wins, so every ending is a men race the search reads out; no "
             "databases";
    return std::nullopt;
  });
}

Layout layout_of(Variant v) {
  return with_rules(v, []<class R>(R) { return Layout::of<typename R::Geometry>(); });
}

Expected<MappedFile> MappedFile::open(const std::string& path) {
  using E = Expected<MappedFile>;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return E::failure(path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return E::failure(path + ": not a regular file");
  }
  MappedFile f;
  f.size_ = static_cast<std::size_t>(st.st_size);
  if (f.size_ > 0) {
    void* addr = ::mmap(nullptr, f.size_, PROT_READ, MAP_SHARED, fd, 0);
    if (addr == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return E::failure(path + ": mmap: " + std::strerror(err));
    }
    f.addr_ = addr;
  }
  ::close(fd);
  return f;
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : addr_(std::exchange(o.addr_, nullptr)), size_(std::exchange(o.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (addr_) ::munmap(addr_, size_);
    addr_ = std::exchange(o.addr_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (addr_) ::munmap(addr_, size_);
}

Expected<std::shared_ptr<const Database>> Database::open(Variant v, const std::string& dir,
                                                         std::size_t cache_bytes,
                                                         bool check_blocks) {
  using E = Expected<std::shared_ptr<const Database>>;
  if (const auto why = unsupported(v)) return E::failure(*why);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return E::failure(dir + ": not a directory");
  auto db = std::make_shared<Database>();
  db->variant_ = v;
  db->layout_ = layout_of(v);
  db->by_code_.assign(1 << 16, -1);
  db->cache_ = std::make_unique<BlockCache>(cache_bytes);
  const std::string rules(info(v).name);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const std::string prefix = rules + "-", suffix = ".egdb";
    if (name.size() != prefix.size() + 4 + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.substr(name.size() - suffix.size()) != suffix)
      continue;
    names.push_back(name);
  }
  if (ec) return E::failure(dir + ": " + ec.message());
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    const auto slice = Slice::parse(name.substr(rules.size() + 1, 4));
    if (!slice) {
      db->problems_.push_back(path + ": not a slice name");
      continue;
    }
    auto file = MappedFile::open(path);
    if (!file) {
      db->problems_.push_back(file.error());
      continue;
    }
    auto view = SliceView::parse(file->data(), file->size(), rules, *slice,
                                 slice_size(db->layout_, *slice), check_blocks);
    if (!view) {
      db->problems_.push_back(path + ": " + view.error());
      continue;
    }
    db->probe_limit_ = std::max(db->probe_limit_, slice->pieces());
    SliceInfo si{*slice,       view->counts(), view->has_distance(),
                 file->size(), path,           view->omits_threats()};
    db->by_code_[static_cast<std::size_t>(slice->code())] = static_cast<int>(db->entries_.size());
    SliceView checked = view.value();
    checked.use_cache(db->cache_.get());
    db->entries_.push_back(Entry{std::move(file.value()), checked, si});
  }
  // The largest N with every slice of 2..N pieces present.
  for (int n = 2; n <= 15; ++n) {
    bool complete = true;
    for (const Slice& s : slices_with(n))
      complete = complete && db->by_code_[static_cast<std::size_t>(s.code())] >= 0;
    if (!complete) break;
    db->pieces_ = n;
  }
  return std::shared_ptr<const Database>(std::move(db));
}

std::string summary(const std::vector<SetSurvey>& sets) {
  std::string out;
  for (const SetSurvey& s : sets) {
    if (s.pieces < 2) continue;
    if (!out.empty()) out += ',';
    out += std::string(info(s.variant).name) + ":" + std::to_string(s.pieces);
  }
  return out.empty() ? "none" : out;
}

std::vector<SetSurvey> survey(const std::string& dir) {
  std::vector<SetSurvey> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    names.push_back(entry.path().filename().string());
  for (const Variant v : all_variants()) {
    if (unsupported(v)) continue;
    const std::string prefix = std::string(info(v).name) + "-", suffix = ".egdb";
    SetSurvey s;
    s.variant = v;
    std::vector<bool> present(1 << 16, false);
    for (const std::string& name : names) {
      if (name.size() != prefix.size() + 4 + suffix.size() || name.rfind(prefix, 0) != 0 ||
          name.substr(name.size() - suffix.size()) != suffix)
        continue;
      const auto slice = Slice::parse(name.substr(prefix.size(), 4));
      if (!slice) continue;
      std::uint8_t header[kHeaderSize] = {};
      std::ifstream in((std::filesystem::path(dir) / name).string(), std::ios::binary);
      in.read(reinterpret_cast<char*>(header), kHeaderSize);
      const auto got = static_cast<std::size_t>(in.gcount());
      if (header_problem(header, got, info(v).name, *slice)) {
        ++s.refused;
        continue;
      }
      ++s.files;
      present[static_cast<std::size_t>(slice->code())] = true;
    }
    if (s.files == 0 && s.refused == 0) continue;
    for (int n = 2; n <= 15; ++n) {
      bool complete = true;
      for (const Slice& sl : slices_with(n))
        complete = complete && present[static_cast<std::size_t>(sl.code())];
      if (!complete) break;
      s.pieces = n;
    }
    out.push_back(s);
  }
  return out;
}

const Database::Entry* Database::entry_of(const Position& pos, std::uint64_t& index) const {
  if (popcount(pos.occupied()) > probe_limit_) return nullptr;
  const auto loc = locate(layout_, pos);
  if (!loc) return nullptr;
  const int e = by_code_[static_cast<std::size_t>(loc->slice.code())];
  if (e < 0) return nullptr;
  index = loc->index;
  return &entries_[static_cast<std::size_t>(e)];
}

std::optional<Probe> Database::stored(const Entry& e, std::uint64_t index) const {
  Probe p;
  p.wdl = e.view.wdl(index);
  p.distance = e.view.has_distance() ? (p.wdl == Wdl::Draw ? 0 : e.view.distance(index)) : -1;
  return p;
}

std::optional<Probe> Database::probe_quiet(const Position& pos) const {
  std::uint64_t index = 0;
  const Entry* e = entry_of(pos, index);
  if (!e) return std::nullopt;
  // A threat a play file may leave out: the exact probe tells (and resolves it through its moves).
  if (e->view.omits_threats() &&
      with_rules(variant_, [&]<class R>(R) { return MoveGen<R>::has_capture(pos.passed()); }))
    return probe(pos);
  return stored(*e, index);
}

namespace {

// The value of a position from its moves' (a position with a capture pending from its captures,
// a threat from its quiet moves), by the generator's rule: a move to the opponent's loss wins
// one ply beyond the fastest such; all moves to the opponent's wins lose one ply beyond the
// slowest; else a draw. with_distance: the position's file stores distances, so the answer has
// one when every child's has.
template <class R, class ProbeChild>
std::optional<Probe> through_moves(const Position& pos, const MoveList& moves, bool with_distance,
                                   const ProbeChild& probe_child) {
  int fastest = -1, slowest = 0;
  bool any_loss = false, all_won = true, exact = with_distance;
  for (const Move& m : moves) {
    const Position child = pos.after(m);
    Probe c;
    if (child.pieces(child.turn()) == 0) {
      c.wdl = R::kNoMoveWins ? Wdl::Win : Wdl::Loss;  // the opponent cannot move
      c.distance = 0;
    } else {
      const std::optional<Probe> got = probe_child(child);
      if (!got) return std::nullopt;
      c = *got;
    }
    exact = exact && c.distance >= 0;
    if (c.wdl == Wdl::Loss) {
      fastest = !any_loss ? c.distance : std::min(fastest, c.distance);
      any_loss = true;
      all_won = false;
    } else if (c.wdl == Wdl::Win) {
      slowest = std::max(slowest, c.distance);
    } else {
      all_won = false;
    }
  }
  Probe p;
  if (any_loss) {
    p.wdl = Wdl::Win;
    p.distance = exact ? fastest + 1 : -1;
  } else if (all_won) {
    p.wdl = Wdl::Loss;
    p.distance = exact ? slowest + 1 : -1;
  } else {
    p.wdl = Wdl::Draw;
    p.distance = with_distance ? 0 : -1;
  }
  return p;
}

}  // namespace

std::optional<Probe> Database::probe(const Position& pos) const {
  std::uint64_t index = 0;
  const Entry* e = entry_of(pos, index);
  if (!e) return std::nullopt;
  if (!e->view.omits_captures()) return stored(*e, index);
  return with_rules(variant_, [&]<class R>(R) -> std::optional<Probe> {
    MoveList moves;
    MoveGen<R>::generate(pos, moves);
    // A threat the file leaves out has no threat among its children, so this recursion ends:
    // a capture leads to fewer pieces, a threat's move to a position the file stores or to one
    // with a capture.
    const bool capture = !moves.empty() && moves[0].is_capture();
    if (!capture && !(e->view.omits_threats() && is_omitted_threat<R>(pos, moves)))
      return stored(*e, index);
    return through_moves<R>(pos, moves, e->view.has_distance(),
                            [&](const Position& child) { return probe(child); });
  });
}

std::uint64_t Database::cache_hits() const {
  return cache_->hits();
}

std::uint64_t Database::cache_misses() const {
  return cache_->misses();
}

std::vector<SliceInfo> Database::slices() const {
  std::vector<SliceInfo> out;
  for (const Entry& e : entries_) out.push_back(e.info);
  return out;
}

std::uint64_t Database::bytes() const {
  std::uint64_t n = 0;
  for (const Entry& e : entries_) n += e.info.bytes;
  return n;
}

}  // namespace tsuru::egdb
