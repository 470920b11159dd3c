// Endgame databases: the index, the generator's values (hand-solved endings and consistency over
// whole slices), the file checks, the plan and the engine's use of them. Only the sets of at
// most three pieces are built here (a few seconds); the 4-piece conversion test is tagged
// [.egdb-long] and reads TSURU_EGDB_DIR.
#include <unistd.h>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include <catch2/catch.hpp>

#include "engine/engine.hpp"
#include "eval/egdb/consistency.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/generator.hpp"
#include "eval/egdb/plan.hpp"
#include "eval/egdb/search_probe.hpp"
#include "tests/engine_helpers.hpp"
#include "tests/tsuru_run.hpp"

namespace tsuru {
namespace {

namespace fs = std::filesystem;
using egdb::Wdl;

fs::path temp_dir(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("tsuru-egdb-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// Builds the units of `units` into dir, each with a fresh generator when separately (as
// separate `egdb build --slice` jobs would).
using Method = egdb::BuildOptions::Method;

void build(Variant v, const fs::path& dir, const std::vector<egdb::Unit>& units,
           bool separately = false, int threads = 1, Method method = Method::Counters,
           int distance_pieces = 4) {
  with_rules(v, [&]<class R>(R) {
    egdb::BuildOptions o;
    o.dir = dir.string();
    o.threads = threads;
    o.progress = false;
    o.method = method;
    o.distance_pieces = distance_pieces;
    if (separately) {
      for (const egdb::Unit& u : units) egdb::Generator<R>(v, o).build(u);
    } else {
      egdb::Generator<R> g(v, o);
      for (const egdb::Unit& u : units) g.build(u);
    }
  });
}

// A directory removed when the test program ends.
struct TempDir {
  fs::path path;
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The sets of at most three pieces, built once per run (English and international share the
// directory: file names carry the rule set).
const fs::path& small_sets() {
  static const TempDir dir = [] {
    const fs::path d = temp_dir("small");
    build(Variant::English, d, egdb::plan(3));
    build(Variant::International, d, egdb::plan(3));
    return TempDir{d};
  }();
  return dir.path;
}

std::shared_ptr<const egdb::Database> open_small(Variant v) {
  auto db = egdb::Database::open(v, small_sets().string());
  REQUIRE(db.ok());
  INFO((*db)->problems().size());
  REQUIRE((*db)->problems().empty());
  REQUIRE((*db)->pieces() == 3);
  return *db;
}

egdb::Probe probe(const egdb::Database& db, Variant v, const std::string& text) {
  const auto p = db.probe(test::fen(v, text));
  INFO(text);
  REQUIRE(p.has_value());
  return *p;
}

}  // namespace

TEST_CASE("position counts per piece count are the Chinook papers' for English", "[egdb]") {
  const egdb::Layout l = egdb::layout_of(Variant::English);
  // Schaeffer et al., the Chinook endgame database papers: positions by number of pieces.
  const std::uint64_t published[] = {120,       6972,       261224,      7092774,
                                     148688232, 2503611964, 34779531480, 406309208481};
  for (int n = 1; n <= 8; ++n) CHECK(egdb::legal_positions(l, n) == published[n - 1]);
}

TEST_CASE("the index ranks and unranks every position of the small slices", "[egdb]") {
  for (Variant v : {Variant::English, Variant::International}) {
    const egdb::Layout l = egdb::layout_of(v);
    for (int n = 2; n <= 3; ++n) {
      // Slices with both sides and slices with one side make every position of n pieces.
      std::uint64_t valid = 0;
      std::uint64_t wrong = 0;
      std::string first;
      for (const egdb::Slice& s : egdb::slices_with(n)) {
        for (std::uint64_t i = 0; i < egdb::slice_size(l, s); ++i) {
          const auto p = egdb::unrank(l, s, i);
          if (!p) continue;
          ++valid;
          const Position pos = egdb::position_of(l, *p);
          const auto at = egdb::locate(l, pos);
          // The same position turned round with Black to move lands on the same index.
          const Position turned = Position::from_bitboards(
              l.to_bits(l.turned(p->bm | p->bk)), l.to_bits(l.turned(p->wm | p->wk)),
              l.to_bits(l.turned(p->wk | p->bk)), Side::Black);
          const auto back = egdb::locate(l, turned);
          if (!at || !(at->slice == s) || at->index != i || at->flipped || !back ||
              !(back->slice == s) || back->index != i || !back->flipped) {
            if (!wrong++) first = s.name() + " " + std::to_string(i);
          }
        }
      }
      INFO(info(v).name << " first wrong: " << first);
      CHECK(wrong == 0);
      CHECK(valid + egdb::one_sided_positions(l, n) == egdb::legal_positions(l, n));
    }
  }
}

TEST_CASE("hand-solved English endings", "[egdb]") {
  const auto db = open_small(Variant::English);
  // One king against one king, far apart: a draw whoever moves.
  CHECK(probe(*db, Variant::English, "W:WK1:BK32").wdl == Wdl::Draw);
  CHECK(probe(*db, Variant::English, "B:WK1:BK32").wdl == Wdl::Draw);
  // Two kings against one: won for the two kings whoever moves, within the 40-move rule.
  const auto w = probe(*db, Variant::English, "W:WK1,K2:BK32");
  CHECK(w.wdl == Wdl::Win);
  CHECK(w.distance > 0);
  CHECK(w.distance < 80);
  const auto b = probe(*db, Variant::English, "B:WK1,K2:BK32");
  CHECK(b.wdl == Wdl::Loss);
  // The side to move captures the last piece: won in one ply.
  const auto c = probe(*db, Variant::English, "W:WK14:BK18");
  CHECK(c.wdl == Wdl::Win);
  CHECK(c.distance == 1);
}

TEST_CASE("hand-solved international endings", "[egdb]") {
  const auto db = open_small(Variant::International);
  // Two kings against one: a draw when the lone king is not caught at once.
  CHECK(probe(*db, Variant::International, "W:WK1,K2:BK28").wdl == Wdl::Draw);
  CHECK(probe(*db, Variant::International, "B:WK1,K2:BK28").wdl == Wdl::Draw);
  // Man races: White crowns first and its king stops Black's man four rows from home; one
  // row from home, Black crowns too and one king each is a draw.
  CHECK(probe(*db, Variant::International, "W:W6:B26").wdl == Wdl::Win);
  CHECK(probe(*db, Variant::International, "W:W6:B41").wdl == Wdl::Draw);
}

TEST_CASE("international: three kings against a lone king on and off the long diagonal", "[egdb]") {
  // The one 4-piece unit needed (three kings against one, both sides to move), built on top
  // of the small sets.
  static const bool built = [] {
    build(Variant::International, small_sets(), {egdb::unit_of({0, 3, 0, 1})});
    return true;
  }();
  REQUIRE(built);
  const auto db = egdb::Database::open(Variant::International, small_sets().string());
  REQUIRE(db.ok());
  // The long diagonal runs 46-5. On it (28), the lone king draws whoever moves. Off it, the
  // kings win only by a shot: here in 11 plies, which the search finds on its own.
  CHECK(probe(**db, Variant::International, "W:WK1,K2,K3:BK28").wdl == Wdl::Draw);
  CHECK(probe(**db, Variant::International, "B:WK1,K2,K3:BK28").wdl == Wdl::Draw);
  const auto off = probe(**db, Variant::International, "W:WK1,K5,K7:BK44");
  CHECK(off.wdl == Wdl::Win);
  CHECK(off.distance == 11);
  const auto a = test::analyse(Variant::International, "W:WK1,K5,K7:BK44", 12);
  CHECK(a.last.score == win_in(11));
  // Holding the diagonal is not enough: a shot needs the lone king badly placed.
  CHECK(probe(**db, Variant::International, "W:WK1,K2,K5:BK3").wdl == Wdl::Draw);
}

namespace {

// Every index of the slices of 2..pieces pieces (egdb::check_consistency, exhaustive): every
// position is answered, and so is every child's position.
void check_every_index(Variant v, const egdb::Database& db, int pieces) {
  std::uint64_t checked = 0, wrong = 0, distances = 0;
  for (int n = 2; n <= pieces; ++n)
    for (const egdb::Slice& s : egdb::slices_with(n)) {
      egdb::ConsistencyOptions o;
      o.samples = std::uint64_t{1} << 40;
      const auto r = egdb::check_consistency(v, s, egdb::probe_of(db), o);
      INFO(info(v).name << " " << s.name() << " first wrong: " << r.first_wrong.value_or(0));
      CHECK(r.exhaustive());
      CHECK(r.unknown == 0);
      CHECK(r.wrong == 0);
      checked += r.checked;
      wrong += r.wrong;
      distances += r.distances;
    }
  CHECK(checked > 0);
  CHECK(distances > checked / 4);  // the small sets store distances: every win and loss
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("every value of the small sets agrees with the values one move on", "[egdb]") {
  check_every_index(Variant::English, *open_small(Variant::English), 3);
  check_every_index(Variant::International, *open_small(Variant::International), 3);
}

TEST_CASE("the consistency check finds a wrong value or distance, whatever the threads", "[egdb]") {
  const auto db = open_small(Variant::English);
  const egdb::Layout l = egdb::layout_of(Variant::English);
  const egdb::Slice s{0, 2, 0, 1};  // two kings against one: wins with distances, and draws
  // A probe that lies about one position of the slice (found by its index).
  const auto lying = [&](std::uint64_t index, auto change) {
    return [&db, &l, s, index, change](const Position& pos) {
      auto r = db->probe(pos);
      const auto at = egdb::locate(l, pos);
      if (r && at && at->slice == s && at->index == index) change(*r);
      return r;
    };
  };
  std::optional<std::uint64_t> win;
  for (std::uint64_t i = 0; i < egdb::slice_size(l, s) && !win; ++i)
    if (const auto p = egdb::unrank(l, s, i)) {
      const auto r = db->probe(egdb::position_of(l, *p));
      if (r && r->wdl == Wdl::Win && r->distance > 3) win = i;
    }
  REQUIRE(win);
  egdb::ConsistencyOptions every;
  every.samples = std::uint64_t{1} << 40;
  const auto honest = egdb::check_consistency(Variant::English, s, egdb::probe_of(*db), every);
  CHECK(honest.wrong == 0);
  CHECK(honest.checked > 10000);
  // The value called a draw: the position itself is wrong (it has a move to a loss) and so are
  // its parents that counted on it.
  const auto as_draw = egdb::check_consistency(Variant::English, s,
                                               lying(*win,
                                                     [](egdb::Probe& p) {
                                                       p = {Wdl::Draw, 0};
                                                     }),
                                               every);
  CHECK(as_draw.wrong >= 1);
  CHECK(as_draw.first_wrong.has_value());
  // One ply too long.
  const auto longer = egdb::check_consistency(
      Variant::English, s, lying(*win, [](egdb::Probe& p) { ++p.distance; }), every);
  CHECK(longer.wrong >= 1);
  // Sampled: the same indices, the same report, with one thread or three.
  egdb::ConsistencyOptions sampled;
  sampled.samples = 5000;
  sampled.seed = 9;
  const auto one = egdb::check_consistency(Variant::English, s, egdb::probe_of(*db), sampled);
  sampled.threads = 3;
  const auto three = egdb::check_consistency(Variant::English, s, egdb::probe_of(*db), sampled);
  CHECK(one.sampled == 5000);
  CHECK_FALSE(one.exhaustive());
  CHECK(one.checked == three.checked);
  CHECK(one.distances == three.distances);
  CHECK(one.positions == three.positions);
}

TEST_CASE("antidraughts: the side that cannot move wins, and the values agree", "[egdb]") {
  const fs::path dir = temp_dir("anti");
  build(Variant::Antidraughts, dir, egdb::plan(2));
  const auto db = egdb::Database::open(Variant::Antidraughts, dir.string());
  REQUIRE(db.ok());
  REQUIRE((*db)->pieces() == 2);
  // White must capture Black's last man and so leaves Black without pieces: Black wins.
  CHECK(probe(**db, Variant::Antidraughts, "W:W28:B23").wdl == Wdl::Loss);
  // And every value follows from the values one move on, with the side that cannot move (or
  // has no piece) winning.
  check_every_index(Variant::Antidraughts, **db, 2);
  fs::remove_all(dir);
}

TEST_CASE("rule sets with history or without kings refuse databases", "[egdb]") {
  CHECK(egdb::unsupported(Variant::Frisian).has_value());
  CHECK(egdb::unsupported(Variant::Breakthrough).has_value());
  CHECK_FALSE(egdb::unsupported(Variant::English).has_value());
  const auto r = test::run_tsuru({"egdb", "plan", "--variant", "frisian", "--pieces", "3"});
  CHECK(r.code != 0);
  CHECK(r.err.find("3 quiet moves") != std::string::npos);
}

TEST_CASE("a damaged or foreign database file is rejected with a reason", "[egdb]") {
  const fs::path dir = temp_dir("damaged");
  const fs::path src = small_sets() / "english-0101.egdb";
  const auto corrupt = [&](const std::string& name, auto&& change) {
    std::ifstream in(src, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    change(bytes);
    std::ofstream(dir / name, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  corrupt("english-0101.egdb", [](std::vector<char>& b) { b[b.size() / 2] ^= 0x10; });
  corrupt("english-0110.egdb", [](std::vector<char>& b) { b.resize(b.size() - 1); });
  corrupt("english-1001.egdb", [](std::vector<char>& b) { b[40] = 7; });
  corrupt("international-0101.egdb", [](std::vector<char>&) {});
  const auto db = egdb::Database::open(Variant::English, dir.string());
  REQUIRE(db.ok());
  CHECK((*db)->pieces() == 0);
  CHECK((*db)->slices().empty());
  const auto& problems = (*db)->problems();
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].find("checksum mismatch") != std::string::npos);
  CHECK(problems[1].find("holds slice 0101, not 0110") != std::string::npos);
  CHECK(problems[2].find("header checksum") != std::string::npos);
  const auto intl = egdb::Database::open(Variant::International, dir.string());
  REQUIRE(intl.ok());
  REQUIRE(intl.value()->problems().size() == 1);
  CHECK(intl.value()->problems()[0].find("built for rule set 'english'") != std::string::npos);
  // The command says so too, and fails.
  const auto r = test::run_tsuru({"egdb", "info", "--variant", "english", "--dir", dir.string()});
  CHECK(r.code == 1);
  CHECK(r.out.find("rejected:") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("tsuru egdb check passes the small sets and fails a file with one wrong distance",
          "[egdb]") {
  const fs::path dir = temp_dir("check");
  for (const auto& e : fs::directory_iterator(small_sets()))
    if (e.path().filename().string().starts_with("english-")) fs::copy(e.path(), dir);
  const std::string d = dir.string();
  auto r = test::run_tsuru({"egdb", "check", "--dir", d, "--pieces", "3", "--samples", "300"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("0201 ") != std::string::npos);
  CHECK(r.out.find(" 0 wrong") != std::string::npos);
  // A unit as the plan names it; every index of a slice smaller than --samples.
  r = test::run_tsuru({"egdb", "check", "--dir", d, "--slice", "0201+0102"});
  CHECK(r.code == 0);
  CHECK(r.out.find("2 slices") != std::string::npos);
  // Bad slices: not four digits (exit 2), and a slice the directory lacks (nothing checked).
  r = test::run_tsuru({"egdb", "check", "--dir", d, "--slice", "02x1"});
  CHECK(r.code == 2);
  CHECK(r.err.find("not four digits") != std::string::npos);
  r = test::run_tsuru({"egdb", "check", "--dir", d, "--slice", "0301"});
  CHECK(r.code == 1);
  CHECK(r.out.find("(slice absent)") != std::string::npos);
  // One win a ply longer than it is, in a file whose checksums are right: the file loads, and
  // the check finds the value.
  const egdb::Slice s{0, 2, 0, 1};
  const egdb::Layout l = egdb::layout_of(Variant::English);
  const fs::path f = dir / "english-0201.egdb";
  std::vector<egdb::Value> values;
  {
    const auto file = egdb::MappedFile::open(f.string());
    REQUIRE(file.ok());
    const auto view =
        egdb::SliceView::parse(file->data(), file->size(), "english", s, egdb::slice_size(l, s));
    REQUIRE(view.ok());
    values = view->decode_all();
  }
  const auto omit = egdb::capture_mask<EnglishRules>(l, s, 1);
  std::size_t changed = values.size();
  for (std::size_t i = 0; i < values.size() && changed == values.size(); ++i)
    if (egdb::is_win(values[i]) && egdb::distance_of(values[i]) > 3 &&
        !(omit[i / 64] >> (i % 64) & 1))
      changed = i;
  REQUIRE(changed < values.size());
  values[changed] = static_cast<egdb::Value>(values[changed] + 1);
  const auto bytes = egdb::encode_slice("english", s, values, true, &omit);
  std::ofstream(f, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  r = test::run_tsuru({"egdb", "check", "--dir", d, "--slice", "0201", "--samples", "100000"});
  CHECK(r.code == 1);
  CHECK(r.out.find("rejected") == std::string::npos);
  CHECK(r.out.find(" 0 wrong") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("tsuru egdb build checks each slice it writes, unless told not to", "[egdb]") {
  const fs::path a = temp_dir("build-check"), b = temp_dir("build-nocheck");
  auto r = test::run_tsuru({"egdb", "build", "--pieces", "2", "--dir", a.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.find("egdb check 0101: ") != std::string::npos);
  CHECK(r.err.find("egdb check 1010: ") != std::string::npos);
  CHECK(r.err.find("agree one move on") != std::string::npos);
  // Slices already there are not checked again.
  r = test::run_tsuru({"egdb", "build", "--pieces", "2", "--dir", a.string()});
  CHECK(r.code == 0);
  CHECK(r.err.find("egdb check") == std::string::npos);
  r = test::run_tsuru(
      {"egdb", "build", "--pieces", "2", "--dir", b.string(), "--check-samples", "0"});
  CHECK(r.code == 0);
  CHECK(r.err.find("egdb check") == std::string::npos);
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST_CASE("a truncated file is rejected, and rebuilt by the next build", "[egdb]") {
  const fs::path dir = temp_dir("truncated");
  build(Variant::English, dir, egdb::plan(2));
  const fs::path f = dir / "english-0101.egdb";
  const auto size = fs::file_size(f);
  fs::resize_file(f, size - 3);
  const auto db = egdb::Database::open(Variant::English, dir.string());
  REQUIRE(db.ok());
  REQUIRE((*db)->problems().size() == 1);
  CHECK((*db)->problems()[0].find("does not match its header") != std::string::npos);
  build(Variant::English, dir, egdb::plan(2));
  CHECK(fs::file_size(f) == size);
  CHECK(egdb::Database::open(Variant::English, dir.string()).value()->pieces() == 2);
  fs::remove_all(dir);
}

TEST_CASE("building unit by unit in plan order gives the files of one build", "[egdb]") {
  const fs::path a = temp_dir("one"), b = temp_dir("units");
  // One build call (the command), and each unit as a job of its own with two threads.
  const auto r = test::run_tsuru(
      {"egdb", "build", "--variant", "english", "--pieces", "3", "--dir", a.string(), "--quiet"});
  REQUIRE(r.code == 0);
  for (const egdb::Unit& u : egdb::plan(3)) {
    const auto s =
        test::run_tsuru({"egdb", "build", "--variant", "english", "--slice", u.second.name(),
                         "--dir", b.string(), "--quiet", "--threads", "2"});
    REQUIRE(s.code == 0);
  }
  int files = 0;
  for (const auto& e : fs::directory_iterator(a)) {
    std::ifstream x(e.path(), std::ios::binary), y(b / e.path().filename(), std::ios::binary);
    REQUIRE(y.good());
    const std::string bx((std::istreambuf_iterator<char>(x)), std::istreambuf_iterator<char>());
    const std::string by((std::istreambuf_iterator<char>(y)), std::istreambuf_iterator<char>());
    INFO(e.path().filename());
    CHECK(bx == by);
    ++files;
  }
  CHECK(files == 16);
  // Out of plan order the dependency is missing: a clear error, no file.
  const fs::path c = temp_dir("order");
  const auto bad = test::run_tsuru(
      {"egdb", "build", "--variant", "english", "--slice", "0201", "--dir", c.string(), "--quiet"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("is needed first") != std::string::npos);
  // The plan lists units in that order with their sizes.
  const auto plan = test::run_tsuru({"egdb", "plan", "--variant", "english", "--pieces", "3"});
  // Then the memory at most, in MiB (32 bytes an index, 2 for each index of the slices it
  // needs, 64 MiB: 992 * 32 + 64 MiB is 65 MiB rounded up), and the units it needs.
  CHECK(plan.out.rfind("0 0101 0101 2 992 65 -\n", 0) == 0);
  for (const fs::path& p : {a, b, c}) fs::remove_all(p);
}

namespace {

// The engine plays both sides of a game from pos with the databases in dir until it ends.
Game engine_game(Variant v, const Position& pos, const std::string& dir, int depth) {
  Engine engine;
  EngineOptions options = test::test_options(16);
  options.egdb_dir = dir;
  engine.set_options(options);
  Game g(v, pos);
  for (int ply = 0; ply < 400 && g.result().outcome == Outcome::Ongoing; ++ply) {
    engine.set_position(g);
    SearchLimits limits;
    limits.depth = depth;
    const BestMove best = engine.think(limits);
    REQUIRE(best.has_move);
    REQUIRE(g.play(best.move));
  }
  return g;
}

// Won positions of `pieces` pieces with a quiet start, drawn at random from the database.
std::vector<Position> won_positions(Variant v, const egdb::Database& db, int pieces, int count,
                                    std::uint64_t seed) {
  const egdb::Layout l = egdb::layout_of(v);
  std::vector<egdb::Slice> slices = egdb::slices_with(pieces);
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < count) {
    const egdb::Slice s = slices[rng() % slices.size()];
    const auto p = egdb::unrank(l, s, rng() % egdb::slice_size(l, s));
    if (!p) continue;
    const Position pos = egdb::position_of(l, *p);
    const auto r = db.probe(pos);
    if (!r || r->wdl != Wdl::Win || r->distance < 6) continue;
    const bool quiet = with_rules(v, [&]<class R>(R) { return !MoveGen<R>::has_capture(pos); });
    if (quiet) out.push_back(pos);
  }
  return out;
}

void check_conversions(Variant v, const std::string& dir, int pieces, int count) {
  const auto db = egdb::Database::open(v, dir);
  REQUIRE(db.ok());
  REQUIRE((*db)->pieces() >= pieces);
  for (const Position& pos : won_positions(v, **db, pieces, count, 7)) {
    const Game g = engine_game(v, pos, dir, 4);
    INFO(info(v).name << " " << notation::format_fen(v, pos) << ": "
                      << describe(g.result().outcome));
    CHECK(g.result().outcome == Outcome::WhiteWins);
  }
}

}  // namespace

TEST_CASE("the engine plays won database endings out to the win", "[egdb][engine]") {
  check_conversions(Variant::English, small_sets().string(), 3, 5);
  check_conversions(Variant::International, small_sets().string(), 3, 5);
}

TEST_CASE("the engine converts 100 won 4-piece endings per rule set", "[.egdb-long]") {
  const char* dir = std::getenv("TSURU_EGDB_DIR");
  if (!dir) FAIL("set TSURU_EGDB_DIR to a directory with the 4-piece sets");
  for (Variant v : {Variant::English, Variant::International}) check_conversions(v, dir, 4, 100);
}

// The sampled check of one rule set's largest slices in TSURU_EGDB_DIR (2,000 positions a
// slice; those with a child outside the directory are skipped).
void check_largest_slices(Variant v, const char* dir) {
  const auto db = egdb::Database::open(v, dir);
  REQUIRE(db.ok());
  const int n = (*db)->probe_limit();
  std::uint64_t checked = 0, wrong = 0, with_distance = 0;
  std::string first;
  for (const egdb::Slice& s : egdb::slices_with(n)) {
    egdb::ConsistencyOptions o;
    o.seed = 5;
    const auto r = egdb::check_consistency(v, s, egdb::probe_of(**db), o);
    if (r.first_wrong && first.empty()) first = s.name() + " " + std::to_string(*r.first_wrong);
    checked += r.checked;
    wrong += r.wrong;
    with_distance += r.distances;
  }
  INFO(info(v).name << " " << n << " pieces, first wrong: " << first << "; checked " << checked
                    << ", distances checked: " << with_distance);
  std::printf(
      "%s, %d-piece slices: %llu sampled positions agree with their children (%llu with "
      "distances)\n",
      std::string(info(v).name).c_str(), n, static_cast<unsigned long long>(checked),
      static_cast<unsigned long long>(with_distance));
  CHECK(checked > 0);
  CHECK(wrong == 0);
}

TEST_CASE("win/draw/loss of sampled positions of the largest slices agree one move on",
          "[.egdb-long]") {
  // English and international, each with the largest complete piece count in the directory.
  const char* dir = std::getenv("TSURU_EGDB_DIR");
  if (!dir) FAIL("set TSURU_EGDB_DIR to a directory with English and international sets");
  check_largest_slices(Variant::English, dir);
  check_largest_slices(Variant::International, dir);
}

TEST_CASE("the search scores database positions exactly", "[egdb][engine]") {
  const std::string dir = small_sets().string();
  Engine engine;
  EngineOptions options = test::test_options(16);
  options.egdb_dir = dir;
  engine.set_options(options);
  // Two kings against one: a database win, above any evaluation, below a proven win.
  engine.set_position(Game(Variant::English, test::fen(Variant::English, "W:WK1,K2:BK32")));
  SearchLimits limits;
  limits.depth = 6;
  limits.analyze = true;
  engine.think(limits);
  CHECK(engine.last_score() > egdb::kDatabaseWin - 2 * egdb::kUnknownDistance);
  CHECK(engine.last_score() < kWinThreshold);
  // With Black to move, the same from the loser's side.
  engine.set_position(Game(Variant::English, test::fen(Variant::English, "B:WK1,K2:BK32")));
  engine.think(limits);
  CHECK(engine.last_score() < -(egdb::kDatabaseWin - 2 * egdb::kUnknownDistance));
  // One king each: a draw.
  engine.set_position(Game(Variant::English, test::fen(Variant::English, "W:WK1:BK32")));
  engine.think(limits);
  CHECK(engine.last_score() == 0);
}

TEST_CASE("a database win the endgame limit cuts short scores as a draw", "[egdb][engine]") {
  const auto db = open_small(Variant::International);
  // Two kings against a lone king: the FMJD 5-move limit (10 plies). A won position a few plies
  // from the end scores as a win, and as a draw once fewer plies are left than it needs.
  const egdb::Layout l = egdb::layout_of(Variant::International);
  const egdb::Slice s{0, 2, 0, 1};
  std::optional<Position> pos;
  int distance = 0;
  for (std::uint64_t i = 0; i < egdb::slice_size(l, s) && !pos; ++i) {
    const Position p = egdb::position_of(l, *egdb::unrank(l, s, i));
    const auto r = db->probe(p);
    if (r && r->wdl == Wdl::Win && r->distance >= 5 &&
        !MoveGen<InternationalRules>::has_capture(p)) {
      pos = p;
      distance = r->distance;
    }
  }
  REQUIRE(pos.has_value());
  DrawState ds = initial_draw_state<InternationalRules>(*pos);
  REQUIRE(ds.endgame_left == 10);
  CHECK(egdb::search_score<InternationalRules>(*db, *pos, &ds, {}, 0, [] { return Score{0}; }) ==
        egdb::database_win(0, distance));
  ds.endgame_left = static_cast<std::int16_t>(distance - 1);
  CHECK(egdb::search_score<InternationalRules>(*db, *pos, &ds, {}, 0, [] { return Score{0}; }) ==
        kDraw);
}

TEST_CASE("Hub egdb-dir: a directory is used at once, anything else is a bad value", "[egdb]") {
  const std::string dir = small_sets().string();
  const auto r = test::run_tsuru(
      {"hub"}, "hub\nset-param name=egdb-dir value=/nonexistent\nset-param name=egdb-dir value=\"" +
                   dir +
                   "\"\nset-param name=variant value=english\ninit\npos pos=\"W:WK1,K2:BK32\"\n"
                   "level depth=4\ngo think\nquit\n");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("param name=egdb-dir value=default type=string") != std::string::npos);
  CHECK(r.out.find("error message=\"bad value\" name=egdb-dir") != std::string::npos);
  // The won ending is played from the databases at once: a database win score (97.xx).
  CHECK(r.out.find("score=97.") != std::string::npos);
  CHECK(r.out.find("done move=") != std::string::npos);
}

TEST_CASE("the other diagonal rule sets: the values of the small sets agree", "[egdb]") {
  // Russian (a man crowned in a capture goes on as a king, free choice) and Italian (short
  // kings, men may not take kings, ranked captures) through the same generator.
  const fs::path dir = temp_dir("others");
  build(Variant::Russian, dir, egdb::plan(3));
  build(Variant::Italian, dir, egdb::plan(3));
  const auto russian = egdb::Database::open(Variant::Russian, dir.string());
  const auto italian = egdb::Database::open(Variant::Italian, dir.string());
  REQUIRE(russian.ok());
  REQUIRE(italian.ok());
  REQUIRE(russian.value()->pieces() == 3);
  REQUIRE(italian.value()->pieces() == 3);
  check_every_index(Variant::Russian, **russian, 3);
  check_every_index(Variant::Italian, **italian, 3);
  fs::remove_all(dir);
}

// The files of one directory, name -> bytes.
std::map<std::string, std::string> files_of(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    out[e.path().filename().string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

TEST_CASE("the three build methods give the same files, and the line rule sets' values agree",
          "[egdb]") {
  // The counters (the default) and the forward passes over un-moved candidates both rest on
  // undoing moves: a predecessor they missed would stay unknown (a draw in the file), one they
  // invented would be counted down wrongly. The reference looks at every position in every
  // pass. Thai (diagonal lines, flying kings) and Turkish (orthogonal: men forward and
  // sideways, kings like rooks) undo moves through their traits' direction sets; antidraughts
  // wins with no move; Russian crowns in the middle of a capture; Italian men do not take kings.
  // The last entry stores distances for 2 pieces only: the 3-piece units then count from
  // slices without distances, and the longest win in each file's header must still agree.
  struct Set {
    Variant v;
    int pieces;
    int distance_pieces = 4;
  };
  const Set sets[] = {{Variant::English, 3}, {Variant::International, 3}, {Variant::Thai, 3},
                      {Variant::Turkish, 3}, {Variant::Antidraughts, 2},  {Variant::Russian, 3},
                      {Variant::Italian, 3}, {Variant::English, 3, 2}};
  for (const auto& [v, pieces, distance_pieces] : sets) {
    INFO(info(v).name << ", distances up to " << distance_pieces << " pieces");
    std::map<std::string, std::string> files[3];
    const Method methods[3] = {Method::Counters, Method::Passes, Method::FullPasses};
    for (int m = 0; m < 3; ++m) {
      // Two threads for the counters: the result must not depend on them.
      const fs::path dir = temp_dir(std::string(info(v).name) + "-method" + std::to_string(m));
      build(v, dir, egdb::plan(pieces), false, m == 0 ? 2 : 1, methods[m], distance_pieces);
      files[m] = files_of(dir);
      if (m == 0 && (v == Variant::Thai || v == Variant::Turkish)) {
        const auto db = egdb::Database::open(v, dir.string());
        REQUIRE(db.ok());
        REQUIRE(db.value()->pieces() == pieces);
        check_every_index(v, **db, pieces);
      }
      fs::remove_all(dir);
    }
    CHECK(files[0].size() >= 4);
    CHECK(files[0].size() == files[2].size());
    CHECK(files[0] == files[2]);
    CHECK(files[1] == files[2]);
  }
}

TEST_CASE("without distances the evaluation orders positions of one database value", "[egdb]") {
  // A won position the database gives no distance for: the better evaluation scores higher, and
  // still above every evaluation and below every database win with a distance.
  CHECK(egdb::database_win(3, -1, 200) > egdb::database_win(3, -1, 0));
  CHECK(egdb::database_win(3, -1, 5000) == egdb::database_win(3, -1, egdb::kEvalSpan));
  CHECK(egdb::database_win(3, -1, -5000) > 8000);
  CHECK(egdb::database_win(3, -1, 5000) < egdb::database_win(120, 2 * egdb::kUnknownDistance));
  // The loser resists: its better evaluation scores higher too (search_score negates the win
  // of the opponent's view).
  CHECK(-egdb::database_win(3, -1, -200) > -egdb::database_win(3, -1, 0));
}

}  // namespace tsuru
