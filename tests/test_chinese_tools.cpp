// Chinese checkers in the `tsuru` command line: perft, bench, play and match with
// `--variant chinese`, run as the real binary.
#include <catch2/catch.hpp>

#include "engine/chinese/notation.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/match/chinese_match.hpp"
#include "tools/play/chinese_console.hpp"

using tsuru::test::run_tsuru;

namespace {
bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("tsuru perft --variant chinese", "[chinese][perft]") {
  const auto run = run_tsuru({"perft", "--variant", "chinese", "--depth", "3"});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(contains(run.out, "perft depth=3 nodes=4760"));
  const auto from = run_tsuru(
      {"perft", "--variant=chinese", "--fen", "R:R61,28:B51", "--depth", "1", "--divide"});
  CHECK(contains(from.out, "divide move=61x40x15 nodes=1"));
  const auto bad = run_tsuru({"perft", "--variant", "chinese", "--fen", "R:R1,1", "--depth", "1"});
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "point 1 is given twice"));
}

TEST_CASE("tsuru bench --variant chinese repeats its node count", "[chinese][bench]") {
  const auto first = run_tsuru({"bench", "--variant", "chinese", "--depth", "4"});
  const auto second = run_tsuru({"bench", "--variant", "chinese", "--depth", "4"});
  INFO(first.out);
  CHECK(first.code == 0);
  const auto at = first.out.find("bench nodes=");
  REQUIRE(at != std::string::npos);
  CHECK(first.out.substr(at) == second.out.substr(second.out.find("bench nodes=")));
  CHECK(contains(first.out, "total positions=5 depth=4"));
}

TEST_CASE("tsuru play --variant chinese draws the star and takes moves", "[chinese][play]") {
  const auto run = run_tsuru(
      {"play", "--variant", "chinese", "--level", "beginner", "--seed", "1", "--ansi", "off"},
      "moves\n119-50\n113-104\nquit\n");
  INFO(run.out);
  CHECK(run.code == 0);
  CHECK(contains(run.out, "R121"));
  CHECK(contains(run.out, "B1"));
  CHECK(contains(run.out, "116x103"));  // the list of moves
  CHECK(contains(run.out, "error: no legal move from 119 to 50"));
  CHECK(contains(run.out, "R104"));
  CHECK(contains(run.out, "Tsuru plays"));
  // Control bytes are not echoed; an overlong line is refused.
  const auto odd = run_tsuru({"play", "--variant", "chinese", "--ansi", "off"},
                             "1\x1b[2J-2\n" + std::string(2000, '1') + "\nquit\n");
  CHECK(contains(odd.out, "\\x1b"));
  CHECK_FALSE(contains(odd.out, "\x1b[2J"));
  CHECK(contains(odd.out, "error: line too long"));
  const auto won = run_tsuru({"play", "--variant", "chinese", "--ansi", "off", "--fen",
                              "R:R1,2,3,4,5,6,7,8,9,19:B57,58,59,60,61,62,63,64,65,66"},
                             "19-10\n");
  CHECK(contains(won.out, "game over: Red wins (all ten pieces home)"));
}

TEST_CASE("the star drawing marks pieces by colour or letter", "[chinese][play]") {
  const auto start = tsuru::chinese::Position::start();
  const std::string plain = tsuru::play::draw_star(start, false);
  CHECK(contains(plain, "R112"));
  CHECK(contains(plain, " 61 "));
  CHECK_FALSE(contains(plain, "\x1b["));
  const std::string ansi = tsuru::play::draw_star(start, true);
  CHECK(contains(ansi, "\x1b[1;37;41m112\x1b[0m"));
  CHECK(contains(ansi, "\x1b[1;37;44m1\x1b[0m"));
}

TEST_CASE("tsuru match --variant chinese adjudicates the move cap", "[chinese][match]") {
  const auto run = run_tsuru({"match", "--variant", "chinese", "--level1", "medium", "--level2",
                              "beginner", "--games", "2", "--max-moves", "10"});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(contains(run.out, "draw (adjudicated: move cap 10)"));
  CHECK(contains(run.out, "move cap reached in 2 of 2 games"));
  // Without the cap the games end by the rules, the stronger level ahead.
  std::ostringstream out;
  tsuru::match::ChineseMatchConfig config;
  config.level[0] = tsuru::Level::Medium;
  config.level[1] = tsuru::Level::Beginner;
  config.games = 2;
  const auto result = tsuru::match::run_chinese_match(config, out);
  CHECK(result.wins + result.draws + result.losses == 2);
  CHECK(result.capped == 0);
  CHECK(result.failures == 0);
  CHECK(result.wins >= 1);
}
