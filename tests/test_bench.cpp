// `tsuru bench` is a signature of the search: the same node count on every run, and the count
// of every rule set pinned in tests/data/bench_signatures.tsv.
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "engine/rules/variant.hpp"

namespace {

// Runs a command and returns its standard output.
std::string run(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  REQUIRE(pipe);
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe.get())) out += buf.data();
  return out;
}

std::string signature(const std::string& output) {
  const auto at = output.rfind("bench nodes=");
  REQUIRE(at != std::string::npos);
  return output.substr(at, output.find('\n', at) - at);
}

}  // namespace

TEST_CASE("bench prints a reproducible node count", "[bench]") {
  for (const char* variant : {"english", "international"}) {
    const std::string command =
        std::string(TSURU_BINARY) + " bench --variant " + variant + " --depth 6";
    const std::string first = run(command);
    const std::string second = run(command);
    INFO(first);
    CHECK(signature(first) == signature(second));
    CHECK(signature(first) != "bench nodes=0");
    // One line per position (at least 20), then the totals.
    int positions = 0;
    for (std::size_t at = first.find("position="); at != std::string::npos;
         at = first.find("position=", at + 1))
      ++positions;
    CHECK(positions >= 20);
    CHECK(first.find("total positions=") != std::string::npos);
  }
}

TEST_CASE("bench node counts equal the pinned signatures of every rule set", "[bench]") {
  std::ifstream file(std::string(TSURU_TEST_DATA) + "/bench_signatures.tsv");
  REQUIRE(file);
  std::map<std::string, std::string> pinned;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string variant, nodes;
    REQUIRE(fields >> variant >> nodes);
    pinned[variant] = nodes;
  }
  // Every rule set has its signature.
  for (const tsuru::Variant v : tsuru::all_variants())
    CHECK(pinned.count(std::string(tsuru::info(v).name)) == 1);
  for (const auto& [variant, nodes] : pinned) {
    INFO(variant);
    CHECK(signature(run(std::string(TSURU_BINARY) + " bench --variant " + variant)) ==
          "bench nodes=" + nodes);
  }
}
