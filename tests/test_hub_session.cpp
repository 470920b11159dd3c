// The Hub session in-process: every command, parameter, level form and error reply, against a
// real engine facade, with replies collected from the output callback.
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <regex>
#include <thread>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "book/format.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/hub/notation.hpp"
#include "protocol/hub/report.hpp"
#include "protocol/hub/session.hpp"
#include "tests/hub_handshake.hpp"

using namespace tsuru;
using namespace std::chrono_literals;

namespace {

class Harness {
 public:
  // Sends one line; returns what handle() returned.
  bool send(const std::string& line) { return session.handle(line); }

  // Every line written so far, and forgets them.
  std::vector<std::string> take() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    out.swap(lines_);
    return out;
  }
  // Waits for a line starting with prefix; returns the lines up to and including it.
  std::vector<std::string> wait_for(const std::string& prefix,
                                    std::chrono::milliseconds timeout = 20s) {
    std::unique_lock lock(mutex_);
    std::size_t at = 0;
    const bool found = cv_.wait_for(lock, timeout, [&] {
      for (; at < lines_.size(); ++at)
        if (lines_[at].rfind(prefix, 0) == 0) return true;
      return false;
    });
    if (!found) FAIL("no line starting with '" << prefix << "'");
    std::vector<std::string> out(lines_.begin(), lines_.begin() + static_cast<long>(at) + 1);
    lines_.erase(lines_.begin(), lines_.begin() + static_cast<long>(at) + 1);
    return out;
  }
  std::string done(std::chrono::milliseconds timeout = 20s) {
    return wait_for("done", timeout).back();
  }
  std::size_t count(const std::string& prefix) {
    std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& l : lines_) n += l.rfind(prefix, 0) == 0;
    return n;
  }

  Engine engine;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;

 public:
  hub::Session session{engine, [this](const std::string& line) {
                         std::lock_guard lock(mutex_);
                         lines_.push_back(line);
                         cv_.notify_all();
                       }};
};

std::vector<std::string> one(const std::string& line) {
  return {line};
}

}  // namespace

TEST_CASE("hub session: handshake, init, ping", "[hub][session]") {
  Harness h;
  REQUIRE(h.send("hub"));
  CHECK(h.take() == test::hub_handshake());
  h.send("init");
  CHECK(h.take() == one("ready"));
  h.send("ping");
  CHECK(h.take() == one("pong"));
  CHECK(h.send("new-game"));
  CHECK(h.take().empty());
  CHECK_FALSE(h.send("quit"));
}

TEST_CASE("hub session: set-param, light at once, heavy at the next init or go", "[hub][session]") {
  Harness h;
  const EngineOptions before = h.engine.options();
  // Light parameters reach the engine at once; values arrive unquoted (pydraughts).
  h.send("set-param name=seed value=77");
  h.send("set-param name=level value=medium");
  h.send("set-param name=book value=false");
  h.send("set-param name=book-ply value=12");
  h.send("set-param name=book-margin value=5");
  h.send("set-param name=threads value=4");
  h.send("set-param name=ponder value=true");
  CHECK(h.take().empty());
  CHECK(h.engine.options().seed == 77);
  CHECK(h.engine.options().level == Level::Medium);
  CHECK_FALSE(h.engine.options().book);
  CHECK(h.engine.options().book_ply == 12);
  CHECK(h.engine.options().book_margin == 5);
  CHECK(h.engine.options().threads == 4);
  CHECK(h.session.settings().ponder);

  // Heavy ones wait for init.
  h.send("set-param name=tt-size value=12");
  h.send("set-param name=variant value=english");
  CHECK(h.take().empty());
  CHECK(h.engine.options().tt_log2 == before.tt_log2);
  CHECK(h.session.variant() == Variant::International);
  h.send("hub");
  const auto lines = h.take();
  CHECK(std::find(lines.begin(), lines.end(),
                  "param name=variant value=english type=enum values=\"" +
                      std::string(variant_names()) + " " + std::string(variant_alias_names()) +
                      " frysk frysk!\"") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(),
                  "param name=notation value=pydraughts type=enum values=\"pydraughts tsuru\"") !=
        lines.end());
  CHECK(std::find(lines.begin(), lines.end(),
                  "param name=tt-size value=12 type=int min=10 max=26") != lines.end());
  h.send("init");
  CHECK(h.take() == one("ready"));
  CHECK(h.engine.options().tt_log2 == 12);
  CHECK(h.session.variant() == Variant::English);
  CHECK(h.session.game().position() == start_position(Variant::English));

  // `normal` is Scan's name for international; a heavy change also lands at go.
  h.send("set-param name=variant value=normal");
  h.send("level depth=1");
  h.send("go think");
  const std::string done = h.done();
  CHECK(h.session.variant() == Variant::International);
  CHECK(done.rfind("done move=", 0) == 0);
}

TEST_CASE("hub session: set-param errors", "[hub][session]") {
  Harness h;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"set-param value=1", "error message=\"missing name\""},
      {"set-param name=seed", "error message=\"missing value\""},
      {"set-param name=hash value=64", "error message=\"unknown parameter\" name=hash"},
      {"set-param name=book value=yes", "error message=\"bad value\" name=book"},
      {"set-param name=ponder value=1", "error message=\"bad value\" name=ponder"},
      {"set-param name=tt-size value=9", "error message=\"bad value\" name=tt-size"},
      {"set-param name=tt-size value=27", "error message=\"bad value\" name=tt-size"},
      {"set-param name=threads value=0", "error message=\"bad value\" name=threads"},
      {"set-param name=seed value=-1", "error message=\"bad value\" name=seed"},
      {"set-param name=seed value=12x", "error message=\"bad value\" name=seed"},
      {"set-param name=book-ply value=99999999999999999999",
       "error message=\"bad value\" name=book-ply"},
      {"set-param name=variant value=chess", "error message=\"bad value\" name=variant"},
      {"set-param name=variant value=English", "error message=\"bad value\" name=variant"},
      {"set-param name=level value=expert", "error message=\"bad value\" name=level"},
      {"set-param name=notation value=hub", "error message=\"bad value\" name=notation"},
      {"set-param name=notation value=PDN", "error message=\"bad value\" name=notation"},
  };
  const EngineOptions before = h.engine.options();
  for (const auto& [line, reply] : cases) {
    INFO(line);
    CHECK(h.send(line));
    CHECK(h.take() == one(reply));
  }
  // Nothing changed.
  CHECK(h.engine.options().seed == before.seed);
  CHECK(h.engine.options().book == before.book);
  CHECK(h.session.settings().engine.tt_log2 == before.tt_log2);
  CHECK(h.session.settings().variant == Variant::International);
}

TEST_CASE("hub session: pos forms, history, draw counters", "[hub][session]") {
  Harness h;
  const Variant v = Variant::International;
  h.send("pos");
  CHECK(h.session.game().position() == start_position(v));
  h.send("pos start moves=\"32-28 19-23 28x19 14x23\"");
  CHECK(h.take().empty());
  CHECK(h.session.game().moves().size() == 4);
  const Position after4 = h.session.game().position();

  // pos= with a Hub string, and the same as a PDN FEN.
  const std::string hub_text = hub::format_position(v, after4);
  h.send("pos pos=" + hub_text);
  CHECK(h.session.game().position() == after4);
  CHECK(h.session.game().moves().empty());
  h.send("pos pos=" + notation::format_fen(v, after4));
  CHECK(h.session.game().position() == after4);
  h.send("pos pos=W:W31-50:B1-20 moves=\"\"");
  CHECK(h.session.game().position() == start_position(v));
  CHECK(h.take().empty());

  // The history feeds repetition and the move counters: kings shuffling back and forth.
  h.send("pos pos=W:WK36:BK15 moves=\"36-31 15-10 31-36 10-15 36-31 15-10 31-36 10-15\"");
  CHECK(h.take().empty());
  CHECK(h.session.game().repetitions() == 3);
  CHECK(h.session.game().result().outcome == Outcome::Draw);
  CHECK(h.session.game().draw_state().reversible == 8);
}

TEST_CASE("hub session: a bad pos leaves no position to search", "[hub][session]") {
  Harness h;
  h.send("set-param name=book value=false");
  h.send("pos moves=\"32-28 19-23\"");
  const Game before = h.session.game();
  h.send("level depth=3");
  const SearchLimits limits = h.session.limits();
  REQUIRE(limits.depth == 3);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"pos pos=Wbbb", "error message=\"bad position\" detail=\"a position has 51 characters\""},
      {"pos pos=W:W31:B",
       "error message=\"bad position\" detail=\"the side that just moved "
       "(black) has no pieces\""},
      {"pos moves=\"32-28 19-23 28-22\"", "error message=\"illegal move\" move=28-22"},
      {"pos moves=\"32-28 19-23 28x19 14x23 ab\"", "error message=\"bad move\" move=ab"},
      {"pos moves=\"32-28 19-23 28-\"", "error message=\"bad move\" move=28-"},
      {"pos pos=W:WK47:B14,19,29,31,42 moves=47x36", "error message=\"ambiguous move\" move=47x36"},
      {"pos pos=\"\"", "error message=\"bad position\" detail=\"a position has 51 characters\""},
  };
  for (const auto& [line, reply] : cases) {
    INFO(line);
    // A good position first, so that a stale one would be there to answer from.
    h.send("pos moves=\"32-28 19-23\"");
    h.send("level depth=3");
    CHECK(h.take().empty());
    h.send(line);
    CHECK(h.take() == one(reply));
    // The limits stay; go has nothing to search: an error and a bare done, no move.
    CHECK(h.session.limits().depth == 3);
    h.send("go think");
    CHECK(h.wait_for("done") ==
          std::vector<std::string>{
              "error message=\"no position\" detail=\"the last pos was rejected\"", "done"});
    // Still nothing after another go, whatever its mode.
    h.send("go analyze");
    CHECK(h.wait_for("done").back() == "done");
  }
  // A good pos gives a position back (and resets the limits).
  h.send("pos moves=\"32-28 19-23\"");
  CHECK(h.session.game().position() == before.position());
  CHECK(h.session.limits().depth == 0);
  CHECK(h.session.limits().unlimited());
  h.send("level depth=2");
  h.send("go think");
  CHECK(h.done().rfind("done move=", 0) == 0);
  // So does new-game (the start position).
  h.send("pos pos=Wbbb");
  h.take();
  h.send("new-game");
  h.send("level depth=2");
  h.send("go think");
  const std::string after_new = h.done();
  REQUIRE(after_new.rfind("done move=", 0) == 0);
  CHECK(hub::parse_move(Variant::International, start_position(Variant::International),
                        after_new.substr(10, after_new.find(' ', 10) - 10))
            .ok());
}

TEST_CASE("hub session: go needs exactly one of think, ponder, analyze", "[hub][session]") {
  Harness h;
  h.send("pos");
  h.send("level depth=2");
  for (const char* bad : {"go", "go bogus", "go think=1", "go think ponder", "go depth=3"}) {
    INFO(bad);
    h.send(bad);
    // An error and no search: no info, no done.
    CHECK(h.take() == one("error message=\"bad argument\" detail=\"go takes one of think, "
                          "ponder, analyze\""));
    h.send("ping");
    CHECK(h.take() == one("pong"));
  }
  h.send("go think extra=1");  // other arguments are ignored
  CHECK(h.done().rfind("done move=", 0) == 0);
}

TEST_CASE("hub session: level in every form", "[hub][session]") {
  Harness h;
  auto limits_after = [&](const std::string& level) {
    h.send("pos");
    h.send(level);
    INFO(level);
    CHECK(h.take().empty());
    return h.session.limits();
  };
  CHECK(limits_after("level depth=7").depth == 7);
  CHECK(limits_after("level nodes=123456789012").nodes == 123456789012ULL);
  CHECK(limits_after("level move-time=2.5").move_time == 2.5);
  CHECK(limits_after("level infinite").infinite);
  {
    // The increment is added before the move: up to time + inc may be used.
    const SearchLimits l = limits_after("level time=10 inc=2");
    CHECK(l.time == 12);
    CHECK(l.increment == 2);
    CHECK(l.moves_to_go == 0);
  }
  {
    const SearchLimits l = limits_after("level moves=40 time=300");
    CHECK(l.time == 300);
    CHECK(l.moves_to_go == 40);
    CHECK(l.increment == 0);
  }
  {
    // pydraughts subtracts the increment from its clock: below one increment time < 0.
    const SearchLimits l = limits_after("level time=-0.5 inc=1");
    CHECK(l.time == Approx(0.5));
    CHECK(l.has_clock());
    CHECK(limits_after("level time=0").has_clock());  // a flag about to fall still has a clock
  }
  {
    // Unknown keys are ignored; several forms combine; lines add up until pos.
    h.send("pos");
    h.send("level depth=5 handicap=0 ply=12");
    h.send("level nodes=1000 move-time=1");
    CHECK(h.take().empty());
    const SearchLimits l = h.session.limits();
    CHECK(l.depth == 5);
    CHECK(l.nodes == 1000);
    CHECK(l.move_time == 1);
  }
  // Bad values: an error and no change.
  h.send("pos");
  h.send("level depth=4");
  for (const char* bad :
       {"level depth=x", "level depth=-1", "level depth", "level nodes=-5", "level move-time=-1",
        "level move-time=nan", "level time=inf", "level time=10 inc=-1", "level time=10 moves=1.5",
        "level depth=3s", "level time=1e99"}) {
    INFO(bad);
    h.send(bad);
    CHECK(h.take() == one("error message=\"bad value\""));
    CHECK(h.session.limits().depth == 4);
    CHECK_FALSE(h.session.limits().has_clock());
  }
}

TEST_CASE("hub session: go think, info lines, exactly one done", "[hub][session]") {
  Harness h;
  h.send("set-param name=book value=false");  // a search, not a book move
  h.send("pos");
  h.send("level depth=5");
  h.send("go think");
  const auto lines = h.wait_for("done");
  REQUIRE(lines.size() >= 6);  // an info per completed iteration, then done
  const std::regex info_re(
      R"(info depth=\d+ mean-depth=\d+\.\d score=-?\d+\.\d\d nodes=\d+ time=\d+\.\d{3} nps=\d+\.\d pv=("[0-9x\- ]+"|[0-9x\-]+))");
  int last_depth = 0;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    INFO(lines[i]);
    CHECK(std::regex_match(lines[i], info_re));
    const int depth = std::stoi(lines[i].substr(11));
    CHECK(depth >= last_depth);
    last_depth = depth;
  }
  CHECK(last_depth == 5);
  const std::regex done_re(R"(done move=[0-9x\-]+ ponder=[0-9x\-]+)");
  CHECK(std::regex_match(lines.back(), done_re));
  // The move is legal at the start.
  const std::string move = lines.back().substr(10, lines.back().find(' ', 10) - 10);
  CHECK(hub::parse_move(Variant::International, start_position(Variant::International), move).ok());
  h.send("ping");
  CHECK(h.take() == one("pong"));  // no second done
}

TEST_CASE("hub session: book moves come at once, marked, and the book parameters apply",
          "[hub][session][book]") {
  // A one-position book for the international start: 32-28 scored best.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("tsuru_hub_book_" + std::to_string(getpid()) + ".book"))
                               .string();
  const Position start = start_position(Variant::International);
  std::vector<book::Record> records;
  for (const Move& m : legal_moves(Variant::International, start))
    records.push_back(
        {start.key(), m,
         static_cast<std::int16_t>(hub::format_move(Variant::International, m) == "32-28" ? 40 : 0),
         10});
  REQUIRE(book::write_file(Variant::International, path, records).ok());
  Harness h;
  h.send("set-param name=book-file value=/nonexistent/x.book");
  CHECK(h.take() == one("error message=\"bad value\" name=book-file"));
  h.send("set-param name=book-file value=\"" + path + "\"");
  CHECK(h.take().empty());
  h.send("pos");
  h.send("level depth=6");
  h.send("go think");
  const auto lines = h.wait_for("done");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].find("pv=32-28 book=true") != std::string::npos);
  CHECK(lines[1] == "done move=32-28");
  // go analyze never uses the book.
  h.send("go analyze");
  const auto analysed = h.wait_for("done");
  CHECK(analysed.size() > 2);
  CHECK(analysed.front().find("book=true") == std::string::npos);
  // book-ply 0: past the book.
  h.send("set-param name=book-ply value=0");
  h.send("go think");
  CHECK(h.wait_for("done").front().find("book=true") == std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("hub session: a single legal move is played at once, analyze still searches",
          "[hub][session]") {
  Harness h;
  // White man 28 must capture 23 (landing on 19), and then Black has nothing left.
  h.send("pos pos=W:W28:B23,5");
  h.send("level depth=3");
  h.send("go think");
  CHECK(h.wait_for("done") == one("done move=28x19x23"));
  h.send("pos pos=W:W28:B23");
  h.send("level depth=3");
  h.send("go analyze");
  const auto lines = h.wait_for("done");
  REQUIRE(lines.size() >= 2);
  // A forced win in one ply: 100.00 - 0.01.
  CHECK(lines.front().find(" score=99.99 ") != std::string::npos);
  CHECK(lines.back() == "done move=28x19x23");
}

TEST_CASE("hub session: no legal move gives a bare done", "[hub][session]") {
  Harness h;
  // White to move has no piece left.
  h.send("pos pos=W:W:B23");
  CHECK(h.take().empty());
  h.send("go think");
  CHECK(h.wait_for("done") == one("done"));
  // Blocked: the white man on 46 cannot move, black men on 41 and 37 stop it.
  h.send("pos pos=W:W46:B41,37");
  h.send("go analyze");
  CHECK(h.wait_for("done") == one("done"));
}

TEST_CASE("hub session: ping and ponder-hit during a search, other lines end it first",
          "[hub][session]") {
  Harness h;
  h.send("pos");
  h.send("go analyze");  // no limits: runs until stopped
  std::this_thread::sleep_for(50ms);
  h.send("ping");
  h.send("ponder-hit");  // not pondering: ignored
  std::this_thread::sleep_for(20ms);
  CHECK(h.count("pong") == 1);
  CHECK(h.count("done") == 0);
  // A set-param mid-search: the search answers, then the parameter is set.
  h.send("set-param name=seed value=5");
  const auto lines = h.take();
  REQUIRE_FALSE(lines.empty());
  CHECK(lines.back().rfind("done move=", 0) == 0);
  CHECK(h.engine.options().seed == 5);
  CHECK_FALSE(h.engine.searching());

  // An unknown command mid-search: done, then the error.
  h.send("go analyze");
  std::this_thread::sleep_for(20ms);
  h.send("bogus");
  auto after = h.take();
  REQUIRE(after.size() >= 2);
  CHECK(after[after.size() - 2].rfind("done move=", 0) == 0);
  CHECK(after.back() == "error message=\"bad command\"");

  // A new position mid-search: done, then the position is taken.
  h.send("go analyze");
  std::this_thread::sleep_for(20ms);
  h.send("pos moves=32-28");
  after = h.take();
  REQUIRE_FALSE(after.empty());
  CHECK(after.back().rfind("done move=", 0) == 0);
  CHECK(h.session.game().moves().size() == 1);

  // stop, several times (lidraughts): one done, nothing else.
  h.send("go analyze");
  std::this_thread::sleep_for(20ms);
  h.send("stop");
  h.send("stop");
  h.send("stop");
  h.send("ponder-hit");
  after = h.take();
  REQUIRE_FALSE(after.empty());
  CHECK(after.back().rfind("done move=", 0) == 0);
  CHECK(std::count_if(after.begin(), after.end(),
                      [](const std::string& l) { return l.rfind("done", 0) == 0; }) == 1);
  CHECK(std::count_if(after.begin(), after.end(),
                      [](const std::string& l) { return l.rfind("error", 0) == 0; }) == 0);
}

TEST_CASE("hub session: threads=2 searches with two searchers, ping and stop answered",
          "[hub][session][threads]") {
  Harness h;
  h.send("set-param name=threads value=2");
  h.send("init");
  h.send("pos");
  h.send("level depth=7");
  h.send("go analyze");
  const auto lines = h.wait_for("done");
  CHECK(lines.back().rfind("done move=", 0) == 0);
  CHECK(std::count_if(lines.begin(), lines.end(),
                      [](const std::string& l) { return l.rfind("info depth=7 ", 0) == 0; }) >= 1);
  SearchSummary s = h.engine.last_search();
  REQUIRE(s.thread_nodes.size() == 2);
  CHECK(s.thread_nodes[0] > 0);
  CHECK(s.thread_nodes[1] > 0);

  // An endless analysis: ping is answered while both search, stop ends them with one done.
  h.send("pos");
  h.send("go analyze");
  std::this_thread::sleep_for(100ms);
  h.send("ping");
  h.wait_for("pong", 2s);
  CHECK(h.count("done") == 0);
  h.send("stop");
  CHECK(h.done(2s).rfind("done move=", 0) == 0);
  CHECK_FALSE(h.engine.searching());
  s = h.engine.last_search();
  REQUIRE(s.thread_nodes.size() == 2);
  CHECK(s.thread_nodes[1] > 0);
}

TEST_CASE("hub session: multi-pv reports the best k root moves in ranked info lines",
          "[hub][session][multipv]") {
  Harness h;
  h.send("set-param name=multi-pv value=2");
  CHECK(h.engine.options().multi_pv == 2);
  h.send("pos");
  h.send("level depth=4");
  h.send("go analyze");
  const auto lines = h.wait_for("done");
  const std::regex ranked(R"(info depth=4 rank=([12]) mean-depth=\S+ score=\S+ nodes=\d+ )"
                          R"(time=\S+ nps=\S+ pv="(\d+-\d+)[^"]*")");
  std::vector<std::string> ranks, firsts;
  for (const auto& l : lines) {
    std::smatch m;
    if (std::regex_match(l, m, ranked)) {
      ranks.push_back(m[1]);
      firsts.push_back(m[2]);
    }
  }
  REQUIRE(ranks == std::vector<std::string>{"1", "2"});
  CHECK(firsts[0] != firsts[1]);
  CHECK(lines.back() == "done move=" + firsts[0] +
                            " ponder=" + lines.back().substr(lines.back().find("ponder=") + 7));
  // Out of range: refused.
  h.send("set-param name=multi-pv value=0");
  CHECK(h.take() == one("error message=\"bad value\" name=multi-pv"));
  h.send("set-param name=multi-pv value=65");
  CHECK(h.take() == one("error message=\"bad value\" name=multi-pv"));
  // Back to one line: no rank field.
  h.send("set-param name=multi-pv value=1");
  h.send("go analyze");
  for (const auto& l : h.wait_for("done")) CHECK(l.find("rank=") == std::string::npos);
}

TEST_CASE("hub session: go ponder waits for ponder-hit or stop", "[hub][session]") {
  Harness h;
  h.send("pos");
  h.send("level depth=3");
  h.send("go ponder");
  std::this_thread::sleep_for(100ms);  // depth 3 is long done: still no answer while pondering
  CHECK(h.count("done") == 0);
  h.send("ponder-hit");
  CHECK(h.done().rfind("done move=", 0) == 0);

  h.send("pos");
  h.send("level depth=3");
  h.send("go ponder");
  std::this_thread::sleep_for(50ms);
  CHECK(h.count("done") == 0);
  h.send("stop");
  const auto lines = h.take();
  REQUIRE_FALSE(lines.empty());
  CHECK(lines.back().rfind("done move=", 0) == 0);
}

TEST_CASE("hub session: bad lines answer an error and the session goes on", "[hub][session]") {
  Harness h;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "error message=\"missing command\""},
      {"   ", "error message=\"missing command\""},
      {"foo", "error message=\"bad command\""},
      {"HUB", "error message=\"bad command\""},
      {"pos pos=\"Wbbb", "error message=\"unclosed quote\""},
      {"pos moves=", "error message=\"missing value\""},
      {"pos =x", "error message=\"bad argument\""},
      {std::string("go\0\xff\x01", 5), "error message=\"bad character\""},
      {std::string(1 << 20, 'x'), "error message=\"line too long\""},
  };
  for (const auto& [line, reply] : cases) {
    INFO(line.substr(0, 40));
    CHECK(h.send(line));
    CHECK(h.take() == one(reply));
  }
  h.send("ping");
  CHECK(h.take() == one("pong"));
}

TEST_CASE("hub report: scores, info and done lines", "[hub][report]") {
  CHECK(hub::format_score(0) == "0.00");
  CHECK(hub::format_score(25) == "0.25");
  CHECK(hub::format_score(-5) == "-0.05");
  CHECK(hub::format_score(100) == "1.00");
  CHECK(hub::format_score(-130) == "-1.30");
  CHECK(hub::format_score(kWin - 5) == "99.95");
  CHECK(hub::format_score(-(kWin - 5)) == "-99.95");
  CHECK(hub::format_score(kWin - 1) == "99.99");

  const Variant v = Variant::International;
  const Position start = start_position(v);
  SearchInfo info;
  info.depth = 12;
  info.mean_depth = 11.26;
  info.score = 25;
  info.nodes = 1234567;
  info.seconds = 0.512;
  const Move m1 = *hub::parse_move(v, start, "32-28");
  const Move m2 = *hub::parse_move(v, start.after(m1), "19-23");
  info.pv = {m1, m2};
  const auto py = hub::MoveNumbers::Pydraughts, ts = hub::MoveNumbers::Tsuru;
  CHECK(hub::format_line(hub::info_message(v, info, py)) ==
        "info depth=12 mean-depth=11.3 score=0.25 nodes=1234567 time=0.512 nps=2.4 "
        "pv=\"32-28 19-23\"");
  info.pv = {m1};
  info.seconds = 0;
  CHECK(hub::format_line(hub::info_message(v, info, py)) ==
        "info depth=12 mean-depth=11.3 score=0.25 nodes=1234567 time=0.000 nps=0.0 pv=32-28");
  info.pv.clear();
  CHECK(hub::format_line(hub::info_message(v, info, py)).find("pv") == std::string::npos);

  BestMove best;
  CHECK(hub::format_line(hub::done_message(v, start, best, py)) == "done");
  best.has_move = true;
  best.move = m1;
  CHECK(hub::format_line(hub::done_message(v, start, best, py)) == "done move=32-28");
  best.has_ponder = true;
  best.ponder = m2;
  CHECK(hub::format_line(hub::done_message(v, start, best, py)) == "done move=32-28 ponder=19-23");
  best.ponder = m1;  // not a legal reply: left out
  CHECK(hub::format_line(hub::done_message(v, start, best, py)) == "done move=32-28");

  // English: plain PDN numbers by default, the turned-round ones with notation=tsuru; the same
  // for the ponder move.
  const Variant en = Variant::English;
  const Position e = start_position(en);
  const Move e1 = *hub::parse_move(en, e, "11-15");
  const Move e2 = *hub::parse_move(en, e.after(e1), "23-19");
  CHECK(e1 == *hub::parse_move(en, e, "22-18", ts));
  info.pv = {e1};
  CHECK(hub::format_line(hub::info_message(en, info, py)).find(" pv=11-15") != std::string::npos);
  CHECK(hub::format_line(hub::info_message(en, info, ts)).find(" pv=22-18") != std::string::npos);
  best.move = e1;
  best.ponder = e2;
  CHECK(hub::format_line(hub::done_message(en, e, best, py)) == "done move=11-15 ponder=23-19");
  CHECK(hub::format_line(hub::done_message(en, e, best, ts)) == "done move=22-18 ponder=10-14");
}

TEST_CASE("hub session: a change of rule set forgets the table", "[hub][session][antidraughts]") {
  // International and antidraughts share the board and the position keys but not the goal: a
  // table filled by one must not answer for the other. Here antidraughts wins by force with
  // 32-27 (21x32, then 33-28 gives White's last man away), which loses a man in international:
  // a table that answered for the other game would score it as that game does.
  Harness h;
  h.send("set-param name=book value=false");
  const std::string position = "W:W32,33:B17,21";
  h.send("pos pos=" + position);
  h.send("level depth=8");
  h.send("go think");
  const std::string normal = h.done();
  INFO(normal);
  CHECK(normal.rfind("done move=", 0) == 0);
  CHECK(normal.rfind("done move=32-27", 0) != 0);
  h.send("set-param name=variant value=losing");
  h.send("pos pos=" + position);
  h.send("level depth=8");
  h.send("go think");
  const std::string anti = h.done();
  INFO(anti);
  CHECK(anti.rfind("done move=32-27", 0) == 0);
  // And back.
  h.send("set-param name=variant value=normal");
  h.send("pos pos=" + position);
  h.send("level depth=8");
  h.send("go think");
  const std::string again = h.done();
  INFO(again);
  CHECK(again.rfind("done move=", 0) == 0);
  CHECK(again.rfind("done move=32-27", 0) != 0);
}

TEST_CASE("hub session: frysk is Frisian from the Frysk! start", "[hub][session]") {
  Harness h;
  for (const char* name : {"frysk", "frysk!"}) {
    INFO(name);
    h.send(std::string("set-param name=variant value=") + name);
    h.send("new-game");
    CHECK(h.take().empty());
    CHECK(h.session.variant() == Variant::Frisian);
    const Position frysk = *notation::parse_fen(Variant::Frisian, "W:W46-50:B1-5");
    CHECK(h.session.game().position() == frysk);
    h.send("pos moves=\"49-43\"");
    CHECK(h.session.game().start() == frysk);
    h.send("pos start");
    CHECK(h.session.game().position() == frysk);
    h.send("hub");
    const auto lines = h.take();
    CHECK(std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
            return l.rfind("param name=variant value=frysk type=enum", 0) == 0;
          }) != lines.end());
  }
  // Plain Frisian has its own start again.
  h.send("set-param name=variant value=frisian");
  h.send("pos");
  CHECK(h.session.game().position() == start_position(Variant::Frisian));
}
