// tsuru book build|show|merge: make, inspect and combine opening books.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>

#include <boost/program_options.hpp>

#include "book/book.hpp"
#include "engine/rules/notation.hpp"
#include "tools/book/builder.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {
namespace {

namespace po = boost::program_options;

void progress_bar(int done, int total, double seconds) {
  const int width = 30;
  const int filled = total > 0 ? width * done / total : width;
  std::fprintf(stderr, "\r[%s%s] %d/%d positions, %.0f s",
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), done, total,
               seconds);
  std::fflush(stderr);
}

int book_build(const Args& args) {
  std::string variant_name = "international";
  book::BuildOptions o;
  int margin = o.expand_margin;
  po::options_description desc(
      "tsuru book build: grow a book from the engine's analysis (extends an existing --out; a "
      "stopped build resumes when run again)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "out", po::value(&o.out)->required(), "book file to create or extend")(
      "positions", po::value(&o.positions)->default_value(o.positions),
      "positions to analyse in this run")("plies",
                                          po::value(&o.max_plies)->default_value(o.max_plies),
                                          "deepest ply from the start position")(
      "depth", po::value(&o.depth)->default_value(o.depth), "search depth per move")(
      "margin", po::value(&margin)->default_value(margin),
      "expand moves within this many centi-men of the best")(
      "no-ballots", "English: do not grow from the 3-move ballots")(
      "tt-size", po::value(&o.tt_log2)->default_value(o.tt_log2), "hash table entries, log2");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;
  o.variant = variant_from_name(variant_name);
  o.expand_margin = margin;
  o.ballots = vm.count("no-ballots") == 0;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  o.progress = [&](int done, int total) { progress_bar(done, total, elapsed()); };
  const auto stats = book::build(o);
  std::fprintf(stderr, "\n");
  if (!stats) {
    std::fprintf(stderr, "book build: %s\n", stats.error().c_str());
    return 1;
  }
  if (stats->resumed > 0)
    std::fprintf(stderr, "book build: resumed %s.build: %d positions analysed before the stop\n",
                 o.out.c_str(), stats->resumed);
  std::printf("book %s: analysed=%d positions=%zu records=%zu time=%.1f\n", o.out.c_str(),
              stats->analysed, stats->positions, stats->records, elapsed());
  return 0;
}

int book_show(const Args& args) {
  std::string variant_name = "international", fen, file;
  po::options_description desc("tsuru book show: the book moves of a position");
  desc.add_options()("help,h", "show this help")(
      "file", po::value(&file), "book file (default: the rule set's default book)")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "fen", po::value(&fen), "position (default: the start position)");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parse_options(args, desc, vm, &positional)) return vm.count("help") ? 0 : 2;
  const Variant v = variant_from_name(variant_name);
  if (file.empty()) {
    const auto found = book::default_book_path(v);
    if (!found) {
      std::fprintf(stderr, "book show: no default book for %s\n", variant_name.c_str());
      return 1;
    }
    file = *found;
  }
  const auto loaded = book::Book::load(v, file);
  if (!loaded) {
    std::fprintf(stderr, "book show: %s\n", loaded.error().c_str());
    return 1;
  }
  const Position pos = position_from_text(v, fen);
  std::printf("book %s: positions=%zu records=%zu\n", file.c_str(), loaded->positions(),
              loaded->size());
  std::printf("position %s\n", notation::format_fen(v, pos).c_str());
  const auto moves = loaded->moves(pos);
  if (moves.empty()) std::printf("not in book\n");
  for (const book::BookMove& m : moves)
    std::printf("move=%s score=%.2f depth=%d\n", notation::format_move(v, m.move).c_str(),
                m.score / 100.0, m.depth);
  return 0;
}

int book_merge(const Args& args) {
  std::string variant_name = "international", out;
  std::vector<std::string> inputs;
  po::options_description desc(
      "tsuru book merge: combine books (a move in several keeps its deepest score)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "out", po::value(&out)->required(), "merged book file")(
      "input", po::value(&inputs)->multitoken(), "books to merge")(
      "force", "overwrite --out even when it is not a book of this rule set");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  if (!parse_options(args, desc, vm, &positional)) return vm.count("help") ? 0 : 2;
  const Variant v = variant_from_name(variant_name);
  if (inputs.empty()) {
    std::fprintf(stderr, "book merge: no input books\n");
    return 2;
  }
  // Like build (which extends --out, so refuses one it cannot read), merge replaces --out only
  // when it is a book of this rule set, unless told to.
  std::error_code ec;
  if (std::filesystem::is_directory(out, ec)) {
    std::fprintf(stderr, "book merge: %s is a directory\n", out.c_str());
    return 1;
  }
  if (std::filesystem::exists(out, ec) && !vm.count("force")) {
    if (const auto existing = book::read_file(v, out); !existing) {
      std::fprintf(stderr,
                   "book merge: will not overwrite %s, not a book of this rule set (%s); "
                   "--force overwrites it\n",
                   out.c_str(), existing.error().c_str());
      return 1;
    }
  }
  std::map<std::pair<Key, std::string>, book::Record> merged;
  for (const std::string& in : inputs) {
    const auto records = book::read_file(v, in);
    if (!records) {
      std::fprintf(stderr, "book merge: %s\n", records.error().c_str());
      return 1;
    }
    for (const book::Record& r : records.value()) {
      const auto id = std::make_pair(r.key, notation::format_move(v, r.move));
      auto it = merged.find(id);
      if (it == merged.end() || r.depth > it->second.depth) merged[id] = r;
    }
  }
  std::vector<book::Record> all;
  for (const auto& [id, r] : merged) all.push_back(r);
  const auto written = book::write_file(v, out, all);
  if (!written) {
    std::fprintf(stderr, "book merge: %s\n", written.error().c_str());
    return 1;
  }
  std::printf("book %s: records=%zu positions=%zu\n", out.c_str(), all.size(),
              book::Book(v, all).positions());
  return 0;
}

}  // namespace

int run_book(const Args& args) {
  const std::string sub = args.empty() ? "" : args[0];
  const Args rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "build") return book_build(rest);
  if (sub == "show") return book_show(rest);
  if (sub == "merge") return book_merge(rest);
  std::fprintf(stderr, "usage: tsuru book build|show|merge [options]  (tsuru book <sub> --help)\n");
  return sub == "--help" || sub == "-h" ? 0 : 2;
}

}  // namespace tsuru::tools
