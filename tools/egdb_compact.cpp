// tsuru egdb compact: rewrites the endgame database files of format version 1 in the compact
// format (version 2, eval/egdb/format.hpp): the positions with a capture pending left out, the
// runs range-coded. With --threats it makes play files: the positions where the side not to
// move has a capture are left out too (the files without distances; the generator does not build
// on play files). The values are those of the old files; nothing is solved again.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

#include <boost/program_options.hpp>

#include "book/data_dir.hpp"
#include "eval/egdb/capture_positions.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/packed_values.hpp"
#include "eval/egdb/plan.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

void write_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot rename " + tmp + ": " + ec.message());
}

double bits_per_position(std::uint64_t bytes, const egdb::SliceCounts& c) {
  const std::uint64_t n = c.positions - c.invalid;
  return n ? 8.0 * static_cast<double>(bytes) / static_cast<double>(n) : 0.0;
}

void print_row(const egdb::Slice& s, const egdb::SliceCounts& c, std::uint64_t old_bytes,
               std::uint64_t new_bytes, std::chrono::steady_clock::time_point start,
               const char* note) {
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-5s %14llu %12llu %8.4f %12llu %8.4f %7.1f%s%s\n", s.name().c_str(),
              static_cast<unsigned long long>(c.positions - c.invalid),
              static_cast<unsigned long long>(old_bytes), bits_per_position(old_bytes, c),
              static_cast<unsigned long long>(new_bytes), bits_per_position(new_bytes, c), secs,
              *note ? " " : "", note);
  std::fflush(stdout);
}

// The size of the compact file at `target` when it is whole (its blocks checked) and of the kind
// asked for: version 2, threats left out exactly when `omit_threats` and it has no distances.
std::optional<std::uint64_t> complete_target(const std::string& target, const std::string& rules,
                                             const egdb::Slice& s, const egdb::Layout& layout,
                                             bool omit_threats) {
  std::error_code ec;
  if (!fs::is_regular_file(target, ec)) return std::nullopt;
  auto file = egdb::MappedFile::open(target);
  if (!file) return std::nullopt;
  auto view =
      egdb::SliceView::parse(file->data(), file->size(), rules, s, egdb::slice_size(layout, s));
  if (!view || view->version() != egdb::kVersion) return std::nullopt;
  if (view->omits_threats() != (omit_threats && !view->has_distance())) return std::nullopt;
  return file->size();
}

}  // namespace

int egdb_compact(const Args& args) {
  std::string variant_name = "english", out_dir;
  std::string dir = data::find_folder("egdb").value_or(data::user_folder("egdb"));
  int threads = 1;
  bool threats = false;
  po::options_description desc(
      "tsuru egdb compact: rewrite the version-1 slice files of a rule set in --dir in the "
      "compact format (positions with a capture pending left out; range-coded runs)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "dir", po::value(&dir)->default_value(dir), "database directory")(
      "out", po::value(&out_dir),
      "write the compact files here (created) instead of replacing the old ones")(
      "threats", po::bool_switch(&threats),
      "make play files: also leave out the positions where the side not to move has a capture "
      "(slices without distances; the engine reads them, the generator does not build on them)")(
      "threads", po::value(&threads)->default_value(threads), "worker threads");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  const Variant v = variant_from_name(variant_name);
  if (const auto why = egdb::unsupported(v)) throw std::runtime_error(*why);
  if (threads < 1 || threads > 256) throw std::runtime_error("--threads must be 1..256");
  if (out_dir.empty()) out_dir = dir;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw std::runtime_error(out_dir + ": " + ec.message());
  const egdb::Layout layout = egdb::layout_of(v);
  const std::string rules(info(v).name);
  std::uint64_t old_total = 0, new_total = 0, positions = 0;
  int converted = 0, failed = 0;
  std::printf("%-5s %14s %12s %8s %12s %8s %7s\n", "slice", "positions", "old bytes", "bits",
              "new bytes", "bits", "seconds");
  for (int n = 2; n <= 15; ++n) {
    for (const egdb::Slice& s : egdb::slices_with(n)) {
      const std::string path = (fs::path(dir) / egdb::file_name(rules, s)).string();
      if (!fs::is_regular_file(path, ec)) continue;
      const auto start = std::chrono::steady_clock::now();
      auto file = egdb::MappedFile::open(path);
      if (!file) {
        std::printf("rejected: %s\n", file.error().c_str());
        ++failed;
        continue;
      }
      auto view =
          egdb::SliceView::parse(file->data(), file->size(), rules, s, egdb::slice_size(layout, s));
      if (!view) {
        std::printf("rejected: %s: %s\n", path.c_str(), view.error().c_str());
        ++failed;
        continue;
      }
      const egdb::SliceCounts& c = view->counts();
      // Threats are left out of the slices without distances only: a file with distances
      // keeps its omitted positions' as don't-care, so they could not be written again.
      const bool omit_threats = threats && !view->has_distance();
      const std::uint8_t flags = omit_threats
                                     ? egdb::kFlagCapturesOmitted | egdb::kFlagThreatsOmitted
                                     : egdb::kFlagCapturesOmitted;
      const bool done =
          view->version() == egdb::kVersion && (view->omits_threats() || !omit_threats);
      const std::string target = (fs::path(out_dir) / egdb::file_name(rules, s)).string();
      if (target != path) {
        // A file already written to --out by an earlier run (stopped part-way) is kept when it
        // is whole and of the kind asked for: a long rewrite resumes where it stopped.
        if (const auto kept = complete_target(target, rules, s, layout, omit_threats)) {
          print_row(s, c, file->size(), *kept, start, "(exists)");
          old_total += file->size();
          new_total += *kept;
          positions += c.positions - c.invalid;
          continue;
        }
      }
      std::vector<std::uint8_t> bytes;
      if (done) {
        bytes.assign(file->data(), file->data() + file->size());  // compact already
      } else {
        const std::vector<std::uint64_t> omit = with_rules(
            v, [&]<class R>(R) { return egdb::omit_mask<R>(layout, s, threads, omit_threats); });
        if (view->version() == egdb::kVersion) {
          // Version 2 without distances: the values as two bits, the header's counts kept (the
          // positions it left out decode as don't-care); invalid indices marked again.
          egdb::PackedValues values = view->decode_wdl();
          egdb::for_indices(threads, values.size(), [&](std::uint64_t i) {
            if (!egdb::unrank(layout, s, i)) values.set(i, egdb::kInvalid);
          });
          bytes = egdb::encode_slice(rules, s, values, c, &omit, flags);
        } else {
          // Version 1 stores an invalid index as the value before it: mark it again (the
          // header's counts come from the values).
          std::vector<egdb::Value> values = view->decode_all();
          egdb::for_indices(threads, values.size(), [&](std::uint64_t i) {
            if (!egdb::unrank(layout, s, i)) values[i] = egdb::kInvalid;
          });
          bytes = egdb::encode_slice(rules, s, values, view->has_distance(), &omit, egdb::kVersion,
                                     flags);
        }
        ++converted;
      }
      const std::uint64_t old_bytes = file->size();
      // (Renaming over the mapped file leaves the mapping on the old one.)
      if (target != path || !done) write_atomically(target, bytes);
      print_row(s, c, old_bytes, bytes.size(), start, "");
      old_total += old_bytes;
      new_total += bytes.size();
      positions += c.positions - c.invalid;
    }
  }
  std::printf(
      "total %llu positions: %llu bytes (%.4f bits a position) -> %llu bytes (%.4f); %d "
      "files rewritten\n",
      static_cast<unsigned long long>(positions), static_cast<unsigned long long>(old_total),
      positions ? 8.0 * static_cast<double>(old_total) / static_cast<double>(positions) : 0,
      static_cast<unsigned long long>(new_total),
      positions ? 8.0 * static_cast<double>(new_total) / static_cast<double>(positions) : 0,
      converted);
  return failed ? 1 : 0;
}

}  // namespace tsuru::tools
