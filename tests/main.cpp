// The test runner. Every test, and every `tsuru` it starts, sees an empty data directory
// (TSURU_DATA, book/data_dir.hpp) unless it sets its own: what happens to be installed in the
// user's data directory must not change a bench signature or a game.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

int main(int argc, char* argv[]) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path empty =
      fs::temp_directory_path(ec) / ("tsuru-tests-data-" + std::to_string(::getpid()));
  fs::create_directories(empty, ec);
  ::setenv("TSURU_DATA", empty.c_str(), 1);
  const int result = Catch::Session().run(argc, argv);
  fs::remove_all(empty, ec);
  return result;
}
