// Chinese checkers over Hub (Tsuru's extension, docs/hub.md): a session in-process, switched to
// the game by set-param, driven by pos/go/done in the notation of docs/notation.md.
#include <chrono>
#include <condition_variable>
#include <mutex>

#include <catch2/catch.hpp>

#include "engine/chinese/notation.hpp"
#include "protocol/hub/session.hpp"
#include "tests/tsuru_run.hpp"

using namespace tsuru;
using namespace std::chrono_literals;

namespace {

class ChineseHarness {
 public:
  bool send(const std::string& line) { return session.handle(line); }
  std::vector<std::string> take() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    out.swap(lines_);
    return out;
  }
  // The first line starting with prefix (waiting for it), dropping the lines before it.
  std::string wait_for(const std::string& prefix) {
    std::unique_lock lock(mutex_);
    std::string found;
    const bool ok = cv_.wait_for(lock, 20s, [&] {
      for (std::size_t i = 0; i < lines_.size(); ++i)
        if (lines_[i].rfind(prefix, 0) == 0) {
          found = lines_[i];
          lines_.erase(lines_.begin(), lines_.begin() + static_cast<long>(i) + 1);
          return true;
        }
      return false;
    });
    if (!ok) FAIL("no line starting with '" << prefix << "'");
    return found;
  }

  Engine engine;
  hub::Session session{engine, [this](const std::string& line) {
                         std::lock_guard lock(mutex_);
                         lines_.push_back(line);
                         cv_.notify_all();
                       }};

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
};

// The move of a done line, or "".
std::string move_of(const std::string& done) {
  const auto at = done.find("move=");
  if (at == std::string::npos) return "";
  return done.substr(at + 5, done.find(' ', at) - at - 5);
}

}  // namespace

TEST_CASE("Hub plays Chinese checkers after set-param variant=chinese", "[chinese][hub]") {
  ChineseHarness h;
  h.send("hub");
  h.wait_for("wait");
  h.send("set-param name=variant value=chinese");
  h.send("init");
  h.wait_for("ready");
  REQUIRE(h.session.chinese() != nullptr);
  SECTION("pos and go: a legal move in the notation") {
    h.send("pos moves=\"113-104 7-15\"");
    h.send("level depth=3");
    h.send("go think");
    const std::string info = h.wait_for("info");
    CHECK(info.find("depth=1") != std::string::npos);
    const std::string done = h.wait_for("done");
    const std::string move = move_of(done);
    INFO(done);
    const chinese::Position pos = h.session.chinese()->game().position();
    CHECK(chinese::parse_move(pos, move).ok());
    CHECK(chinese::format_fen(pos) ==
          "R:R104,112,114,115,116,117,118,119,120,121:B1,2,3,4,5,6,8,9,10,15");
  }
  SECTION("a position string and a jump with its landings") {
    h.send("pos pos=R:R61,28:B51 moves=61x40x15");
    CHECK(h.take().empty());
    CHECK(chinese::format_fen(h.session.chinese()->game().position()) == "B:R15,28:B51");
  }
  SECTION("the winning move is found and a finished game gets a bare done") {
    h.send("pos pos=R:R1,2,3,4,5,6,7,8,9,19:B57,58,59,60,61,62,63,64,65,66");
    h.send("level depth=2");
    h.send("go think");
    CHECK(move_of(h.wait_for("done")) == "19-10");
    h.send("pos pos=R:R1,2,3,4,5,6,7,8,9,19:B57,58,59,60,61,62,63,64,65,66 moves=19-10");
    h.send("go think");
    CHECK(h.wait_for("done") == "done");
  }
  SECTION("bad input: an error each, then the session goes on") {
    h.send("pos pos=R:R1,1");
    CHECK(h.wait_for("error").find("bad position") != std::string::npos);
    h.send("go think");
    CHECK(h.wait_for("error").find("no position") != std::string::npos);
    CHECK(h.wait_for("done") == "done");
    h.send("pos moves=113-50");
    CHECK(h.wait_for("error") == "error message=\"illegal move\" move=113-50");
    h.send("pos moves=e3-d4");
    CHECK(h.wait_for("error") == "error message=\"bad move\" move=e3-d4");
    h.send("ping");
    CHECK(h.wait_for("pong") == "pong");
  }
  SECTION("another variant turns the mode off") {
    h.send("set-param name=variant value=english");
    CHECK(h.session.chinese() == nullptr);
    h.send("pos");
    h.send("level depth=2");
    h.send("go think");
    CHECK_FALSE(move_of(h.wait_for("done")).empty());
  }
}

TEST_CASE("tsuru hub plays Chinese checkers over stdin and stdout", "[chinese][hub]") {
  // `pos` after `go` first ends the search, so its done is written before the end of input.
  const auto run = tsuru::test::run_tsuru(
      {"hub"},
      "hub\nset-param name=variant value=chinese\ninit\npos moves=\"113-104 7-15\"\n"
      "level depth=3\ngo think\npos\nquit\n");
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(run.out.find("ready") != std::string::npos);
  const auto at = run.out.find("done move=");
  REQUIRE(at != std::string::npos);
  const std::string move = run.out.substr(at + 10, run.out.find('\n', at) - at - 10);
  auto pos =
      chinese::parse_fen("R:R104,112,114,115,116,117,118,119,120,121:B1,2,3,4,5,6,8,9,10,15");
  REQUIRE(pos.ok());
  CHECK(chinese::parse_move(*pos, move).ok());
  // Protocol lines only on stdout.
  CHECK(run.out.find("[info]") == std::string::npos);
}
