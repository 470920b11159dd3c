// Test support: environment variables set for a scope, fresh temporary directories, and a data
// directory with the English endgame databases of up to 3 pieces, built once per test run by
// `tsuru egdb build` with no --dir (so it must write into $TSURU_DATA/egdb).
#pragma once

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include <catch2/catch.hpp>

#include "tests/tsuru_run.hpp"

namespace tsuru::test {

// Sets (or, with nullopt, unsets) an environment variable for the scope; children inherit it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

inline std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A data directory with the English databases of up to 3 pieces, built once by `tsuru egdb
// build` with no --dir (so it must write into $TSURU_DATA/egdb), and removed when the test
// program ends.
inline const std::filesystem::path& english3_data() {
  struct Removed {
    std::filesystem::path dir;
    ~Removed() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };
  static const Removed data{fresh_dir("tsuru-data-english3")};
  static const bool built = [] {
    ScopedEnv env("TSURU_DATA", data.dir.string());
    const auto r = test::run_tsuru(
        {"egdb", "build", "--variant", "english", "--pieces", "3", "--threads", "1", "--quiet"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    return true;
  }();
  (void)built;
  return data.dir;
}

}  // namespace tsuru::test
