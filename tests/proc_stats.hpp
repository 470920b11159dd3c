// What a running process holds, read from /proc (Linux): resident memory, threads and open file
// descriptors, for the soak tests that check a long run does not grow them.
#pragma once

#include <sys/types.h>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace tsuru::test {

struct ProcStats {
  long rss_kib = -1;  // VmRSS
  int threads = -1;   // entries of /proc/PID/task
  int fds = -1;       // entries of /proc/PID/fd
};

inline ProcStats proc_stats(pid_t pid) {
  namespace fs = std::filesystem;
  ProcStats s;
  const fs::path dir = fs::path("/proc") / std::to_string(pid);
  std::ifstream status(dir / "status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kib = std::stol(line.substr(6));
  auto count = [](const fs::path& p) {
    std::error_code ec;
    int n = 0;
    for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) ++n;
    return ec ? -1 : n;
  };
  s.threads = count(dir / "task");
  s.fds = count(dir / "fd");
  return s;
}

// The largest of each figure over `samples` reads `gap` apart: a search thread that comes and
// goes between moves is counted whenever it exists during the window.
inline ProcStats proc_stats_peak(pid_t pid, int samples = 50,
                                 std::chrono::milliseconds gap = std::chrono::milliseconds(10)) {
  ProcStats peak;
  for (int i = 0; i < samples; ++i) {
    const ProcStats s = proc_stats(pid);
    peak.rss_kib = std::max(peak.rss_kib, s.rss_kib);
    peak.threads = std::max(peak.threads, s.threads);
    peak.fds = std::max(peak.fds, s.fds);
    if (i + 1 < samples) std::this_thread::sleep_for(gap);
  }
  return peak;
}

// The smallest of each figure over `samples` reads `gap` apart, for a process that should be
// idle: a search thread that has sent its answer and is ending is not counted.
inline ProcStats proc_stats_settled(pid_t pid, int samples = 10,
                                    std::chrono::milliseconds gap = std::chrono::milliseconds(20)) {
  ProcStats low = proc_stats(pid);
  for (int i = 1; i < samples; ++i) {
    std::this_thread::sleep_for(gap);
    const ProcStats s = proc_stats(pid);
    low.rss_kib = std::min(low.rss_kib, s.rss_kib);
    low.threads = std::min(low.threads, s.threads);
    low.fds = std::min(low.fds, s.fds);
  }
  return low;
}

}  // namespace tsuru::test
