// Opening books: the file format (round trip, every kind of damage rejected), lookup, the
// builder on a tiny budget, and how the engine uses a book.
#include <sys/stat.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string_view>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "book/ballots.hpp"
#include "book/book.hpp"
#include "engine/engine.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "tests/reference_data.hpp"
#include "tools/book/builder.hpp"

using namespace tsuru;

namespace {

std::vector<book::Record> start_records(Variant v) {
  std::vector<book::Record> records;
  const Position start = start_position(v);
  std::int16_t score = 50;
  for (const Move& m : legal_moves(v, start)) records.push_back({start.key(), m, score--, 9});
  return records;
}

// Rewrites the header checksum so that only the damage under test is left.
void reseal(std::vector<std::uint8_t>& bytes) {
  const std::uint64_t h =
      book::fnv1a(bytes.data() + book::kHeaderSize, bytes.size() - book::kHeaderSize);
  for (int i = 0; i < 8; ++i)
    bytes[48 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(h >> (8 * i));
}

std::string temp_path(const std::string& name) {
  // The pid keeps concurrent test runs apart.
  return (std::filesystem::temp_directory_path() /
          ("tsuru_test_" + std::to_string(getpid()) + "_" + name))
      .string();
}

}  // namespace

TEST_CASE("book format: round trip", "[book]") {
  for (Variant v : all_variants()) {
    const auto records = start_records(v);
    const auto bytes = book::encode(v, records);
    CHECK(bytes.size() == book::kHeaderSize + records.size() * book::kRecordSize);
    const auto decoded = book::decode(v, bytes);
    REQUIRE(decoded.ok());
    REQUIRE(decoded->size() == records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
      CHECK(decoded.value()[i].key == records[i].key);
      CHECK(decoded.value()[i].move == records[i].move);
      CHECK(decoded.value()[i].score == records[i].score);
      CHECK(decoded.value()[i].depth == records[i].depth);
    }
  }
}

TEST_CASE("book format: the checksum is FNV-1a 64", "[book]") {
  // Test vectors published with the FNV reference code (isthe.com/chongo/tech/comp/fnv).
  auto of = [](std::string_view text) {
    return book::fnv1a(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  };
  CHECK(of("") == 0xcbf29ce484222325ULL);
  CHECK(of("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(of("foobar") == 0x85944171f73967e8ULL);
  // The header holds the checksum of the records, at offset 48.
  const auto bytes = book::encode(Variant::English, start_records(Variant::English));
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i)
    stored |= std::uint64_t{bytes[48 + static_cast<std::size_t>(i)]} << (8 * i);
  CHECK(stored == book::fnv1a(bytes.data() + book::kHeaderSize, bytes.size() - book::kHeaderSize));
}

TEST_CASE("book format: damaged or foreign files are rejected with a reason", "[book]") {
  const Variant v = Variant::International;
  const auto good = book::encode(v, start_records(v));
  auto rejected = [&](std::vector<std::uint8_t> bytes, Variant as, const std::string& why) {
    const auto r = book::decode(as, bytes);
    REQUIRE_FALSE(r.ok());
    INFO(r.error());
    CHECK(r.error().find(why) != std::string::npos);
  };
  rejected({}, v, "too short");
  auto magic = good;
  magic[0] = 'X';
  rejected(magic, v, "magic");
  auto version = good;
  version[8] = 99;
  rejected(version, v, "version");
  rejected(good, Variant::English, "rule set");
  auto keys = good;
  keys[32] ^= 1;
  rejected(keys, v, "different position keys");
  auto truncated = good;
  truncated.resize(truncated.size() - 5);
  rejected(truncated, v, "truncated");
  auto flipped = good;
  flipped[book::kHeaderSize + 30] ^= 0x40;
  rejected(flipped, v, "checksum");
  // Records swapped (checksum made right again): out of order.
  auto swapped = good;
  std::swap_ranges(swapped.begin() + book::kHeaderSize,
                   swapped.begin() + book::kHeaderSize + book::kRecordSize,
                   swapped.begin() + book::kHeaderSize + book::kRecordSize);
  reseal(swapped);
  rejected(swapped, v, "out of order");
  // A move from a ghost square (bit 10 on the 10x10 board).
  auto ghost = good;
  ghost[book::kHeaderSize + 16] = 10;
  reseal(ghost);
  rejected(ghost, v, "impossible move");
  CHECK_FALSE(book::read_file(v, temp_path("missing.book")).ok());
}

TEST_CASE("book files: huge, sparse, foreign or non-regular files are refused by the header",
          "[book]") {
  namespace fs = std::filesystem;
  const Variant v = Variant::International;
  const auto good = book::encode(v, start_records(v));
  auto write = [](const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  };
  auto set_count = [](std::vector<std::uint8_t>& bytes, std::uint64_t count) {
    for (int i = 0; i < 8; ++i)
      bytes[40 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(count >> (8 * i));
  };
  auto refused = [&](const std::string& path, const std::string& why) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = book::read_file(v, path);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE_FALSE(r.ok());
    INFO(r.error());
    CHECK(r.error().find(why) != std::string::npos);
    // Judged by the header: no record is read (reading 3 GB takes many seconds, if memory
    // allows it at all).
    CHECK(seconds < 0.5);
  };
  constexpr std::uintmax_t k3GB = std::uintmax_t{3} << 30;
  const std::string path = temp_path("huge.book");

  // A sparse 3 GB file of zeros: not a book.
  write(path, {});
  fs::resize_file(path, k3GB);
  refused(path, "bad magic");
  // A good header followed by 3 GB: the header's count does not match the size.
  write(path, good);
  fs::resize_file(path, k3GB);
  refused(path, "truncated or has trailing bytes");
  // A header whose count matches the 3 GB: more records than any book may hold.
  auto huge = good;
  huge.resize(book::kHeaderSize);
  const std::uint64_t count = (k3GB - book::kHeaderSize) / book::kRecordSize;
  set_count(huge, count);
  write(path, huge);
  fs::resize_file(path, book::kHeaderSize + count * book::kRecordSize);
  refused(path, "more than the limit");
  // A book on the limit's right side is still read.
  write(path, good);
  CHECK(book::read_file(v, path).ok());
  // Damage found while reading the records in chunks is still reported.
  auto flipped = good;
  flipped[book::kHeaderSize + 30] ^= 0x40;
  write(path, flipped);
  refused(path, "checksum");
  fs::remove(path);

  // A directory, a FIFO: refused with a reason (a FIFO would block a reader for ever).
  const std::string dir = temp_path("book_dir");
  fs::create_directory(dir);
  refused(dir, "is a directory");
  fs::remove(dir);
  const std::string fifo = temp_path("book_fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  refused(fifo, "not a regular file");
  fs::remove(fifo);
}

TEST_CASE("book files: writing leaves another FILE.tmp alone", "[book]") {
  const Variant v = Variant::English;
  const std::string path = temp_path("tmp_alone.book");
  {
    std::ofstream other(path + ".tmp");
    other << "someone else's file\n";
  }
  REQUIRE(book::write_file(v, path, start_records(v)).ok());
  CHECK(book::read_file(v, path).ok());
  std::ifstream other(path + ".tmp");
  std::string line;
  std::getline(other, line);
  CHECK(line == "someone else's file");
  // No temporary file is left behind.
  int leftovers = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    if (entry.path().string().starts_with(path + ".tmp.")) ++leftovers;
  CHECK(leftovers == 0);
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".tmp");
}

TEST_CASE("book lookup: legal moves only, best first; choice within the margin", "[book]") {
  const Variant v = Variant::International;
  auto records = start_records(v);
  // A record for the start key whose move is not legal there is ignored.
  records.push_back({start_position(v).key(), Move(0, 6, 0, false), 99, 5});
  const book::Book b(v, records);
  const auto moves = b.moves(start_position(v));
  REQUIRE(moves.size() == 9);
  CHECK(moves.front().score == 50);
  for (std::size_t i = 1; i < moves.size(); ++i) CHECK(moves[i - 1].score >= moves[i].score);
  CHECK(b.moves(start_position(v).after(moves[0].move)).empty());
  std::mt19937_64 rng(3);
  std::set<std::string> chosen;
  for (int i = 0; i < 50; ++i) {
    chosen.insert(notation::format_move(v, b.choose(start_position(v), 0, rng)->move));
  }
  CHECK(chosen.size() == 1);
  for (int i = 0; i < 200; ++i)
    chosen.insert(notation::format_move(v, b.choose(start_position(v), 3, rng)->move));
  CHECK(chosen.size() == 4);  // scores 50, 49, 48, 47
  CHECK_FALSE(b.choose(start_position(v).after(moves[0].move), 100, rng).has_value());
}

TEST_CASE("book builder: a tiny budget, then a resumed run", "[book]") {
  const std::string path = temp_path("built.book");
  std::filesystem::remove(path);
  book::BuildOptions o;
  o.variant = Variant::International;
  o.out = path;
  o.positions = 3;
  o.depth = 2;
  o.tt_log2 = 14;
  int calls = 0;
  o.progress = [&](int, int) { ++calls; };
  const auto first = book::build(o);
  REQUIRE(first.ok());
  CHECK(first->analysed == 3);
  CHECK(calls == 3);
  const auto loaded = book::Book::load(o.variant, path);
  REQUIRE(loaded.ok());
  CHECK(loaded->positions() == 3);
  CHECK(loaded->moves(start_position(o.variant)).size() == 9);
  const auto second = book::build(o);
  REQUIRE(second.ok());
  CHECK(second->positions == 6);
  std::filesystem::remove(path);
}

TEST_CASE("the English ballots agree with the reference table", "[book]") {
  const auto& ballots = book::english_ballots();
  CHECK(ballots.size() == 174);
  int standard = 0;
  for (const auto& b : ballots) {
    standard += b.standard ? 1 : 0;
    INFO(b.id);
    CHECK(notation::parse_fen(Variant::English, std::string(b.fen)).ok());
  }
  CHECK(standard == 157);
}

TEST_CASE("the engine plays book moves at once, within book-ply, never in analysis",
          "[book][engine]") {
  const Variant v = Variant::International;
  const std::string path = temp_path("engine.book");
  REQUIRE(book::write_file(v, path, start_records(v)).ok());
  Engine e;
  EngineOptions o;
  o.tt_log2 = 14;
  o.book_file = path;
  e.set_options(o);
  e.set_position(Game(v));
  auto play = [&](SearchLimits limits) {
    std::vector<SearchInfo> infos;
    const BestMove best = e.think(limits, [&](const SearchInfo& i) { infos.push_back(i); });
    return std::make_pair(best, infos);
  };
  SearchLimits think;
  think.depth = 4;
  auto [best, infos] = play(think);
  REQUIRE(infos.size() == 1);
  CHECK(infos[0].from_book);
  CHECK(infos[0].score == 50);
  const Move top = start_records(v).front().move;
  CHECK(best.move == top);
  SearchLimits analyze = think;
  analyze.analyze = true;
  auto [abest, ainfos] = play(analyze);
  REQUIRE(!ainfos.empty());
  CHECK_FALSE(ainfos.back().from_book);
  o.book_ply = 0;
  e.set_options(o);
  CHECK_FALSE(play(think).second.back().from_book);
  o.book_ply = 40;
  o.level = Level::Medium;
  e.set_options(o);
  CHECK_FALSE(play(think).second.back().from_book);
  o.level = Level::None;
  o.book = false;
  e.set_options(o);
  CHECK_FALSE(play(think).second.back().from_book);
  std::filesystem::remove(path);
}

TEST_CASE("the engine refuses a huge book-file at once and searches instead", "[book][engine]") {
  // A 3 GB sparse file whose header claims as many records as fit: refused by the header (it
  // was read whole before: seconds, and 3 GB of memory or std::bad_alloc).
  const Variant v = Variant::International;
  const std::string path = temp_path("engine_huge.book");
  auto header = book::encode(v, {});
  const std::uint64_t count = ((std::uint64_t{3} << 30) - book::kHeaderSize) / book::kRecordSize;
  for (int i = 0; i < 8; ++i)
    header[40 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(count >> (8 * i));
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(header.data()),
              static_cast<std::streamsize>(header.size()));
  }
  std::filesystem::resize_file(path, book::kHeaderSize + count * book::kRecordSize);
  Engine e;
  EngineOptions o;
  o.tt_log2 = 14;
  o.book_file = path;
  e.set_options(o);
  e.set_position(Game(v));
  SearchLimits limits;
  limits.depth = 2;
  std::vector<SearchInfo> infos;
  const auto start = std::chrono::steady_clock::now();
  const BestMove best = e.think(limits, [&](const SearchInfo& i) { infos.push_back(i); });
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  CHECK(best.has_move);
  REQUIRE_FALSE(infos.empty());
  CHECK_FALSE(infos.back().from_book);
  std::filesystem::remove(path);
}

TEST_CASE("a default book ships for each rule set", "[book]") {
  for (Variant v : {Variant::English, Variant::International}) {
    const auto path = book::default_book_path(v);
    INFO(info(v).name);
    REQUIRE(path.has_value());
    const auto b = book::Book::load(v, *path);
    REQUIRE(b.ok());
    CHECK(b->moves(start_position(v)).size() == legal_moves(v, start_position(v)).size());
  }
}
