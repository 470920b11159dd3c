// tools::ChildProcess, the pipes to a child that the match runner and the protocol tests share:
// argv and shell starts, where stderr goes, every read form with its timeout, signals to the
// process group, exit codes, and the errors of a child that cannot start or has died.
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "tools/child_process.hpp"

using tsuru::tools::ChildOptions;
using tsuru::tools::ChildProcess;
using tsuru::tools::ErrorOutput;
using Read = ChildProcess::Read;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<ChildProcess> shell(const std::string& script, const ChildOptions& o = {}) {
  auto child = ChildProcess::start_shell(script, o);
  INFO(script);
  REQUIRE(child.ok());
  return std::move(child.value());
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("tsuru_child_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("child process: argv start, lines both ways, exit code", "[child]") {
  auto child = ChildProcess::start({"/bin/cat"});
  REQUIRE(child.ok());
  ChildProcess& cat = **child;
  CHECK(cat.running());
  REQUIRE(cat.write_line("hello"));
  REQUIRE(cat.write("one\r\ntwo\nthree"));  // a CR before the newline is dropped
  std::string line;
  REQUIRE(cat.read_line(line, 5s) == Read::Ok);
  CHECK(line == "hello");
  REQUIRE(cat.read_line(line, 5s) == Read::Ok);
  CHECK(line == "one");
  REQUIRE(cat.read_line(line, 5s) == Read::Ok);
  CHECK(line == "two");
  cat.close_input();
  // The last line has no newline: it still counts, then the output is closed.
  REQUIRE(cat.read_line(line, 5s) == Read::Ok);
  CHECK(line == "three");
  CHECK(cat.read_line(line, 5s) == Read::Closed);
  CHECK(cat.wait(5s) == 0);
  CHECK_FALSE(cat.running());
  CHECK_FALSE(cat.write("late"));  // its stdin is closed

  // Arguments reach the program as they are, spaces and quotes included.
  auto echo =
      ChildProcess::start({"/bin/sh", "-c", "printf '%s|' \"$@\"; exit 7", "sh", "a b", "'c'"});
  REQUIRE(echo.ok());
  std::string out;
  REQUIRE((*echo)->read_all(out, 5s) == Read::Ok);
  CHECK(out == "a b|'c'|");
  CHECK((*echo)->wait(5s) == 7);
}

TEST_CASE("child process: read_until, read_line_containing, read_all", "[child]") {
  auto p = shell("printf 'a\\nb> c\\nnoise\\nthe port 42\\nrest'; printf ' and more'");
  std::string text;
  REQUIRE(p->read_until("> ", text, 5s) == Read::Ok);
  CHECK(text == "a\nb> ");
  std::string line;
  REQUIRE(p->read_line(line, 5s) == Read::Ok);
  CHECK(line == "c");
  REQUIRE(p->read_line_containing("port", line, 5s) == Read::Ok);
  CHECK(line == "the port 42");  // "noise" was dropped
  REQUIRE(p->read_all(text, 5s) == Read::Ok);
  CHECK(text == "rest and more");
  CHECK(p->read_line_containing("port", line, 5s) == Read::Closed);
  CHECK(p->wait(5s) == 0);

  // A marker that never comes: what did come is handed back with the end of output.
  auto q = shell("printf 'no prompt'");
  REQUIRE(q->read_until("> ", text, 5s) == Read::Closed);
  CHECK(text == "no prompt");
}

TEST_CASE("child process: every read times out on a silent child", "[child]") {
  auto p = shell("echo first; exec sleep 30");
  std::string line;
  REQUIRE(p->read_line(line, 5s) == Read::Ok);
  CHECK(line == "first");
  const auto t = std::chrono::steady_clock::now();
  CHECK(p->read_line(line, 100ms) == Read::Timeout);
  CHECK(p->read_line_containing("x", line, 100ms) == Read::Timeout);
  std::string text;
  CHECK(p->read_until("x", text, 100ms) == Read::Timeout);
  CHECK(p->read_all(text, 100ms) == Read::Timeout);
  CHECK(seconds_since(t) < 2.0);
  CHECK_FALSE(p->wait(50ms).has_value());
  CHECK(p->running());
  // The destructor kills it at once (no grace period asked for).
  const auto d = std::chrono::steady_clock::now();
  p.reset();
  CHECK(seconds_since(d) < 2.0);
}

TEST_CASE("child process: signals reach the process group, exit codes tell them", "[child]") {
  auto term = shell("echo up; exec sleep 30");
  std::string line;
  REQUIRE(term->read_line(line, 5s) == Read::Ok);
  term->signal(SIGTERM);
  CHECK(term->wait(5s) == 128 + SIGTERM);

  // The shell's own child holds the output pipe open: killing only the shell would leave the
  // read waiting for it; killing the group ends both.
  auto group = shell("sleep 30 & echo up; wait");
  REQUIRE(group->read_line(line, 5s) == Read::Ok);
  group->kill();
  CHECK(group->wait(5s) == 128 + SIGKILL);
  std::string rest;
  CHECK(group->read_all(rest, 5s) == Read::Ok);
}

TEST_CASE("child process: stderr inherited, discarded or written to a file", "[child]") {
  const std::string path = temp_file("stderr.txt");
  {
    std::ofstream(path) << "old contents\n";
    ChildOptions o;
    o.error_output = ErrorOutput::File;
    o.error_file = path;
    auto p = shell("echo out; echo err >&2", o);
    std::string out;
    REQUIRE(p->read_all(out, 5s) == Read::Ok);
    CHECK(out == "out\n");
    CHECK(p->wait(5s) == 0);
    CHECK(contents(path) == "err\n");  // truncated first
  }
  {
    ChildOptions o;
    o.error_output = ErrorOutput::Discard;
    auto p = shell("echo err >&2; echo out", o);
    std::string out;
    REQUIRE(p->read_all(out, 5s) == Read::Ok);
    CHECK(out == "out\n");
  }
  std::filesystem::remove(path);

  ChildOptions bad;
  bad.error_output = ErrorOutput::File;
  bad.error_file = "/nonexistent-dir/err.txt";
  const auto failed = ChildProcess::start_shell("true", bad);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error() == "cannot open /nonexistent-dir/err.txt: No such file or directory");
}

TEST_CASE("child process: a program that cannot start is an error, not a child", "[child]") {
  const auto missing = ChildProcess::start({"/nonexistent/program", "x"});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error() == "cannot start /nonexistent/program: No such file or directory");
  const auto not_executable = ChildProcess::start({"/etc/passwd"});
  REQUIRE_FALSE(not_executable.ok());
  CHECK(not_executable.error() == "cannot start /etc/passwd: Permission denied");
  const auto empty = ChildProcess::start({});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error() == "no program to start");
}

TEST_CASE("child process: writing to a child that has died fails, and only fails", "[child]") {
  auto p = shell("exit 3");
  REQUIRE(p->wait(5s) == 3);
  // Without SIGPIPE ignored this would end the test run.
  bool ok = true;
  for (int i = 0; i < 100 && ok; ++i) ok = p->write_line(std::string(1000, 'x'));
  CHECK_FALSE(ok);
  std::string line;
  CHECK(p->read_line(line, 1s) == Read::Closed);
}

TEST_CASE("child process: the destructor waits the grace period for a child to end", "[child]") {
  const std::string path = temp_file("grace.txt");
  ChildOptions o;
  o.exit_grace = 5s;
  {
    // The child ends at the end of its input, after a little work the destructor waits for.
    auto p = shell("cat >/dev/null; sleep 0.2; echo finished > '" + path + "'", o);
  }
  CHECK(contents(path) == "finished\n");
  std::filesystem::remove(path);
  {
    // Without a grace period the same child is killed before it writes.
    auto p = shell("cat >/dev/null; sleep 0.2; echo finished > '" + path + "'");
  }
  ::usleep(400000);
  CHECK_FALSE(std::filesystem::exists(path));
}
