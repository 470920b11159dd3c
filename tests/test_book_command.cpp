// `tsuru book show` and `tsuru book merge` through the real binary: book files named without an
// option, --help, bad options and missing input.
#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "book/format.hpp"
#include "engine/rules/legal.hpp"
#include "tests/engine_helpers.hpp"
#include "tests/tsuru_run.hpp"

using namespace tsuru;
using namespace std::chrono_literals;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("tsuru_book_command_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// Runs `tsuru book <args>` to its end.
test::TsuruRun book_command(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"book"};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_tsuru(argv, "", 60s);
}

}  // namespace

TEST_CASE("tsuru book merge and show: books named without an option", "[book][command]") {
  const Variant v = Variant::English;
  const Position start = start_position(v);
  const Move a = test::move(v, start, "9-13");
  const Move b = test::move(v, start, "11-15");
  const std::string one = temp_path("one.book"), two = temp_path("two.book");
  const std::string merged = temp_path("merged.book");
  REQUIRE(book::write_file(v, one, {{start.key(), a, 30, 5}, {start.key(), b, 10, 5}}).ok());
  REQUIRE(book::write_file(v, two, {{start.key(), b, 40, 9}}).ok());

  // A move in both books keeps its deeper score.
  const test::TsuruRun merge =
      book_command({"merge", "--variant", "english", "--out", merged, one, two});
  INFO(merge.err);
  CHECK(merge.code == 0);
  CHECK(merge.out == "book " + merged + ": records=2 positions=1\n");

  const test::TsuruRun show = book_command({"show", "--variant", "english", merged});
  INFO(show.err);
  CHECK(show.code == 0);
  CHECK(show.out == "book " + merged +
                        ": positions=1 records=2\n"
                        "position B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,"
                        "11,12\n"
                        "move=11-15 score=0.40 depth=9\n"
                        "move=9-13 score=0.30 depth=5\n");
  for (const std::string& f : {one, two, merged}) std::filesystem::remove(f);
}

TEST_CASE("tsuru book show and merge: help, bad options, missing input", "[book][command]") {
  const test::TsuruRun help = book_command({"show", "--help"});
  CHECK(help.code == 0);
  CHECK(help.out.starts_with("tsuru book show: the book moves of a position:\n"));
  CHECK(help.out.find("--fen arg") != std::string::npos);

  const test::TsuruRun bogus = book_command({"show", "--bogus"});
  CHECK(bogus.code == 2);
  CHECK(bogus.err.starts_with("error: unrecognised option '--bogus'\n"));
  CHECK(bogus.out.empty());

  const test::TsuruRun two_files = book_command({"show", "a.book", "b.book"});
  CHECK(two_files.code == 2);
  CHECK(two_files.err.starts_with("error: too many positional options"));

  const test::TsuruRun no_out = book_command({"merge", "a.book"});
  CHECK(no_out.code == 2);
  CHECK(no_out.err.starts_with("error: the option '--out' is required but missing\n"));

  const test::TsuruRun no_input = book_command({"merge", "--out", temp_path("none.book")});
  CHECK(no_input.code == 2);
  CHECK(no_input.err == "book merge: no input books\n");

  const test::TsuruRun missing = book_command({"show", temp_path("missing.book")});
  CHECK(missing.code == 1);
  CHECK(missing.err.starts_with("book show: "));
}

TEST_CASE("tsuru book merge: --out that is not a book is refused unless --force",
          "[book][command]") {
  const Variant v = Variant::English;
  const Position start = start_position(v);
  const std::string one = temp_path("force_one.book");
  REQUIRE(book::write_file(v, one, {{start.key(), test::move(v, start, "9-13"), 30, 5}}).ok());
  const std::string notes = temp_path("notes.txt");
  auto write_text = [](const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
  };
  auto read_text = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  write_text(notes, "precious notes\n");
  write_text(notes + ".tmp", "another file\n");

  const test::TsuruRun refused =
      book_command({"merge", "--variant", "english", "--out", notes, one});
  CHECK(refused.code == 1);
  CHECK(refused.err.starts_with("book merge: will not overwrite " + notes));
  CHECK(refused.err.find("not a Tsuru book") != std::string::npos);
  CHECK(refused.err.find("--force") != std::string::npos);
  CHECK(read_text(notes) == "precious notes\n");

  // A book of another rule set is not overwritten either.
  const std::string intl = temp_path("force_intl.book");
  REQUIRE(book::write_file(Variant::International, intl, {}).ok());
  const test::TsuruRun foreign =
      book_command({"merge", "--variant", "english", "--out", intl, one});
  CHECK(foreign.code == 1);
  CHECK(foreign.err.find("rule set") != std::string::npos);

  // A directory never.
  const std::string dir = temp_path("force_dir");
  std::filesystem::create_directory(dir);
  const test::TsuruRun directory =
      book_command({"merge", "--variant", "english", "--force", "--out", dir, one});
  CHECK(directory.code == 1);
  CHECK(directory.err == "book merge: " + dir + " is a directory\n");

  // With --force it is replaced; FILE.tmp, someone else's, is left alone.
  const test::TsuruRun forced =
      book_command({"merge", "--variant", "english", "--force", "--out", notes, one});
  INFO(forced.err);
  CHECK(forced.code == 0);
  CHECK(book::read_file(v, notes).ok());
  CHECK(read_text(notes + ".tmp") == "another file\n");

  // An existing book of the rule set is replaced without --force (the usual case).
  const test::TsuruRun again = book_command({"merge", "--variant", "english", "--out", notes, one});
  CHECK(again.code == 0);
  for (const std::string& f : {one, notes, notes + ".tmp", intl, dir}) std::filesystem::remove(f);
}

TEST_CASE("tsuru book show: a directory or a file that is not a book, a clear error",
          "[book][command]") {
  const std::string dir = temp_path("show_dir");
  std::filesystem::create_directory(dir);
  const test::TsuruRun directory = book_command({"show", "--variant", "english", dir});
  CHECK(directory.code == 1);
  CHECK(directory.err == "book show: " + dir + " is a directory, not a book file\n");
  CHECK(directory.out.empty());
  std::filesystem::remove(dir);

  const std::string text = temp_path("show_text.book");
  {
    std::ofstream out(text);
    out << "hello\n";
  }
  const test::TsuruRun not_book = book_command({"show", "--variant", "english", text});
  CHECK(not_book.code == 1);
  CHECK(not_book.err == "book show: " + text + ": not a Tsuru book (file too short)\n");
  std::filesystem::remove(text);
}
