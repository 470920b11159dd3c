// Benchmark, not a test: how fast `tsuru hub` answers ping while it searches. Hidden
// ([.latency]); run `build/tests/tsuru_tests "[.latency]"` to print the figures.
#include <algorithm>
#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "tests/hub_client.hpp"

using namespace std::chrono_literals;
using tsuru::test::HubClient;

namespace {

// Round-trip times of n pings, in milliseconds, sorted.
std::vector<double> ping_times(HubClient& hub, int n) {
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    hub.sync();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    std::this_thread::sleep_for(2ms);
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

std::string summary(const std::vector<double>& ms) {
  auto at = [&](double q) {
    return ms[static_cast<std::size_t>(q * static_cast<double>(ms.size() - 1))];
  };
  char buf[160];
  std::snprintf(buf, sizeof buf, "min %.3f ms, median %.3f ms, p99 %.3f ms, max %.3f ms",
                ms.front(), at(0.5), at(0.99), ms.back());
  return buf;
}

}  // namespace

TEST_CASE("hub latency: ping while searching", "[.latency]") {
  HubClient hub;
  hub.start_session();
  const auto idle = ping_times(hub, 200);
  hub.send("pos");
  hub.send("go analyze");
  std::this_thread::sleep_for(200ms);
  const auto busy = ping_times(hub, 500);
  hub.send("stop");
  hub.until_done();
  WARN("ping idle: " << summary(idle));
  WARN("ping while searching: " << summary(busy));
  CHECK(busy.back() < 1000.0);  // sanity only; the figure is the point
}
