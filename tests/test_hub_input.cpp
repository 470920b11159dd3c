// `tsuru hub` under a client that writes without reading: the input queue is bounded, so the
// client's writes block (back-pressure) instead of the engine's memory growing; once the client
// reads again every line is answered, in order.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

namespace {

using Steady = std::chrono::steady_clock;

// A /proc/PID/status field in KiB (VmHWM: peak resident memory).
long status_kib(pid_t pid, const std::string& name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(name + ":")) return std::stol(line.substr(name.size() + 1));
  return -1;
}

// `tsuru hub` with raw pipes: the test decides when (and whether) to read its output.
struct RawHub {
  pid_t pid = -1;
  int in = -1, out = -1;

  RawHub() {
    int to_child[2], from_child[2];
    REQUIRE(::pipe(to_child) == 0);
    REQUIRE(::pipe(from_child) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(to_child[0], 0);
      ::dup2(from_child[1], 1);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 2);
      for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1], null}) ::close(fd);
      ::execl(TSURU_BINARY, TSURU_BINARY, "hub", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    in = to_child[1];
    out = from_child[0];
    ::signal(SIGPIPE, SIG_IGN);
    ::fcntl(in, F_SETFL, ::fcntl(in, F_GETFL) | O_NONBLOCK);
  }
  ~RawHub() {
    if (in >= 0) ::close(in);
    if (out >= 0) ::close(out);
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }

  // Writes as much of text as the pipe takes until it stays full for `patience`; the bytes
  // written.
  std::size_t write_until_blocked(const std::string& text, std::chrono::milliseconds patience) {
    std::size_t done = 0;
    auto last_progress = Steady::now();
    while (done < text.size() && Steady::now() - last_progress < patience) {
      const ssize_t n = ::write(in, text.data() + done, text.size() - done);
      if (n > 0) {
        done += static_cast<std::size_t>(n);
        last_progress = Steady::now();
      } else if (n < 0 && errno == EAGAIN) {
        pollfd p{in, POLLOUT, 0};
        ::poll(&p, 1, 20);
      } else {
        break;
      }
    }
    return done;
  }

  // Everything the child writes until it closes stdout (bounded by timeout).
  std::string read_all(std::chrono::seconds timeout) {
    std::string text;
    const auto deadline = Steady::now() + timeout;
    char buf[1 << 16];
    while (Steady::now() < deadline) {
      pollfd p{out, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      const ssize_t n = ::read(out, buf, sizeof buf);
      if (n <= 0) break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
  }
};

}  // namespace

TEST_CASE("hub input: a client that writes without reading meets back-pressure, not growth",
          "[hub][input]") {
  RawHub hub;
  // 16 MB of pings; nobody reads the pongs, so after 64 KiB of them the engine's writes block.
  std::string pings;
  while (pings.size() < (std::size_t{16} << 20)) pings += "ping\n";
  const std::size_t written = hub.write_until_blocked(pings, std::chrono::milliseconds(1500));
  const long peak_kib = status_kib(hub.pid, "VmHWM");
  INFO("bytes taken before the writes blocked: " << written << ", peak RSS " << peak_kib << " KiB");
  // Unbounded, the whole 16 MB is taken (and about 17 bytes of memory per byte); bounded, the
  // pipes and the queue hold a few hundred KiB.
  CHECK(written < (std::size_t{2} << 20));
  CHECK(peak_kib > 0);
  CHECK(peak_kib < 64 * 1024);

  // Reading again: every line taken gets its pong, then EOF ends the engine.
  const std::size_t lines = written / 5;  // a partial last line is never answered
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::close(hub.in);
    hub.in = -1;
  });
  const std::string out = hub.read_all(std::chrono::seconds(60));
  closer.join();
  std::size_t pongs = 0;
  for (std::size_t at = out.find("pong\n"); at != std::string::npos;
       at = out.find("pong\n", at + 5))
    ++pongs;
  CHECK(pongs >= lines);
  CHECK(pongs <= lines + 1);
  int status = 0;
  REQUIRE(::waitpid(hub.pid, &status, 0) == hub.pid);
  hub.pid = -1;
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
