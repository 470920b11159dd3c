// The compact database files (format version 2, eval/egdb/format.hpp): the run coder against
// sequences whose runs are known, the new files against the old ones (version 1, every position
// stored) on every index of whole sets, the generator building on compact files, and damaged
// or future files refused with their reason.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <catch2/catch.hpp>

#include "engine/engine.hpp"
#include "engine/rules/binary_io.hpp"
#include "engine/rules/legal.hpp"
#include "eval/egdb/capture_positions.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/generator.hpp"
#include "eval/egdb/packed_values.hpp"
#include "eval/egdb/plan.hpp"
#include "eval/egdb/run_coder.hpp"
#include "tests/egdb_data.hpp"
#include "tests/engine_helpers.hpp"
#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"

namespace tsuru {
namespace {

namespace fs = std::filesystem;

void build(Variant v, const fs::path& dir, int pieces, std::uint32_t version, int threads = 1,
           int distance_pieces = 4) {
  with_rules(v, [&]<class R>(R) {
    egdb::BuildOptions o;
    o.dir = dir.string();
    o.threads = threads;
    o.distance_pieces = distance_pieces;
    o.progress = false;
    o.version = version;
    egdb::Generator<R> g(v, o);
    for (const egdb::Unit& u : egdb::plan(pieces)) g.build(u);
  });
}

// Runs of given symbols and lengths, laid end to end.
std::vector<std::uint8_t> runs(const std::vector<std::pair<int, std::uint32_t>>& spec) {
  std::vector<std::uint8_t> out;
  for (const auto& [symbol, length] : spec)
    out.insert(out.end(), length, static_cast<std::uint8_t>(symbol));
  return out;
}

void check_round_trip(const std::vector<std::uint8_t>& symbols) {
  std::vector<std::uint8_t> coded;
  egdb::encode_runs(symbols, coded);
  const auto n = static_cast<std::uint32_t>(symbols.size());
  std::vector<std::uint8_t> back;
  const auto why = egdb::decode_runs(coded.data(), coded.size(), n, &back);
  INFO((why ? *why : std::string()));
  REQUIRE_FALSE(why);
  CHECK(back == symbols);
  // Straight into the packed form the block cache keeps: the same as packing the symbols.
  std::vector<std::uint8_t> packed, want;
  REQUIRE_FALSE(egdb::decode_packed(coded.data(), coded.size(), n, packed));
  want.assign((symbols.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < symbols.size(); ++i)
    want[i / 4] = static_cast<std::uint8_t>(want[i / 4] | (symbols[i] << (2 * (i % 4))));
  CHECK(packed == want);
  for (std::uint32_t i = 0; i < n; i += 1 + n / 512)
    CHECK(egdb::symbol_at(coded.data(), coded.size(), n, i) == symbols[i]);
  CHECK(egdb::symbol_at(coded.data(), coded.size(), n, n - 1) == symbols[n - 1]);
  // The block cut short is refused, and so is a shorter count that ends inside a run.
  if (coded.size() > 1) CHECK(egdb::decode_runs(coded.data(), coded.size() / 2, n, nullptr));
  if (n > 1 && symbols[n - 1] == symbols[n - 2])
    CHECK(egdb::decode_runs(coded.data(), coded.size(), n - 1, nullptr));
}

// Every valid index of every slice of rule set v in both directories: the same probe answer
// (the compact files answer the omitted positions through their captures). threads: probes of
// the compact set from several threads at once, through one small shared cache.
void check_same(Variant v, const fs::path& old_dir, const fs::path& new_dir, int pieces,
                int threads, std::size_t cache_bytes) {
  const auto old_db = egdb::Database::open(v, old_dir.string());
  const auto new_db = egdb::Database::open(v, new_dir.string(), cache_bytes);
  REQUIRE(old_db.ok());
  REQUIRE(new_db.ok());
  REQUIRE((*old_db)->pieces() == pieces);
  REQUIRE((*new_db)->pieces() == pieces);
  REQUIRE((*new_db)->problems().empty());
  const egdb::Layout layout = egdb::layout_of(v);
  std::uint64_t compared = 0, through_captures = 0, wrong = 0;
  for (const egdb::SliceInfo& info : (*new_db)->slices()) {
    const egdb::Slice s = info.slice;
    const std::uint64_t n = egdb::slice_size(layout, s);
    std::vector<std::uint64_t> seen(static_cast<std::size_t>(threads)), bad(seen), captures(seen);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        const auto u = static_cast<std::uint64_t>(t);
        const auto k = static_cast<std::uint64_t>(threads);
        for (std::uint64_t i = n * u / k; i < n * (u + 1) / k; ++i) {
          const auto placement = egdb::unrank(layout, s, i);
          if (!placement) continue;
          const Position pos = egdb::position_of(layout, *placement);
          const auto a = (*old_db)->probe(pos);
          const auto b = (*new_db)->probe(pos);
          ++seen[u];
          if (!a || !b || a->wdl != b->wdl || a->distance != b->distance) ++bad[u];
          if (has_capture(v, pos)) ++captures[u];
        }
      });
    for (auto& th : pool) th.join();
    for (int t = 0; t < threads; ++t) {
      compared += seen[static_cast<std::size_t>(t)];
      wrong += bad[static_cast<std::size_t>(t)];
      through_captures += captures[static_cast<std::size_t>(t)];
    }
    INFO("slice " << s.name());
    REQUIRE(wrong == 0);
  }
  INFO("compared " << compared << ", through captures " << through_captures);
  CHECK(compared > 0);
  CHECK(through_captures > 0);
  CHECK((*new_db)->cache_misses() > 0);
  // The compact files are smaller.
  CHECK((*new_db)->bytes() < (*old_db)->bytes());
}

// Rewrites the FNV-1a checksums of a file image after an edit (format.hpp: the body's at 124,
// the header's first 132 bytes at 132).
void reseal(std::vector<std::uint8_t>& file) {
  std::vector<std::uint8_t> body_sum, header_sum;
  put_le(body_sum, fnv1a(file.data() + 160, file.size() - 160), 8);
  std::copy(body_sum.begin(), body_sum.end(), file.begin() + 124);
  put_le(header_sum, fnv1a(file.data(), 132), 8);
  std::copy(header_sum.begin(), header_sum.end(), file.begin() + 132);
}

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The English slice file of s in dir, read whole, and its view (which points into the bytes).
struct SliceFile {
  std::vector<std::uint8_t> bytes;
  egdb::SliceView view;
};
SliceFile read_slice(const fs::path& dir, const egdb::Slice& s) {
  std::vector<std::uint8_t> bytes = read_bytes(dir / ("english-" + s.name() + ".egdb"));
  const auto size = egdb::slice_size(egdb::layout_of(Variant::English), s);
  const auto view = egdb::SliceView::parse(bytes.data(), bytes.size(), "english", s, size);
  REQUIRE(view.ok());
  return {std::move(bytes), view.value()};  // (moving the bytes keeps their address)
}

}  // namespace

TEST_CASE("egdb run coder: blocks decode to the symbols coded, alone and up to any index",
          "[egdb][compact]") {
  check_round_trip({0});
  check_round_trip({2});
  check_round_trip(runs({{1, 32768}}));
  check_round_trip(runs({{0, 1}, {1, 1}, {2, 1}, {0, 1}, {2, 1}, {1, 1}}));
  check_round_trip(runs({{1, 3}, {2, 9}, {1, 5}, {0, 2}, {2, 4}, {1, 1}, {2, 7}}));
  check_round_trip(runs({{2, 1},
                         {0, 2},
                         {1, 3},
                         {2, 4},
                         {0, 127},
                         {1, 128},
                         {2, 129},
                         {0, 255},
                         {1, 256},
                         {2, 30000}}));
  // Random runs of random lengths (geometric-like), a full block.
  std::mt19937 rng(7);
  std::vector<std::uint8_t> s;
  unsigned symbol = 0;
  while (s.size() < 32768) {
    const auto length = static_cast<std::uint32_t>(1U + (rng() % (1U << (rng() % 12))));
    s.insert(s.end(), std::min<std::size_t>(length, 32768 - s.size()),
             static_cast<std::uint8_t>(symbol));
    symbol = static_cast<unsigned>((symbol + 1 + rng() % 2) % 3);
  }
  check_round_trip(s);
  // Noise: every symbol random.
  std::vector<std::uint8_t> noise(5000);
  for (auto& x : noise) x = static_cast<std::uint8_t>(rng() % 3);
  check_round_trip(noise);
  // Garbage is refused or decodes to exactly n symbols, never more, and never crashes.
  for (int k = 0; k < 200; ++k) {
    std::vector<std::uint8_t> junk(1 + rng() % 64);
    for (auto& x : junk) x = static_cast<std::uint8_t>(rng());
    std::vector<std::uint8_t> out;
    if (!egdb::decode_runs(junk.data(), junk.size(), 1000, &out)) CHECK(out.size() == 1000);
  }
}

TEST_CASE("egdb compact files: the same answers as the old files on every index up to 4 pieces",
          "[egdb][compact]") {
  const fs::path old_dir = test::fresh_dir("tsuru-compact-test-v1"),
                 new_dir = test::fresh_dir("tsuru-compact-test-v2"),
                 built = test::fresh_dir("tsuru-compact-test-built");
  build(Variant::English, old_dir, 4, 1);
  // The old files rewritten by `tsuru egdb compact`, and the set built afresh in the new format
  // (the generator reads the compact files of the smaller slices back, captures restored): the
  // same bytes.
  const auto r = test::run_tsuru({"egdb", "compact", "--variant", "english", "--dir",
                                  old_dir.string(), "--out", new_dir.string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("41 files rewritten") != std::string::npos);
  // Run again (as after a stop), with one file cut short and one of the old format: the whole
  // compact files are kept, those two written again.
  const fs::path cut = new_dir / "english-0202.egdb", old = new_dir / "english-0301.egdb";
  const std::vector<std::uint8_t> whole = read_bytes(cut);
  fs::resize_file(cut, whole.size() / 2);
  fs::copy_file(old_dir / old.filename(), old, fs::copy_options::overwrite_existing);
  const auto again = test::run_tsuru({"egdb", "compact", "--variant", "english", "--dir",
                                      old_dir.string(), "--out", new_dir.string()});
  INFO(again.out << again.err);
  REQUIRE(again.code == 0);
  CHECK(again.out.find(" 2 files rewritten") != std::string::npos);
  const auto kept = test::words_of_line(again.out, "0101"),
             rewritten = test::words_of_line(again.out, "0202");
  REQUIRE(!kept.empty());
  REQUIRE(!rewritten.empty());
  CHECK(kept.back() == "(exists)");
  CHECK(rewritten.back() != "(exists)");
  CHECK(read_bytes(cut) == whole);
  build(Variant::English, built, 4, 2);
  for (const auto& entry : fs::directory_iterator(new_dir)) {
    INFO(entry.path());
    CHECK(read_bytes(entry.path()) == read_bytes(built / entry.path().filename()));
  }
  // A tiny cache (one block a shard) and two threads: blocks come and go while both probe.
  check_same(Variant::English, old_dir, new_dir, 4, 2, 1);
  fs::remove_all(old_dir);
  fs::remove_all(new_dir);
  fs::remove_all(built);
}

// Play files (`tsuru egdb compact --threats`): the threats whose moves lead to no other threat
// are left out of the slices without distances, and every index still probes to the build's
// value, the threats through their moves.
TEST_CASE("egdb play files: threats left out, the same answers on every index up to 4 pieces",
          "[egdb][compact]") {
  const fs::path built = test::fresh_dir("tsuru-play-test-built"),
                 play = test::fresh_dir("tsuru-play-test-play");
  build(Variant::English, built, 4, 2, 1, 3);  // the 4-piece slices without distances
  const auto r = test::run_tsuru({"egdb", "compact", "--variant", "english", "--dir",
                                  built.string(), "--out", play.string(), "--threats"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("25 files rewritten") != std::string::npos);  // the 4-piece slices
  const egdb::Layout layout = egdb::layout_of(Variant::English);
  std::uint64_t built_bytes = 0, play_bytes = 0;
  for (const egdb::Unit& u : egdb::plan(4))
    for (const egdb::Slice& s : {u.first, u.second}) {
      INFO(s.name());
      const SliceFile fa = read_slice(built, s), fb = read_slice(play, s);
      CHECK_FALSE(fa.view.omits_threats());
      CHECK(fb.view.omits_threats() == !fb.view.has_distance());
      CHECK(fb.view.counts().wins == fa.view.counts().wins);
      CHECK(fb.view.counts().draws == fa.view.counts().draws);
      CHECK(fb.view.counts().losses == fa.view.counts().losses);
      if (s.pieces() == 4) {
        built_bytes += fa.bytes.size();
        play_bytes += fb.bytes.size();
      } else {
        CHECK(fa.bytes == fb.bytes);  // with distances: as built
      }
    }
  CHECK(play_bytes < built_bytes * 9 / 10);
  check_same(Variant::English, built, play, 4, 2, std::size_t{1} << 20);
  // The search's probe answers every quiet position as the build files do, the threats the
  // play files leave out through the exact probe.
  const auto built_db = egdb::Database::open(Variant::English, built.string());
  const auto play_db = egdb::Database::open(Variant::English, play.string());
  REQUIRE(built_db.ok());
  REQUIRE(play_db.ok());
  std::uint64_t omitted = 0, kept_threats = 0, quiet = 0, wrong = 0;
  for (const egdb::Slice s : {egdb::Slice{1, 1, 1, 1}, egdb::Slice{2, 0, 1, 1}}) {
    for (std::uint64_t i = 0; i < egdb::slice_size(layout, s); ++i) {
      const auto placement = egdb::unrank(layout, s, i);
      if (!placement) continue;
      const Position pos = egdb::position_of(layout, *placement);
      MoveList moves;
      MoveGen<EnglishRules>::generate(pos, moves);
      if (moves.empty() || moves[0].is_capture()) continue;
      const auto want = (*built_db)->probe_quiet(pos);
      const auto got = (*play_db)->probe_quiet(pos);
      if (!want || !got || got->wdl != want->wdl) ++wrong;
      if (egdb::is_threat<EnglishRules>(pos, moves))
        ++(egdb::is_omitted_threat<EnglishRules>(pos, moves) ? omitted : kept_threats);
      else
        ++quiet;
    }
  }
  INFO(omitted << " threats omitted, " << kept_threats << " kept, " << quiet << " quiet");
  CHECK(wrong == 0);
  CHECK(omitted > 1000);
  CHECK(kept_threats > 0);
  CHECK(quiet > 1000);
  // So a search sees the same values: the same score, move and nodes with either set.
  for (const char* fen : {"W:W22,23,K3:B10,9,K28", "B:W22,27,K3:B10,9,5", "W:W30,26,21:BK5,13,14",
                          "W:W23,24,K19:B12,11,K1"}) {
    INFO(fen);
    std::vector<SearchSummary> runs;
    std::vector<BestMove> found;
    for (const fs::path& dir : {built, play}) {
      Engine engine;
      EngineOptions options = test::test_options(16);
      options.egdb_dir = dir.string();
      engine.set_options(options);
      engine.set_position(Game(Variant::English, test::fen(Variant::English, fen)));
      SearchLimits limits;
      limits.depth = 11;
      limits.analyze = true;
      found.push_back(engine.think(limits));
      runs.push_back(engine.last_search());
    }
    CHECK(runs[0].score == runs[1].score);
    CHECK(runs[0].nodes > 2000);
    CHECK(runs[0].nodes == runs[1].nodes);
    CHECK(found[0].move == found[1].move);
  }
  const auto info =
      test::run_tsuru({"egdb", "info", "--variant", "english", "--dir", play.string()});
  CHECK(info.code == 0);
  CHECK(info.out.find("41 slices (25 play files: threats left out)") != std::string::npos);
  // Per piece count: pieces, slices, positions, wins, draws, losses, with the one-sided ones
  // (the Chinook papers' count), all legal positions, bytes, bits.
  for (const auto& [n, published] : {std::pair{"3", "261224"}, std::pair{"4", "7092774"}}) {
    const auto words = test::words_of_line(info.out, n);
    INFO(info.out);
    REQUIRE(words.size() == 10);
    CHECK(words[6] == published);
    CHECK(words[7] == published);
    CHECK(std::stoull(words[3]) + std::stoull(words[4]) + std::stoull(words[5]) ==
          std::stoull(words[2]));
  }
  // Compacting play files again changes nothing.
  const auto again = test::run_tsuru(
      {"egdb", "compact", "--variant", "english", "--dir", play.string(), "--threats"});
  CHECK(again.code == 0);
  CHECK(again.out.find(" 0 files rewritten") != std::string::npos);
  // The generator does not build on play files: it needs the threats' values.
  with_rules(Variant::English, [&]<class R>(R) {
    egdb::BuildOptions o;
    o.dir = play.string();
    o.progress = false;
    egdb::Generator<R> g(Variant::English, o);
    bool refused = false;
    for (const egdb::Unit& u : egdb::plan(5)) {
      if (u.pieces() < 5) continue;
      try {
        g.build(u);
      } catch (const std::runtime_error& e) {
        refused = std::string(e.what()).find("a play file") != std::string::npos;
      }
      break;
    }
    CHECK(refused);
  });
  // A slice missing: its piece count is incomplete.
  fs::remove(play / "english-1201.egdb");
  const auto part =
      test::run_tsuru({"egdb", "info", "--variant", "english", "--dir", play.string()});
  const auto words = test::words_of_line(part.out, "4");
  REQUIRE(words.size() == 11);
  CHECK(words[1] == "24");
  CHECK(words[10] == "(incomplete)");
  CHECK(std::stoull(words[6]) < std::stoull(words[7]));
  fs::remove_all(built);
  fs::remove_all(play);
}

TEST_CASE("egdb compact files: a damaged block, a flag or a version from the future is refused",
          "[egdb][compact]") {
  const fs::path dir = test::fresh_dir("tsuru-compact-test-damaged");
  build(Variant::English, dir, 3, 2);
  const fs::path file = dir / "english-1101.egdb";
  const std::vector<std::uint8_t> good = read_bytes(file);
  REQUIRE(good.size() > 200);
  REQUIRE(get_le(good.data() + 8, 4) == 2);
  REQUIRE((good[41] & egdb::kFlagCapturesOmitted) != 0);
  const egdb::Slice s{1, 1, 0, 1};
  const auto size = egdb::slice_size(egdb::layout_of(Variant::English), s);
  auto parse = [&](const std::vector<std::uint8_t>& bytes) {
    const auto v = egdb::SliceView::parse(bytes.data(), bytes.size(), "english", s, size);
    return v ? std::string() : v.error();
  };
  CHECK(parse(good).empty());
  // A block's bytes cut short, resealed so that only the block check can see it: the offsets
  // table is the first (blocks + 1) * 4 bytes of the values.
  {
    std::vector<std::uint8_t> bad = good;
    const std::uint64_t blocks = get_le(good.data() + 88, 4);
    const std::size_t table = 160, first = table + 4 * (blocks + 1);
    const std::uint64_t end0 = get_le(good.data() + table + 4, 4);
    // Zero the first block's bytes: a range-coded block of zeros decodes to the wrong count.
    for (std::size_t i = first; i < first + end0; ++i) bad[i] = 0xFF;
    reseal(bad);
    const std::string why = parse(bad);
    INFO(why);
    CHECK_FALSE(why.empty());
    CHECK(why.find("block 0") != std::string::npos);
    // The engine's lazy check accepts it (the checksum matches), and a probe of the bad block
    // still answers within it: a value, no crash.
    const auto lazy = egdb::SliceView::parse(bad.data(), bad.size(), "english", s, size, false);
    REQUIRE(lazy.ok());
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(size, 40000); i += 97)
      CHECK(static_cast<unsigned>(lazy->wdl(i)) <= 3);
  }
  {
    std::vector<std::uint8_t> bad = good;
    bad[41] = 0x80;  // an unknown flag
    reseal(bad);
    CHECK(parse(bad) == "unknown flags in the header");
  }
  {
    std::vector<std::uint8_t> bad = good;
    bad[41] = egdb::kFlagThreatsOmitted;  // threats left out, captures stored: no such file
    reseal(bad);
    CHECK(parse(bad) == "threat positions left out without the captures");
  }
  {
    std::vector<std::uint8_t> bad = good;
    bad[8] = 3;  // version 3
    reseal(bad);
    const std::string why = parse(bad);
    CHECK(why.find("format version 3, expected 1 or 2") != std::string::npos);
    CHECK(why.find("rebuild") != std::string::npos);
  }
  fs::remove_all(dir);
}

// The 5-piece sets: English built here in the old format and rewritten (a few minutes), or any
// two directories given (TSURU_EGDB_V1_DIR, TSURU_EGDB_V2_DIR, TSURU_EGDB_VARIANT,
// TSURU_EGDB_PIECES: e.g. international up to 5 pieces).
TEST_CASE(
    "egdb compact and play files: the same answers as the old files on every index of a "
    "5-piece set",
    "[.egdb-compact-long]") {
  const char* v1 = std::getenv("TSURU_EGDB_V1_DIR");
  const char* v2 = std::getenv("TSURU_EGDB_V2_DIR");
  const char* variant = std::getenv("TSURU_EGDB_VARIANT");
  const char* pieces = std::getenv("TSURU_EGDB_PIECES");
  if (v1 && v2) {
    const Variant v = variant && std::string(variant) == "international" ? Variant::International
                                                                         : Variant::English;
    check_same(v, v1, v2, pieces ? std::atoi(pieces) : 5, 2, std::size_t{64} << 20);
    return;
  }
  const fs::path old_dir = test::fresh_dir("tsuru-compact-test-v1-5"),
                 new_dir = test::fresh_dir("tsuru-compact-test-v2-5");
  build(Variant::English, old_dir, 5, 1, 2);
  const auto r = test::run_tsuru({"egdb", "compact", "--variant", "english", "--dir",
                                  old_dir.string(), "--out", new_dir.string(), "--threads", "2"},
                                 "", std::chrono::seconds(1200));
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  check_same(Variant::English, old_dir, new_dir, 5, 2, std::size_t{64} << 20);
  // And the play files made from the compact ones (threats left out of the 5-piece slices).
  const fs::path play_dir = test::fresh_dir("tsuru-compact-test-play-5");
  const auto p =
      test::run_tsuru({"egdb", "compact", "--variant", "english", "--dir", new_dir.string(),
                       "--out", play_dir.string(), "--threats", "--threads", "2"},
                      "", std::chrono::seconds(1200));
  INFO(p.out << p.err);
  REQUIRE(p.code == 0);
  CHECK(p.out.find("44 files rewritten") != std::string::npos);
  check_same(Variant::English, new_dir, play_dir, 5, 2, std::size_t{64} << 20);
  fs::remove_all(old_dir);
  fs::remove_all(new_dir);
  fs::remove_all(play_dir);
}

TEST_CASE("egdb packed values: two bits an index, set from several threads", "[egdb][packed]") {
  const std::vector<egdb::Value> kinds = {egdb::kUnknown, egdb::kInvalid,
                                          egdb::Value(egdb::kWinFlag | 7), egdb::kWinFlag,
                                          egdb::Value(egdb::kLossFlag | 300)};
  egdb::PackedValues p(1001);
  CHECK(p.size() == 1001);
  CHECK(p.bytes() == 32 * 8);
  for (std::uint64_t i = 0; i < p.size(); ++i) CHECK(p[i] == egdb::kUnknown);
  const auto expected = [&](std::uint64_t i) {
    const egdb::Value v = kinds[i % kinds.size()];
    return egdb::is_win(v) ? egdb::kWinFlag : egdb::is_loss(v) ? egdb::kLossFlag : v;
  };
  // Four threads set interleaved indices, so every word is written by all of them at once.
  std::vector<std::thread> threads;
  for (std::uint64_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round)
        for (std::uint64_t i = t; i < p.size(); i += 4) p.set(i, kinds[i % kinds.size()]);
    });
  for (auto& th : threads) th.join();
  for (std::uint64_t i = 0; i < p.size(); ++i) {
    INFO(i);
    CHECK(p[i] == expected(i));
  }
  // set_alone overwrites whatever was there.
  p.set_alone(5, egdb::kLossFlag);
  p.set_alone(6, egdb::kUnknown);
  CHECK(p[5] == egdb::kLossFlag);
  CHECK(p[6] == egdb::kUnknown);
  CHECK(p[4] == expected(4));
  CHECK(p[7] == expected(7));
}

TEST_CASE("egdb files decode to the same win, draw or loss packed and in full", "[egdb][packed]") {
  for (const std::uint32_t version : {1U, 2U}) {
    INFO("version " << version);
    const fs::path dir = test::fresh_dir("tsuru-packed-test-v" + std::to_string(version));
    build(Variant::English, dir, 3, version);
    const egdb::Layout layout = egdb::layout_of(Variant::English);
    for (const egdb::Unit& u : egdb::plan(3))
      for (const egdb::Slice& s : {u.first, u.second}) {
        const std::vector<std::uint8_t> bytes = read_bytes(dir / ("english-" + s.name() + ".egdb"));
        const auto view = egdb::SliceView::parse(bytes.data(), bytes.size(), "english", s,
                                                 egdb::slice_size(layout, s));
        REQUIRE(view.ok());
        const std::vector<egdb::Value> full = view->decode_all();
        const egdb::PackedValues packed = view->decode_wdl();
        REQUIRE(packed.size() == full.size());
        std::uint64_t differ = 0;
        for (std::uint64_t i = 0; i < full.size(); ++i) {
          const egdb::Value want = egdb::is_win(full[i])    ? egdb::kWinFlag
                                   : egdb::is_loss(full[i]) ? egdb::kLossFlag
                                                            : egdb::kUnknown;
          differ += packed[i] != want;
        }
        CHECK(differ == 0);
      }
    fs::remove_all(dir);
  }
}

TEST_CASE("egdb: a set built on packed slices has the values of one built on full ones",
          "[egdb][packed]") {
  // Distances up to 2 pieces: the 3- and 4-piece units build on slices held at two bits an
  // index, read back from their files (a generator per unit: the capture positions the files
  // leave out are restored into the packed values); with distances up to 4 every slice is
  // held in full.
  const fs::path packed_dir = test::fresh_dir("tsuru-packed-test-wdl");
  const fs::path full_dir = test::fresh_dir("tsuru-packed-test-full");
  with_rules(Variant::English, [&]<class R>(R) {
    for (const auto& [dir, distance_pieces] : {std::pair{packed_dir, 2}, std::pair{full_dir, 4}}) {
      egdb::BuildOptions o;
      o.dir = dir.string();
      o.threads = 2;
      o.progress = false;
      o.distance_pieces = distance_pieces;
      for (const egdb::Unit& u : egdb::plan(4)) {
        egdb::Generator<R> g(Variant::English, o);
        g.build(u);
      }
    }
  });
  std::uint64_t compared = 0;
  for (const egdb::Unit& u : egdb::plan(4)) {
    if (u.pieces() < 3) continue;
    for (const egdb::Slice& s : {u.first, u.second}) {
      const SliceFile fa = read_slice(packed_dir, s), fb = read_slice(full_dir, s);
      CHECK_FALSE(fa.view.has_distance());
      CHECK(fb.view.has_distance());
      CHECK(fa.view.counts().wins == fb.view.counts().wins);
      CHECK(fa.view.counts().losses == fb.view.counts().losses);
      CHECK(fa.view.counts().draws == fb.view.counts().draws);
      const egdb::PackedValues pa = fa.view.decode_wdl(), pb = fb.view.decode_wdl();
      std::uint64_t differ = 0;
      for (std::uint64_t i = 0; i < pa.size(); ++i) differ += pa[i] != pb[i];
      CHECK(differ == 0);
      compared += pa.size();
    }
  }
  CHECK(compared > 6'000'000);
  fs::remove_all(packed_dir);
  fs::remove_all(full_dir);
}

}  // namespace tsuru
