#include "book/book.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "book/data_dir.hpp"
#include "engine/rules/legal.hpp"

namespace tsuru::book {

Book::Book(Variant v, std::vector<Record> records) : variant_(v), records_(std::move(records)) {
  std::sort(records_.begin(), records_.end());
}

Expected<Book> Book::load(Variant v, const std::string& path) {
  auto records = read_file(v, path);
  if (!records) return Expected<Book>::failure(records.error());
  return Book(v, std::move(records.value()));
}

std::size_t Book::positions() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < records_.size(); ++i)
    if (i == 0 || records_[i].key != records_[i - 1].key) ++n;
  return n;
}

std::vector<BookMove> Book::moves(const Position& pos) const {
  std::vector<BookMove> out;
  auto it = std::lower_bound(records_.begin(), records_.end(), pos.key(),
                             [](const Record& r, Key k) { return r.key < k; });
  if (it == records_.end() || it->key != pos.key()) return out;
  // A key collision or a stale record must never produce an illegal move.
  const MoveList legal = legal_moves(variant_, pos);
  for (; it != records_.end() && it->key == pos.key(); ++it)
    if (legal.contains(it->move)) out.push_back({it->move, it->score, it->depth});
  return out;
}

std::optional<BookMove> Book::choose(const Position& pos, Score margin,
                                     std::mt19937_64& rng) const {
  const std::vector<BookMove> candidates = moves(pos);
  if (candidates.empty()) return std::nullopt;
  std::size_t n = 1;  // best first: count the moves within the margin
  while (n < candidates.size() && candidates[n].score >= candidates[0].score - margin) ++n;
  return candidates[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)];
}

std::optional<std::string> default_book_path(Variant v) {
  namespace fs = std::filesystem;
  const std::string file = std::string(info(v).name) + ".book";
  // A book the user put in the data directory (book/data_dir.hpp) goes before the shipped ones.
  if (auto found = data::find_file("book", file))
    return fs::path(*found).lexically_normal().string();
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / "book" / file);  // the build tree: build/book
#ifdef TSURU_RELATIVE_BOOK_DIR
    candidates.push_back(exe.parent_path() / TSURU_RELATIVE_BOOK_DIR / file);  // installed
#endif
  }
#ifdef TSURU_PREFIX_BOOK_DIR
  candidates.push_back(fs::path(TSURU_PREFIX_BOOK_DIR) / file);
#endif
#ifdef TSURU_BUILD_BOOK_DIR
  candidates.push_back(fs::path(TSURU_BUILD_BOOK_DIR) / file);
#endif
  for (const fs::path& p : candidates)
    if (fs::is_regular_file(p, ec)) return p.lexically_normal().string();
  return std::nullopt;
}

}  // namespace tsuru::book
