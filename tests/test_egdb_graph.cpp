// The plan as a job graph (tools/cluster/submit.sh egdb): each unit needs exactly the slices
// plan.hpp's slices_needed names. A unit built in a directory holding only those files gives
// the bytes of a whole build, and without any one of them it fails, naming it; the units that
// hold them come before it in the plan, and `tsuru egdb plan` lists them.

#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "eval/egdb/generator.hpp"
#include "eval/egdb/part.hpp"
#include "eval/egdb/plan.hpp"
#include "tests/egdb_data.hpp"
#include "tests/tsuru_run.hpp"

namespace tsuru {
namespace {

namespace fs = std::filesystem;

using test::fresh_dir;

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

template <class R>
void build_unit(Variant v, const fs::path& dir, const egdb::Unit& u) {
  egdb::BuildOptions o;
  o.dir = dir.string();
  o.progress = false;
  egdb::Generator<R>(v, o).build(u);
}

}  // namespace

TEST_CASE("egdb plan: each unit needs exactly the slices slices_needed names", "[egdb][plan]") {
  for (const Variant v : {Variant::English, Variant::International}) {
    INFO(info(v).name);
    with_rules(v, [&]<class R>(R) {
      const fs::path all = fresh_dir("tsuru-egdb-graph-all");
      const std::vector<egdb::Unit> units = egdb::plan(3);
      for (const egdb::Unit& u : units) build_unit<R>(v, all, u);
      const auto file = [&](const fs::path& dir, const egdb::Slice& s) {
        return dir / egdb::file_name(info(v).name, s);
      };
      for (std::size_t k = 0; k < units.size(); ++k) {
        const egdb::Unit& u = units[k];
        INFO("unit " << u.first.name());
        const std::vector<egdb::Slice> needed = egdb::slices_needed(u);
        // The units holding them are listed, and come before u in the plan.
        const std::vector<egdb::Unit> before = egdb::units_needed(u);
        for (const egdb::Slice& s : needed) {
          bool listed = false;
          for (const egdb::Unit& d : before) listed = listed || egdb::unit_of(s).first == d.first;
          CHECK(listed);
        }
        for (const egdb::Unit& d : before) {
          bool earlier = false;
          for (std::size_t j = 0; j < k; ++j) earlier = earlier || units[j].first == d.first;
          CHECK(earlier);
        }
        // With only the needed files: the same bytes as the whole build.
        const fs::path only = fresh_dir("tsuru-egdb-graph-only");
        for (const egdb::Slice& s : needed) fs::copy_file(file(all, s), file(only, s));
        REQUIRE_NOTHROW(build_unit<R>(v, only, u));
        CHECK(bytes_of(file(only, u.first)) == bytes_of(file(all, u.first)));
        CHECK(bytes_of(file(only, u.second)) == bytes_of(file(all, u.second)));
        // Without any one of them: it fails, and says which.
        for (const egdb::Slice& missing : needed) {
          INFO("without " << missing.name());
          const fs::path less = fresh_dir("tsuru-egdb-graph-less");
          for (const egdb::Slice& s : needed)
            if (!(s == missing)) fs::copy_file(file(all, s), file(less, s));
          try {
            build_unit<R>(v, less, u);
            FAIL("the build did not fail");
          } catch (const std::runtime_error& e) {
            CHECK(std::string(e.what()).find("slice " + missing.name() + " is needed first") !=
                  std::string::npos);
          }
          CHECK_FALSE(fs::exists(file(less, u.first)));
          fs::remove_all(less);
        }
        fs::remove_all(only);
      }
      fs::remove_all(all);
    });
  }
}

TEST_CASE("egdb plan prints each unit's memory and the units it needs", "[egdb][plan]") {
  const auto plan = test::run_tsuru({"egdb", "plan", "--variant", "english", "--pieces", "4"});
  REQUIRE(plan.code == 0);
  std::istringstream lines(plan.out);
  int rows = 0;
  for (const egdb::Unit& u : egdb::plan(4)) {
    std::string line;
    REQUIRE(std::getline(lines, line));
    std::istringstream f(line);
    int order = -1, pieces = 0;
    std::string slice, unit, needs;
    unsigned long long positions = 0, mib = 0;
    f >> order >> slice >> unit >> pieces >> positions >> mib >> needs;
    INFO(line);
    CHECK(order == rows++);
    CHECK(slice == u.first.name());
    // At least 4 bytes an index of the unit and 64 MiB.
    CHECK(mib * 1048576 >= 4 * positions + (64ull << 20));
    std::string expected;
    for (const egdb::Unit& d : egdb::units_needed(u))
      expected += (expected.empty() ? "" : ",") + d.first.name();
    CHECK(needs == (expected.empty() ? "-" : expected));
  }
  CHECK(rows == 23);
  // By hand: from 1111 (White to move) a capture takes a black man, a king or both, and a man may
  // be crowned: 1101, 1110, 0201, 0210, 0211 with Black to move, stored as their mirrors 0111,
  // 1011, 0102, 1002, 1102, which units 0111, 1011, 0102, 0210 and 0211 hold (plan order).
  // Compact files leave their capture positions out, restored from the 2-piece slices those
  // captures reach: 0101, 0110, 1001 and 1010 (units 0101, 0110 and 1010), listed first.
  const std::size_t at = plan.out.find("\n17 1111 1111 4 682080 ");
  REQUIRE(at != std::string::npos);
  const std::string row = plan.out.substr(at + 1, plan.out.find('\n', at + 1) - at - 1);
  CHECK(row.ends_with(" 0101,0110,1010,0102,0111,0210,1011,0211"));
}

TEST_CASE("egdb plan counts the slices without distances at two bits an index", "[egdb][plan]") {
  // English 6 pieces: the 5- and 6-piece slices a unit needs have no distances (the default
  // --distance-pieces 4) and are held packed; the 4-piece ones in full. Every 6-piece unit but
  // the kings-only ones is solved in parts.
  const auto plan = test::run_tsuru({"egdb", "plan", "--variant", "english", "--pieces", "6"});
  REQUIRE(plan.code == 0);
  const egdb::Layout layout = egdb::layout_of(Variant::English);
  std::istringstream lines(plan.out);
  int six = 0;
  for (const egdb::Unit& u : egdb::plan(6)) {
    std::string line;
    REQUIRE(std::getline(lines, line));
    if (u.pieces() < 6) continue;
    std::istringstream f(line);
    int order = -1, pieces = 0;
    std::string slice, unit;
    unsigned long long positions = 0, mib = 0;
    f >> order >> slice >> unit >> pieces >> positions >> mib;
    INFO(line);
    std::uint64_t full = 0, packed = 0;
    for (const egdb::Slice& s : egdb::slices_needed(u))
      (s.pieces() <= 4 ? full : packed) += egdb::slice_size(layout, s);
    // Solved in parts (eval/egdb/part.hpp): 4 bytes an index of the largest part, half a
    // byte an index of the unit.
    std::uint64_t largest = 0;
    for (const egdb::UnitPart& p : egdb::unit_parts(layout, u))
      largest = std::max(largest, p.slice[0].size() + (u.symmetric() ? 0 : p.slice[1].size()));
    const std::uint64_t solving = egdb::splits(u) ? 4 * largest + positions / 2 : 4 * positions;
    CHECK((solving < 4 * positions) == egdb::splits(u));
    const std::uint64_t floor = solving + 2 * full + packed / 4 + (64ull << 20);
    CHECK(mib * 1048576 >= floor);
    CHECK(mib * 1048576 < floor + 2 * 1048576);
    ++six;
  }
  CHECK(six > 0);
}

}  // namespace tsuru

namespace tsuru {

TEST_CASE("egdb build refuses a unit above --memory before building anything", "[egdb][plan]") {
  const std::filesystem::path dir = test::fresh_dir("tsuru-egdb-memory");
  const std::string d = dir.string();
  // Every unit needs at least the program's 64 MiB: a budget of 32 MiB refuses the first.
  const auto refused = test::run_tsuru({"egdb", "build", "--variant", "english", "--pieces", "3",
                                        "--dir", d, "--memory", "0.03125", "--quiet"});
  CHECK(refused.code != 0);
  CHECK(refused.err.find("unit 0101 needs about 65 MiB, more than --memory allows (32 MiB)") !=
        std::string::npos);
  CHECK(std::filesystem::is_empty(dir));
  for (const char* bad : {"0", "-1", "nan"}) {
    const auto r = test::run_tsuru(
        {"egdb", "build", "--variant", "english", "--pieces", "2", "--dir", d, "--memory", bad});
    INFO(bad);
    CHECK(r.code != 0);
    CHECK(std::filesystem::is_empty(dir));
  }
  // Within the budget it builds; units already built are not refused whatever the budget.
  const auto built = test::run_tsuru({"egdb", "build", "--variant", "english", "--pieces", "3",
                                      "--dir", d, "--memory", "1", "--quiet"});
  REQUIRE(built.code == 0);
  const auto kept = test::run_tsuru({"egdb", "build", "--variant", "english", "--pieces", "3",
                                     "--dir", d, "--memory", "0.03125", "--quiet"});
  CHECK(kept.code == 0);
  CHECK(kept.out.find("(exists)") != std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace tsuru
