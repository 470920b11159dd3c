// tsuru egdb build|plan|info|check: endgame databases (docs/egdb.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>

#include <unistd.h>

#include <boost/program_options.hpp>

#include "book/data_dir.hpp"
#include "eval/egdb/consistency.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/generator.hpp"
#include "eval/egdb/plan.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {
namespace {

namespace po = boost::program_options;

constexpr int kMaxPieces = 8;

Variant supported_variant(const std::string& name) {
  const Variant v = variant_from_name(name);
  if (const auto why = egdb::unsupported(v)) throw std::runtime_error(*why);
  return v;
}

std::string unit_name(const egdb::Unit& u) {
  return u.symmetric() ? u.first.name() : u.first.name() + "+" + u.second.name();
}

void print_slice(const egdb::SliceReport& r) {
  const auto& c = r.counts;
  std::string note = r.existed ? " (exists)" : r.distance ? "" : " (no distances)";
  if (!r.existed && r.parts > 1)
    note += " (" + std::to_string(r.parts) + " parts" +
            (r.resumed ? ", " + std::to_string(r.resumed) + " read back" : std::string()) + ")";
  std::printf("%-5s %12llu %12llu %12llu %12llu %12llu %5u %10llu %8.1f%s\n",
              r.slice.name().c_str(), static_cast<unsigned long long>(c.positions - c.invalid),
              static_cast<unsigned long long>(c.wins), static_cast<unsigned long long>(c.draws),
              static_cast<unsigned long long>(c.losses), static_cast<unsigned long long>(c.invalid),
              c.max_distance, static_cast<unsigned long long>(r.file_bytes), r.seconds,
              note.c_str());
}

void print_heading() {
  std::printf("%-5s %12s %12s %12s %12s %12s %5s %10s %8s\n", "slice", "positions", "wins", "draws",
              "losses", "invalid", "dist", "bytes", "seconds");
}

// The memory a unit's build takes at its peak, in MiB (eval/egdb/part.hpp, build_memory), solved
// in parts where it splits (the generator does so when the whole would exceed --memory).
std::uint64_t build_memory_mib(const egdb::Layout& layout, const egdb::Unit& u,
                               int distance_pieces = egdb::BuildOptions{}.distance_pieces) {
  const std::uint64_t bytes = egdb::build_memory(layout, u, distance_pieces, true);
  return (bytes + (std::uint64_t{1} << 20) - 1) >> 20;
}

// The default --memory, in MiB: a Slurm job's memory (SLURM_MEM_PER_NODE, in MB, which the
// cluster scripts set from the plan: docs/cluster.md), else three quarters of the machine's.
std::uint64_t default_memory_mib() {
  if (const char* slurm = std::getenv("SLURM_MEM_PER_NODE")) {
    char* end = nullptr;
    const unsigned long long mb = std::strtoull(slurm, &end, 10);
    if (end != slurm && *end == '\0' && mb > 0) return mb;
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::uint64_t{16} << 10;
  return static_cast<std::uint64_t>(pages) / 4 * 3 * static_cast<std::uint64_t>(page) >> 20;
}

// After a unit is built: `samples` sampled positions of each slice it wrote judged against the
// values one move on (eval/egdb/consistency.hpp), through the files just written. A wrong value
// stops the build, so that no unit is built on it.
void check_new_slices(Variant v, const egdb::BuildOptions& o,
                      const std::vector<egdb::SliceReport>& reports, std::uint64_t samples) {
  if (samples == 0 || std::all_of(reports.begin(), reports.end(),
                                  [](const egdb::SliceReport& r) { return r.existed; }))
    return;
  const auto db = egdb::Database::open(v, o.dir, std::size_t{16} << 20, false);
  if (!db) throw std::runtime_error(db.error());
  egdb::ConsistencyOptions c;
  c.samples = samples;
  c.threads = o.threads;
  for (const egdb::SliceReport& r : reports) {
    if (r.existed) continue;
    const auto k = egdb::check_consistency(v, r.slice, egdb::probe_of(**db), c);
    if (k.wrong > 0 || k.positions == 0)
      throw std::runtime_error(
          "slice " + r.slice.name() + ": " + std::to_string(k.wrong) + " of " +
          std::to_string(k.checked) +
          " sampled positions disagree with the values one move on (first at index " +
          (k.first_wrong ? std::to_string(*k.first_wrong) : "-") + ", or the file did not load)" +
          "; the build stops here (tsuru egdb check --slice " + r.slice.name() + ")");
    if (o.progress)
      std::fprintf(stderr, "\regdb check %s: %llu %s positions agree one move on\n",
                   r.slice.name().c_str(), static_cast<unsigned long long>(k.checked),
                   k.exhaustive() ? "(all)" : "sampled");
  }
}

int egdb_build(const Args& args) {
  std::string variant_name = "english", slice_text;
  int pieces = 0;
  std::uint64_t check_samples = 2000;
  egdb::BuildOptions o;
  double memory_gb = static_cast<double>(default_memory_mib()) / 1024;
  char memory_text[32];
  std::snprintf(memory_text, sizeof memory_text, "%.1f", memory_gb);
  o.dir = data::user_folder("egdb");  // where the engines look (book/data_dir.hpp)
  if (o.dir.empty()) o.dir = ".";
  po::options_description desc(
      "tsuru egdb build: solve every ending of at most --pieces pieces (or one --slice) into "
      "--dir; slices already built and valid are kept");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "pieces", po::value(&pieces), "largest number of pieces (2..8)")(
      "slice", po::value(&slice_text),
      "build only this slice and its mirror: four digits, white men, white kings, black men, "
      "black kings (e.g. 0201); the slices before it in the plan must be built")(
      "dir", po::value(&o.dir)->default_value(o.dir),
      "database directory (created); default: the data directory's egdb/, where every front end "
      "looks")("threads", po::value(&o.threads)->default_value(o.threads), "worker threads")(
      "distance-pieces", po::value(&o.distance_pieces)->default_value(o.distance_pieces),
      "store distances to the end for slices of at most this many pieces")(
      "quiet", "no progress line on stderr")(
      "memory", po::value(&memory_gb)->default_value(memory_gb, memory_text),
      "GB the build may take: a unit whose whole build needs more is solved in parts (by the "
      "square of a side's rearmost man), and one that needs more even so (as `tsuru egdb plan` "
      "estimates) is refused before anything is built (default: a Slurm job's memory, else "
      "three quarters of the machine's)")(
      "parts", "solve every unit that splits in parts, whatever the memory")(
      "check-samples", po::value(&check_samples)->default_value(check_samples),
      "after each unit, judge this many sampled positions of each slice it wrote against the "
      "values one move on (as tsuru egdb check does); a wrong one stops the build; 0: no check");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = supported_variant(variant_name);
  if (!(memory_gb > 0)) throw std::runtime_error("--memory must be a positive number of GB");
  o.progress = vm.count("quiet") == 0;
  o.in_parts = vm.count("parts") > 0;
  o.memory_mib = static_cast<std::uint64_t>(memory_gb * 1024);
  if (o.threads < 1 || o.threads > 256) throw std::runtime_error("--threads must be 1..256");
  std::vector<egdb::Unit> units;
  if (!slice_text.empty()) {
    const auto s = egdb::Slice::parse(slice_text);
    if (!s || s->pieces() > kMaxPieces)
      throw std::runtime_error("bad --slice '" + slice_text +
                               "': four digits wm wk bm bk, each side with a piece");
    units.push_back(egdb::unit_of(*s));
  } else {
    if (pieces < 2 || pieces > kMaxPieces) throw std::runtime_error("--pieces must be 2..8");
    units = egdb::plan(pieces);
  }
  std::error_code ec;
  std::filesystem::create_directories(o.dir, ec);
  if (ec) throw std::runtime_error(o.dir + ": " + ec.message());
  const auto start = std::chrono::steady_clock::now();
  return with_rules(v, [&]<class R>(R) {
    egdb::Generator<R> generator(v, o);
    // Every unit still to build must fit the budget: refused before the first is built.
    const egdb::Layout layout = egdb::layout_of(v);
    const std::uint64_t budget = o.memory_mib;
    for (const egdb::Unit& u : units) {
      const std::uint64_t need = build_memory_mib(layout, u, o.distance_pieces);
      if (need > budget && !generator.complete(u))
        throw std::runtime_error("unit " + unit_name(u) + " needs about " + std::to_string(need) +
                                 " MiB, more than --memory allows (" + std::to_string(budget) +
                                 " MiB): build it on a larger machine or cluster node "
                                 "(docs/cluster.md)");
    }
    print_heading();
    egdb::SliceCounts total;
    std::uint64_t bytes = 0;
    for (const egdb::Unit& u : units) {
      const std::vector<egdb::SliceReport> reports = generator.build(u);
      for (const egdb::SliceReport& r : reports) {
        print_slice(r);
        std::fflush(stdout);
        total.positions += r.counts.positions - r.counts.invalid;
        total.wins += r.counts.wins;
        total.draws += r.counts.draws;
        total.losses += r.counts.losses;
        bytes += r.file_bytes;
      }
      check_new_slices(v, o, reports, check_samples);
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("total %llu positions: %llu wins, %llu draws, %llu losses; %llu bytes; %.1f s\n",
                static_cast<unsigned long long>(total.positions),
                static_cast<unsigned long long>(total.wins),
                static_cast<unsigned long long>(total.draws),
                static_cast<unsigned long long>(total.losses),
                static_cast<unsigned long long>(bytes), secs);
    return 0;
  });
}

int egdb_plan(const Args& args) {
  std::string variant_name = "english";
  int pieces = 0;
  po::options_description desc(
      "tsuru egdb plan: the build units of a set in dependency order, one a line: order, the "
      "slice to pass to `egdb build --slice`, the slices it writes, pieces, positions (indices), "
      "the memory its build takes at most (MiB, estimated), and the units it needs built first "
      "(their slices as --slice takes them, comma-separated; - for none)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "pieces", po::value(&pieces)->required(), "largest number of pieces (2..8)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = supported_variant(variant_name);
  if (pieces < 2 || pieces > kMaxPieces) throw std::runtime_error("--pieces must be 2..8");
  const egdb::Layout layout = egdb::layout_of(v);
  int order = 0;
  std::uint64_t total = 0;
  for (const egdb::Unit& u : egdb::plan(pieces)) {
    std::uint64_t n = egdb::slice_size(layout, u.first);
    if (!u.symmetric()) n += egdb::slice_size(layout, u.second);
    total += n;
    std::string needs;
    for (const egdb::Unit& d : egdb::units_needed(u))
      needs += (needs.empty() ? "" : ",") + d.first.name();
    std::printf("%d %s %s %d %llu %llu %s\n", order++, u.first.name().c_str(), unit_name(u).c_str(),
                u.pieces(), static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(build_memory_mib(layout, u)),
                needs.empty() ? "-" : needs.c_str());
  }
  std::fprintf(stderr, "%d units, %llu indices\n", order, static_cast<unsigned long long>(total));
  for (int n = 1; n <= pieces; ++n)
    std::fprintf(stderr, "legal positions of %d pieces (any side to move, not counted): %llu\n", n,
                 static_cast<unsigned long long>(egdb::legal_positions(layout, n)));
  return 0;
}

// The directory the engines read (book/data_dir.hpp), else the one egdb build writes.
std::string default_read_dir() {
  std::string dir = data::find_folder("egdb").value_or(data::user_folder("egdb"));
  return dir.empty() ? "." : dir;
}

int egdb_check(const Args& args) {
  std::string variant_name = "english", dir = default_read_dir();
  std::vector<std::string> slice_texts;
  int pieces = 0;
  egdb::ConsistencyOptions o;
  po::options_description desc(
      "tsuru egdb check: judge sampled positions of every slice in --dir (or the --slice ones, or "
      "those of --pieces pieces) against the values one move on; exit 1 when one is wrong");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "dir", po::value(&dir)->default_value(dir), "database directory")(
      "slice", po::value(&slice_texts)->composing(),
      "check this slice (four digits, e.g. 0107), or the slices of a unit as `egdb plan` names "
      "it (0107+0701); repeat the option for more")("pieces", po::value(&pieces),
                                                    "check the slices of this many pieces present")(
      "samples", po::value(&o.samples)->default_value(o.samples),
      "positions a slice (every index when the slice has no more)")(
      "seed", po::value(&o.seed)->default_value(o.seed), "which indices are sampled")(
      "threads", po::value(&o.threads)->default_value(o.threads), "worker threads");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = supported_variant(variant_name);
  // A small cache of decoded blocks: the samples are spread over the slices, so few blocks are
  // read twice, and a cluster job checking its unit has only the unit's build's memory.
  const auto db = egdb::Database::open(v, dir, std::size_t{16} << 20, false);
  if (!db) throw std::runtime_error(db.error());
  for (const std::string& p : (*db)->problems()) std::printf("rejected: %s\n", p.c_str());
  std::vector<egdb::Slice> slices;
  for (const std::string& text : slice_texts)
    for (std::size_t at = 0; at <= text.size();) {  // a unit: slices joined by '+'
      const std::size_t plus = std::min(text.find('+', at), text.size());
      const auto s = egdb::Slice::parse(text.substr(at, plus - at));
      if (!s) throw std::runtime_error("--slice " + text + ": not four digits wm wk bm bk");
      slices.push_back(*s);
      at = plus + 1;
    }
  if (slices.empty())
    for (const egdb::SliceInfo& s : (*db)->slices())
      if (pieces == 0 || s.slice.pieces() == pieces) slices.push_back(s.slice);
  if (slices.empty()) throw std::runtime_error(dir + ": no slice to check");
  std::printf("%-6s %14s %12s %12s %10s %12s %8s  %s\n", "slice", "indices", "sampled", "checked",
              "unknown", "distances", "wrong", "first wrong");
  std::uint64_t wrong = 0, checked = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const egdb::Slice& s : slices) {
    const auto r = egdb::check_consistency(v, s, egdb::probe_of(**db), o);
    std::printf(
        "%-6s %14llu %12llu %12llu %10llu %12llu %8llu  %s\n", s.name().c_str(),
        static_cast<unsigned long long>(r.size), static_cast<unsigned long long>(r.sampled),
        static_cast<unsigned long long>(r.checked), static_cast<unsigned long long>(r.unknown),
        static_cast<unsigned long long>(r.distances), static_cast<unsigned long long>(r.wrong),
        r.first_wrong      ? std::to_string(*r.first_wrong).c_str()
        : r.positions == 0 ? "(slice absent)"
                           : "-");
    std::fflush(stdout);
    wrong += r.wrong;
    checked += r.checked;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%zu slices, %llu positions checked, %llu wrong (%.1f s)\n", slices.size(),
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(wrong),
              seconds);
  return wrong == 0 && checked > 0 ? 0 : 1;
}

// Per piece count: the slices' positions, values and bytes, and the positions counted as the
// Chinook papers count them (the one-sided ones added), against the count of every legal
// position: equal when every slice of that many pieces is there.
void print_piece_totals(const egdb::Layout& layout, const std::vector<egdb::SliceInfo>& slices) {
  struct Total {
    int slices = 0;
    std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0, bytes = 0;
  };
  std::map<int, Total> by_pieces;
  for (const egdb::SliceInfo& s : slices) {
    Total& t = by_pieces[s.slice.pieces()];
    ++t.slices;
    t.positions += s.counts.positions - s.counts.invalid;
    t.wins += s.counts.wins;
    t.draws += s.counts.draws;
    t.losses += s.counts.losses;
    t.bytes += s.bytes;
  }
  std::printf("%-6s %6s %14s %14s %14s %14s %16s %16s %12s %7s\n", "pieces", "slices", "positions",
              "wins", "draws", "losses", "with one side", "all legal", "bytes", "bits");
  for (const auto& [n, t] : by_pieces) {
    const std::uint64_t counted = t.positions + egdb::one_sided_positions(layout, n);
    const std::uint64_t legal = egdb::legal_positions(layout, n);
    std::printf(
        "%-6d %6d %14llu %14llu %14llu %14llu %16llu %16llu %12llu %7.4f%s\n", n, t.slices,
        static_cast<unsigned long long>(t.positions), static_cast<unsigned long long>(t.wins),
        static_cast<unsigned long long>(t.draws), static_cast<unsigned long long>(t.losses),
        static_cast<unsigned long long>(counted), static_cast<unsigned long long>(legal),
        static_cast<unsigned long long>(t.bytes),
        t.positions ? 8.0 * static_cast<double>(t.bytes) / static_cast<double>(t.positions) : 0.0,
        counted == legal ? "" : " (incomplete)");
  }
}

int egdb_info(const Args& args) {
  std::string variant_name = "english";
  std::string dir = default_read_dir();
  po::options_description desc(
      "tsuru egdb info: check every slice file of a rule set in --dir and list its counts");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "dir", po::value(&dir)->default_value(dir), "database directory");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = supported_variant(variant_name);
  const auto db = egdb::Database::open(v, dir);
  if (!db) throw std::runtime_error(db.error());
  print_heading();
  for (const egdb::SliceInfo& s : (*db)->slices()) {
    egdb::SliceReport r;
    r.slice = s.slice;
    r.counts = s.counts;
    r.distance = s.distance;
    r.file_bytes = s.bytes;
    print_slice(r);
  }
  for (const std::string& p : (*db)->problems()) std::printf("rejected: %s\n", p.c_str());
  const auto slices = (*db)->slices();
  print_piece_totals(egdb::layout_of(v), slices);
  const auto play =
      std::count_if(slices.begin(), slices.end(), [](const auto& s) { return s.play; });
  std::printf(
      "%zu slices (%ld play files: threats left out), %llu bytes; complete up to %d pieces\n",
      slices.size(), static_cast<long>(play), static_cast<unsigned long long>((*db)->bytes()),
      (*db)->pieces());
  return (*db)->problems().empty() ? 0 : 1;
}

}  // namespace

int run_egdb(const Args& args) {
  const std::string sub = args.empty() ? "" : args[0];
  const Args rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "build") return egdb_build(rest);
  if (sub == "plan") return egdb_plan(rest);
  if (sub == "info") return egdb_info(rest);
  if (sub == "compact") return egdb_compact(rest);
  if (sub == "check") return egdb_check(rest);
  std::fprintf(
      stderr,
      "usage: tsuru egdb build|plan|info|compact|check [options]  (tsuru egdb <sub> --help)\n");
  return sub == "--help" || sub == "-h" ? 0 : 2;
}

}  // namespace tsuru::tools
