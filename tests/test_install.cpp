// The installed engine: `cmake --install` into a fresh prefix, then that tree moved elsewhere,
// and the binary there runs, reports its version and finds its books beside itself, never in
// the build or source tree, and the endgame databases in its share/tsuru/egdb. The Debian package
// is checked by .ci/run (cpack, dpkg -x, the build tree moved away).
#include <unistd.h>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "engine/version.hpp"
#include "tests/tsuru_run.hpp"

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("install: the installed binary runs from any prefix and finds its books there",
          "[install]") {
  const TempDir dir("tsuru_install");
  const fs::path prefix = dir.path / "prefix";
  const auto install = tsuru::test::run_program(
      {TSURU_CMAKE, "--install", TSURU_BUILD_DIR, "--prefix", prefix.string()});
  INFO(install.out << install.err);
  REQUIRE(install.code == 0);
  REQUIRE(fs::is_regular_file(prefix / "bin" / "tsuru"));
  REQUIRE(fs::is_regular_file(prefix / "share" / "tsuru" / "book" / "english.book"));
  REQUIRE(fs::is_regular_file(prefix / "share" / "tsuru" / "book" / "international.book"));
  CHECK(fs::is_regular_file(prefix / "share" / "doc" / "tsuru" / "README.md"));

  // Moved after installing: only a lookup relative to the binary can find the books now.
  const fs::path moved = dir.path / "elsewhere";
  fs::rename(prefix, moved);
  const std::string tsuru = (moved / "bin" / "tsuru").string();

  const auto version = tsuru::test::run_program({tsuru, "--version"});
  CHECK(version.code == 0);
  CHECK(version.out == tsuru::version_line() + "\n");

  for (const char* variant : {"english", "international"}) {
    const auto show = tsuru::test::run_program({tsuru, "book", "show", "--variant", variant});
    INFO(show.out << show.err);
    REQUIRE(show.code == 0);
    const std::string expected =
        "book " + (moved / "share" / "tsuru" / "book" / (std::string(variant) + ".book")).string() +
        ": positions=";
    CHECK(show.out.starts_with(expected));
    CHECK(show.out.find("move=") != std::string::npos);  // the start position is in the book
  }

  const auto bench =
      tsuru::test::run_program({tsuru, "bench", "--variant", "english", "--depth", "2"});
  INFO(bench.err);
  CHECK(bench.code == 0);
  CHECK(bench.out.find("bench nodes=") != std::string::npos);

  // The installed data directory, <prefix>/share/tsuru: with no TSURU_DATA and an empty user
  // directory, the databases put in its egdb/ are found (the Hub id names them).
  const fs::path egdb = moved / "share" / "tsuru" / "egdb";
  const auto built = tsuru::test::run_program({tsuru, "egdb", "build", "--variant", "english",
                                               "--pieces", "2", "--quiet", "--dir", egdb.string()});
  INFO(built.err);
  REQUIRE(built.code == 0);
  const fs::path user = dir.path / "user";
  fs::create_directories(user / "tsuru");
  const auto hub = tsuru::test::run_program(
      {"/usr/bin/env", "-u", "TSURU_DATA", "XDG_DATA_HOME=" + user.string(), tsuru, "hub"},
      "hub\nquit\n");
  INFO(hub.out << hub.err);
  CHECK(hub.out.find(" egdb=english:2\n") != std::string::npos);
  // A user directory with an egdb/ folder goes first (here an empty one: no databases).
  fs::create_directories(user / "tsuru" / "egdb");
  const auto mine = tsuru::test::run_program(
      {"/usr/bin/env", "-u", "TSURU_DATA", "XDG_DATA_HOME=" + user.string(), tsuru, "hub"},
      "hub\nquit\n");
  CHECK(mine.out.find(" egdb=none\n") != std::string::npos);
}

TEST_CASE("tsuru --version names the project version and, from git, the commit", "[install]") {
  const auto run = tsuru::test::run_tsuru({"--version"});
  CHECK(run.code == 0);
  CHECK(run.out.starts_with("tsuru " + std::string(tsuru::version())));
  CHECK(tsuru::version() == TSURU_PROJECT_VERSION);
  CHECK(run.out == tsuru::version_line() + "\n");
}
