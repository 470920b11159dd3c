// Units solved in parts (eval/egdb/part.hpp): the parts number each slice's indices once each,
// a quiet move never leads to a part solved after its own, a set solved in parts has the values
// of one solved whole, a build stopped between parts (a part file damaged meanwhile) goes on to
// the bytes of one never stopped, and `egdb build --memory` solves in parts what would not fit.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "eval/egdb/generator.hpp"
#include "eval/egdb/part.hpp"
#include "eval/egdb/plan.hpp"
#include "tests/egdb_data.hpp"
#include "tests/tsuru_run.hpp"

namespace tsuru {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The units of English up to `pieces` that split.
std::vector<egdb::Unit> splitting_units(int pieces) {
  std::vector<egdb::Unit> units;
  for (const egdb::Unit& u : egdb::plan(pieces))
    if (egdb::splits(u)) units.push_back(u);
  return units;
}

// The part (its number in build order) that holds index `index` of slice i of a unit.
int part_of(const std::vector<egdb::UnitPart>& parts, int i, const egdb::Placement& p,
            std::uint64_t index) {
  for (std::size_t k = 0; k < parts.size(); ++k)
    if (parts[k].slice[i].local(p, index)) return static_cast<int>(k);
  return -1;
}

egdb::BuildOptions options(const fs::path& dir, bool in_parts) {
  egdb::BuildOptions o;
  o.dir = dir.string();
  o.threads = 2;
  o.progress = false;
  o.distance_pieces = 2;  // the 3- and 4-piece units have no distances: they split
  o.in_parts = in_parts;
  return o;
}

}  // namespace

TEST_CASE("egdb parts number every index of a slice once", "[egdb][parts]") {
  for (const Variant v : {Variant::English, Variant::International}) {
    const egdb::Layout layout = egdb::layout_of(v);
    const int pieces = v == Variant::English ? 4 : 3;
    int units = 0, symmetric = 0;
    for (const egdb::Unit& u : splitting_units(pieces)) {
      symmetric += u.symmetric();
      const auto parts = egdb::unit_parts(layout, u);
      REQUIRE(parts.size() > 1);
      for (int i = 0; i < (u.symmetric() ? 1 : 2); ++i) {
        const egdb::Slice s = i == 0 ? u.first : u.second;
        const std::uint64_t n = egdb::slice_size(layout, s);
        std::vector<std::uint8_t> seen(n, 0);
        std::uint64_t total = 0;
        for (const egdb::UnitPart& part : parts) {
          const egdb::SlicePart& sp = part.slice[i];
          total += sp.size();
          for (std::uint64_t l = 0; l < sp.size(); ++l) {
            const std::uint64_t idx = sp.slice_index(l);
            REQUIRE(idx < n);
            CHECK(seen[idx] == 0);
            seen[idx] = 1;
            if (const auto p = egdb::unrank(layout, s, idx)) {
              const auto back = sp.local(*p, idx);
              REQUIRE(back);
              CHECK(*back == l);
            }
          }
        }
        INFO(info(v).name << " " << s.name());
        CHECK(total == n);
        CHECK(std::count(seen.begin(), seen.end(), 1) == static_cast<std::ptrdiff_t>(n));
      }
      ++units;
    }
    CHECK(units > 0);
    CHECK(symmetric > 0);
  }
  // What has no men is one whole part.
  const egdb::Layout layout = egdb::layout_of(Variant::English);
  for (const egdb::Unit& u : {egdb::unit_of({0, 2, 0, 1}), egdb::unit_of({0, 2, 0, 2})}) {
    CHECK_FALSE(egdb::splits(u));
    const auto parts = egdb::unit_parts(layout, u);
    REQUIRE(parts.size() == 1);
    CHECK(parts[0].slice[0].size() == egdb::slice_size(layout, u.first));
  }
}

TEST_CASE("egdb parts: a quiet move never leads to a part solved after its own", "[egdb][parts]") {
  // The key man only goes forward: from a position of part k every quiet move that stays in the
  // unit (no capture, no crowning) leads to part k or to one before it. Every position of the
  // English 4-piece units that split, both sides to move.
  const egdb::Layout layout = egdb::layout_of(Variant::English);
  std::uint64_t moves = 0, leaving = 0;
  with_rules(Variant::English, [&]<class R>(R) {
    for (const egdb::Unit& u : splitting_units(4)) {
      if (u.pieces() < 4) continue;
      const auto parts = egdb::unit_parts(layout, u);
      for (int i = 0; i < (u.symmetric() ? 1 : 2); ++i) {
        const egdb::Slice s = i == 0 ? u.first : u.second;
        for (std::uint64_t idx = 0; idx < egdb::slice_size(layout, s); ++idx) {
          const auto p = egdb::unrank(layout, s, idx);
          if (!p) continue;
          const int k = part_of(parts, i, *p, idx);
          REQUIRE(k >= 0);
          const Position pos = egdb::position_of(layout, *p);
          MoveList list;
          MoveGen<R>::generate(pos, list);
          for (const Move& m : list) {
            if (m.is_capture() || m.crowns) continue;
            const auto to = egdb::locate(layout, pos.after(m));
            REQUIRE(to);
            const int j = to->slice == u.first ? 0 : 1;
            REQUIRE(to->slice == (j == 0 ? u.first : u.second));
            const int kk = part_of(parts, j, to->placement, to->index);
            CHECK(kk >= 0);
            CHECK(kk <= k);
            ++moves;
            leaving += kk < k;
          }
        }
      }
    }
  });
  CHECK(moves > 1'000'000);
  CHECK(leaving > 10'000);  // the key man's moves do leave their part
}

TEST_CASE("egdb: a set solved in parts has the values of one solved whole", "[egdb][parts]") {
  const fs::path whole = test::fresh_dir("tsuru-parts-whole");
  const fs::path in_parts = test::fresh_dir("tsuru-parts-parts");
  with_rules(Variant::English, [&]<class R>(R) {
    for (const auto& [dir, split] : {std::pair{whole, false}, std::pair{in_parts, true}}) {
      egdb::Generator<R> g(Variant::English, options(dir, split));
      for (const egdb::Unit& u : egdb::plan(4)) {
        const bool splits = split && egdb::splits(u) && u.pieces() > 2;
        const auto parts = egdb::unit_parts(egdb::layout_of(Variant::English), u).size();
        for (const egdb::SliceReport& r : g.build(u))
          CHECK(r.parts == (splits ? static_cast<int>(parts) : 1));
      }
    }
  });
  const egdb::Layout layout = egdb::layout_of(Variant::English);
  std::uint64_t compared = 0;
  for (const egdb::Unit& u : egdb::plan(4)) {
    for (const egdb::Slice& s : {u.first, u.second}) {
      const std::string name = egdb::file_name("english", s);
      const std::string a = bytes_of(whole / name), b = bytes_of(in_parts / name);
      const auto* pa = reinterpret_cast<const std::uint8_t*>(a.data());
      const auto* pb = reinterpret_cast<const std::uint8_t*>(b.data());
      const std::uint64_t n = egdb::slice_size(layout, s);
      const auto va = egdb::SliceView::parse(pa, a.size(), "english", s, n);
      const auto vb = egdb::SliceView::parse(pb, b.size(), "english", s, n);
      REQUIRE(va.ok());
      REQUIRE(vb.ok());
      INFO(s.name());
      CHECK(va->counts().wins == vb->counts().wins);
      CHECK(va->counts().draws == vb->counts().draws);
      CHECK(va->counts().losses == vb->counts().losses);
      CHECK(va->counts().invalid == vb->counts().invalid);
      const egdb::PackedValues wa = va->decode_wdl(), wb = vb->decode_wdl();
      std::uint64_t differ = 0;
      for (std::uint64_t i = 0; i < n; ++i) differ += wa[i] != wb[i];
      CHECK(differ == 0);
      // The same values give the same blocks; only the header's internal largest distance of
      // a file without distances may differ.
      CHECK(a.size() == b.size());
      CHECK(a.compare(160, std::string::npos, b, 160, std::string::npos) == 0);
      compared += n;
    }
  }
  CHECK(compared > 6'000'000);
  for (const auto& e : fs::directory_iterator(in_parts))
    CHECK(e.path().extension() == ".egdb");  // no part file left behind
  fs::remove_all(whole);
  fs::remove_all(in_parts);
}

TEST_CASE("egdb: a build stopped between parts goes on to the same bytes", "[egdb][parts]") {
  const fs::path straight = test::fresh_dir("tsuru-parts-straight");
  const fs::path stopped = test::fresh_dir("tsuru-parts-stopped");
  // The largest 4-piece unit that splits, stopped after its third part.
  const egdb::Layout layout = egdb::layout_of(Variant::English);
  egdb::Unit target = splitting_units(4).front();
  for (const egdb::Unit& u : splitting_units(4))
    if (egdb::slice_size(layout, u.first) > egdb::slice_size(layout, target.first)) target = u;
  struct Stop {};
  with_rules(Variant::English, [&]<class R>(R) {
    {
      egdb::Generator<R> g(Variant::English, options(straight, true));
      for (const egdb::Unit& u : egdb::plan(4)) g.build(u);
    }
    egdb::BuildOptions o = options(stopped, true);
    o.after_part = [&](const egdb::Unit& u, int part) {
      if (u.first == target.first && part == 2) throw Stop{};
    };
    {
      egdb::Generator<R> g(Variant::English, o);
      bool stopped_there = false;
      for (const egdb::Unit& u : egdb::plan(4)) {
        try {
          g.build(u);
        } catch (const Stop&) {
          stopped_there = true;
          break;
        }
      }
      REQUIRE(stopped_there);
    }
    // Three part files; the unit's slices are not written. One part file is damaged.
    std::vector<fs::path> part_files;
    for (const auto& e : fs::directory_iterator(stopped))
      if (e.path().extension() != ".egdb") part_files.push_back(e.path());
    REQUIRE(part_files.size() == 3);
    CHECK_FALSE(fs::exists(stopped / egdb::file_name("english", target.first)));
    std::sort(part_files.begin(), part_files.end());
    {
      std::fstream f(part_files[1], std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(200);
      f.put('\x55');
    }
    o.after_part = nullptr;
    egdb::Generator<R> g(Variant::English, o);
    int resumed = 0;
    for (const egdb::Unit& u : egdb::plan(4))
      for (const egdb::SliceReport& r : g.build(u))
        if (u.first == target.first) resumed = r.resumed;
    CHECK(resumed == 2);  // the damaged one solved again
  });
  std::uint64_t files = 0;
  for (const auto& e : fs::directory_iterator(straight)) {
    INFO(e.path().filename().string());
    CHECK(bytes_of(e.path()) == bytes_of(stopped / e.path().filename()));
    ++files;
  }
  std::uint64_t stopped_files = 0;
  for (const auto& e : fs::directory_iterator(stopped)) {
    CHECK(e.path().extension() == ".egdb");
    ++stopped_files;
  }
  CHECK(files == stopped_files);
  std::set<int> slices;
  for (const egdb::Unit& u : egdb::plan(4)) slices.insert({u.first.code(), u.second.code()});
  CHECK(files == slices.size());
  fs::remove_all(straight);
  fs::remove_all(stopped);
}

TEST_CASE("egdb build solves in parts the units that do not fit --memory whole", "[egdb][parts]") {
  // English 5 pieces: the largest unit, 0212+1202 (10.6 M indices), needs about 150 MiB
  // whole and about 80 MiB in parts; the plan gives the smaller figure.
  const egdb::Layout layout = egdb::layout_of(Variant::English);
  const egdb::Unit big = egdb::unit_of({0, 2, 1, 2});
  const std::uint64_t n = 2 * egdb::slice_size(layout, big.first);
  const std::uint64_t whole = egdb::build_memory(layout, big, 4, false);
  const std::uint64_t parts = egdb::build_memory(layout, big, 4, true);
  CHECK(whole >= 4 * n + (64ull << 20));
  CHECK(parts < whole - 3 * n);
  // With distances the unit is built whole whatever the budget.
  CHECK(egdb::build_memory(layout, big, 5, true) == egdb::build_memory(layout, big, 5, false));
  const auto plan = test::run_tsuru({"egdb", "plan", "--variant", "english", "--pieces", "5"});
  REQUIRE(plan.code == 0);
  const std::string row = " " + big.first.name() + " " + big.first.name() + "+" +
                          big.second.name() + " 5 " + std::to_string(n) + " " +
                          std::to_string((parts + (1 << 20) - 1) >> 20) + " ";
  CHECK(plan.out.find(row) != std::string::npos);

  // English 4 pieces, no distances beyond 2: the largest unit that splits built by `egdb build
  // --slice` with a budget that holds it in parts but not whole, on the units before it, gives
  // the values of the unit built whole.
  egdb::Unit target = splitting_units(4).front();
  for (const egdb::Unit& u : splitting_units(4))
    if (egdb::slice_size(layout, u.first) > egdb::slice_size(layout, target.first)) target = u;
  const std::uint64_t in_parts = egdb::build_memory(layout, target, 2, true) >> 20;
  REQUIRE(egdb::build_memory(layout, target, 2, false) > ((in_parts + 1) << 20));
  const fs::path dir = test::fresh_dir("tsuru-parts-memory");
  const fs::path reference = test::fresh_dir("tsuru-parts-memory-whole");
  with_rules(Variant::English, [&]<class R>(R) {
    egdb::Generator<R> g(Variant::English, options(dir, false));
    for (const egdb::Unit& u : egdb::plan(4)) {
      if (u.first == target.first) break;
      g.build(u);
    }
    fs::copy(dir, reference);
    egdb::Generator<R>(Variant::English, options(reference, false)).build(target);
  });
  const auto built =
      test::run_tsuru({"egdb", "build", "--variant", "english", "--slice", target.first.name(),
                       "--distance-pieces", "2", "--dir", dir.string(), "--memory",
                       std::to_string((static_cast<double>(in_parts) + 1) / 1024), "--quiet"});
  INFO(built.err);
  REQUIRE(built.code == 0);
  CHECK(built.out.find(" parts)") != std::string::npos);
  for (const egdb::Slice& s : {target.first, target.second}) {
    const std::string a = bytes_of(dir / egdb::file_name("english", s));
    const std::string b = bytes_of(reference / egdb::file_name("english", s));
    CHECK(a.size() == b.size());
    CHECK(a.compare(160, std::string::npos, b, 160, std::string::npos) == 0);
  }
  fs::remove_all(reference);
  fs::remove_all(dir);
}

}  // namespace tsuru
