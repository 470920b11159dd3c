// The match runner's core: statistics against hand-computed values, time controls, openings
// (the built-in ballots against the reference table), the referee with fake engines that
// crash, hang, cheat or dawdle, and the scheduler.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

#include "book/ballots.hpp"
#include "engine/rules/notation.hpp"
#include "tools/match/engine_spec.hpp"
#include "tools/match/openings.hpp"
#include "tools/match/referee.hpp"
#include "tools/match/runner.hpp"
#include "tools/match/stats.hpp"

using namespace tsuru;
using namespace tsuru::match;
using Catch::Detail::Approx;

namespace {

// A fake engine: plays the first legal move, or misbehaves at its `at`-th move of a game.
class FakePlayer : public Player {
 public:
  enum class Fault { None, Crash, Hang, Illegal, Garbage, Slow, Resign, NoStart, NoMove, Bogus };
  explicit FakePlayer(Fault fault = Fault::None, int at = 1, std::string name = "fake")
      : fault_(fault), at_(at), name_(std::move(name)) {}

  std::string name() const override { return name_; }
  std::optional<std::string> start_game(const Game&, Side, const TimeControl&) override {
    moves_ = 0;
    ++games_;
    if (fault_ == Fault::NoStart) return "no engine here";
    return std::nullopt;
  }
  PlayerReply get_move(const Game& game, const MoveLimits& limits,
                       std::chrono::milliseconds timeout) override {
    last_limits = limits;
    PlayerReply r;
    const bool now = ++moves_ == at_;
    const Move first = game.legal_moves()[0];
    r.status = PlayerReply::Status::Move;
    r.move = first;
    r.text = notation::format_move(game.variant(), first);
    if (score) r.score = score(game);
    if (!now) return r;
    switch (fault_) {
      case Fault::None:
      case Fault::NoStart:
        break;
      case Fault::Crash:
        broken_ = true;
        r.status = PlayerReply::Status::Crashed;
        r.detail = "process exited";
        break;
      case Fault::Hang:
        std::this_thread::sleep_for(timeout);
        broken_ = true;
        r.status = PlayerReply::Status::TimedOut;
        break;
      case Fault::Illegal: {
        // Moving an opponent's piece: well-formed, never legal.
        const Position& p = game.position();
        const Square theirs = lsb(p.pieces(opponent(p.turn())));
        const Square empty = lsb(info(game.variant()).board.valid & ~p.occupied());
        r.text = notation::square_number(game.variant(), theirs) + "-" +
                 notation::square_number(game.variant(), empty);
        break;
      }
      case Fault::Garbage:
        r.text = "hello";
        break;
      case Fault::Slow:
        std::this_thread::sleep_for(
            std::chrono::milliseconds(static_cast<long long>((limits.move_time + 0.2) * 1000)));
        break;
      case Fault::Resign:
        r.status = PlayerReply::Status::Resigned;
        break;
      case Fault::NoMove:
        r.status = PlayerReply::Status::NoMove;
        break;
      case Fault::Bogus:  // a player whose own parser let a wrong move through
        r.move = Move{};
        r.text = "0-0";
        return r;
    }
    if (r.status == PlayerReply::Status::Move) {
      const auto m = notation::parse_move(game.variant(), game.position(), r.text);
      if (m) {
        r.move = *m;
      } else {
        r.status = PlayerReply::Status::Illegal;
        r.detail = m.error().message;
      }
    }
    return r;
  }
  void end_game(const Game&, Outcome o) override { last_outcome = o; }
  bool usable() const override { return !broken_; }

  MoveLimits last_limits;
  Outcome last_outcome = Outcome::Ongoing;
  // The score it reports with each move (its own side's view); none when unset.
  std::function<std::optional<int>(const Game&)> score;

 private:
  Fault fault_;
  int at_;
  std::string name_;
  int moves_ = 0;
  int games_ = 0;
  bool broken_ = false;
};

Opening start_opening(Variant v) {
  return {"start", start_position(v), {}};
}

// Every move of the record is legal from its start (the referee let nothing through).
bool replays(const GameRecord& r) {
  Game g(r.game.variant(), r.game.start());
  for (const Move& m : r.game.moves())
    if (!g.play(m)) return false;
  return true;
}

}  // namespace

TEST_CASE("Statistics: score, Elo and its 95% interval, hand-computed", "[match][stats]") {
  // W=10 D=5 L=5: s = 12.5/20 = 0.625; elo = -400 log10(1/0.625 - 1) = -400 log10(0.6)
  // = 88.739; per-game variance (10 * 0.375^2 + 5 * 0.125^2 + 5 * 0.625^2) / 20 = 0.171875;
  // standard error sqrt(0.171875 / 20) = 0.0927025; s +- 1.959964 * se = 0.443306 .. 0.806694,
  // i.e. elo -39.565 .. 248.185, margin (248.185 + 39.565) / 2 = 143.875.
  const Tally t{10, 5, 5};
  CHECK(t.games() == 20);
  CHECK(t.score() == Approx(0.625));
  CHECK(t.variance() == Approx(0.171875));
  const EloEstimate e = estimate_elo(t);
  CHECK(e.elo == Approx(88.7395).epsilon(1e-5));
  CHECK(e.lower == Approx(-39.5648).epsilon(1e-4));
  CHECK(e.upper == Approx(248.1849).epsilon(1e-5));
  CHECK(e.margin == Approx(143.8749).epsilon(1e-5));
  CHECK(result_line(t) == "result W=10 D=5 L=5 score=62.5% elo=88.7 ci95=143.9");

  // Symmetry, the even score, and the unbounded ends.
  CHECK(estimate_elo(Tally{5, 5, 10}).elo == Approx(-88.7395).epsilon(1e-5));
  CHECK(estimate_elo(Tally{3, 4, 3}).elo == Approx(0).margin(1e-9));
  CHECK(elo_of_score(0.75) == Approx(190.8485).epsilon(1e-6));  // -400 log10(1/3)
  CHECK(score_of_elo(elo_of_score(0.3)) == Approx(0.3));
  CHECK(result_line(Tally{4, 0, 0}) == "result W=4 D=0 L=0 score=100.0% elo=inf ci95=inf");
  CHECK(result_line(Tally{0, 0, 2}) == "result W=0 D=0 L=2 score=0.0% elo=-inf ci95=inf");
  CHECK(result_line(Tally{0, 6, 0}) == "result W=0 D=6 L=0 score=50.0% elo=0.0 ci95=0.0");
  CHECK(result_line(Tally{}) == "result W=0 D=0 L=0 score=50.0% elo=0.0 ci95=inf");
}

TEST_CASE("Statistics: SPRT parameters and bounds", "[match][stats]") {
  std::string error;
  const auto p = parse_sprt("0,50,0.05,0.05", error);
  REQUIRE(p.has_value());
  // Bounds ln(0.05 / 0.95) and ln(0.95 / 0.05); the test on game pairs: test_match_shards.cpp.
  CHECK(p->lower_bound() == Approx(-2.944439));
  CHECK(p->upper_bound() == Approx(2.944439));
  for (const char* bad : {"", "0,5", "0,5,0.05", "0,5,0.05,0.05,1", "5,0,0.05,0.05", "0,5,0.6,0.05",
                          "0,5,0,0.05", "a,5,0.05,0.05", "0,,0.05,0.05"}) {
    INFO(bad);
    error.clear();
    CHECK_FALSE(parse_sprt(bad, error).has_value());
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE("Time controls: parsing, clocks, increments, periods", "[match]") {
  std::string error;
  auto tc = TimeControl::parse_clock("60+0.5", error);
  REQUIRE(tc.has_value());
  CHECK(tc->base == 60);
  CHECK(tc->increment == 0.5);
  CHECK(tc->moves == 0);
  CHECK(tc->describe() == "60+0.5");
  tc = TimeControl::parse_clock("40/90", error);
  REQUIRE(tc.has_value());
  CHECK(tc->moves == 40);
  CHECK(tc->base == 90);
  CHECK(tc->describe() == "40/90");
  CHECK(TimeControl::parse_clock("0+1", error).has_value());
  for (const char* bad : {"", "abc", "+1", "10+", "0", "-5+1", "0/10", "x/10", "10+y", "5/"}) {
    INFO(bad);
    CHECK_FALSE(TimeControl::parse_clock(bad, error).has_value());
    CHECK_FALSE(error.empty());
  }
  CHECK(TimeControl::fixed_depth(6).describe() == "depth 6");
  CHECK(TimeControl::fixed_time(0.5).describe() == "0.5s/move");

  // 10 s + 1 s: the increment comes before each move (Hub convention).
  GameClock clock(*TimeControl::parse_clock("10+1", error));
  CHECK(clock.budget(Side::White) == 11);
  CHECK(clock.limits(Side::White).time == 10);
  CHECK(clock.limits(Side::White).increment == 1);
  CHECK(clock.charge(Side::White, 3, 0));
  CHECK(clock.left(Side::White) == 8);
  CHECK(clock.left(Side::Black) == 10);
  CHECK_FALSE(clock.charge(Side::Black, 11.5, 0.4));  // 0.5 s over, margin 0.4
  CHECK(clock.charge(Side::White, 9.3, 0.4));         // 0.3 s over: within the margin

  // Two moves in 10 s: the clock is refilled after every second move.
  GameClock periods(*TimeControl::parse_clock("2/10", error));
  CHECK(periods.limits(Side::White).moves_to_go == 2);
  CHECK(periods.charge(Side::White, 4, 0));
  CHECK(periods.limits(Side::White).moves_to_go == 1);
  CHECK(periods.charge(Side::White, 4, 0));
  CHECK(periods.left(Side::White) == 12);
  CHECK(periods.limits(Side::White).moves_to_go == 2);

  GameClock fixed(TimeControl::fixed_time(0.25));
  CHECK(fixed.budget(Side::Black) == 0.25);
  CHECK(fixed.limits(Side::Black).move_time == 0.25);
  CHECK(fixed.charge(Side::Black, 0.3, 0.1));
  CHECK_FALSE(fixed.charge(Side::Black, 0.4, 0.1));
  GameClock depth(TimeControl::fixed_depth(5));
  CHECK(depth.limits(Side::White).depth == 5);
  CHECK(std::isinf(depth.budget(Side::White)));
}

TEST_CASE("Time use: the clock's grants, and the match summary's arithmetic", "[match][time]") {
  std::string error;
  GameClock clock(*TimeControl::parse_clock("2/10+1", error));
  CHECK(clock.granted(Side::White) == 10);
  clock.charge(Side::White, 3, 0);
  CHECK(clock.granted(Side::White) == 11);
  clock.charge(Side::White, 2, 0);  // the second period's base comes
  CHECK(clock.granted(Side::White) == 22);
  CHECK(clock.left(Side::White) == Approx(clock.granted(Side::White) - 5));
  CHECK(clock.granted(Side::Black) == 10);

  // Three games: a long one with a quarter of the clock left, a long one overstepped, a short
  // one lost on time.
  std::vector<TimeUse> games(3);
  games[0] = {80, 30, 2.5, 40, 10, false};
  games[1] = {60, 45, 4, 40, -1, false};
  games[2] = {20, 9, 1, 20, 1, true};
  const TimeUseSummary t = summarize(games);
  CHECK(t.games == 3);
  CHECK(t.moves == 160);
  CHECK(t.per_move() == Approx(84.0 / 160));
  CHECK(t.longest == 4);
  CHECK(t.per_game() == Approx(28));
  CHECK(t.long_games == 2);
  CHECK(t.unused_share() == Approx((0.25 + 0) / 2));
  CHECK(t.time_losses == 1);
  CHECK(summarize(games, 81).long_games == 0);
  CHECK(summarize(games, 81).unused_share() == 0);
  CHECK(summarize({}).per_move() == 0);
}

TEST_CASE("Time use: the referee times each side's moves under a clock", "[match][time]") {
  FakePlayer white, black;
  RefereeOptions options;
  std::string error;
  options.tc = *TimeControl::parse_clock("5+0.5", error);
  const GameRecord r =
      play_game(Variant::English, start_opening(Variant::English), {&white, &black}, options);
  for (Side s : {Side::White, Side::Black}) {
    const TimeUse& u = r.time_use[static_cast<std::size_t>(index(s))];
    const int plies = static_cast<int>(r.game.moves().size());
    // English: Black moves first.
    CHECK(u.moves == (s == Side::Black ? (plies + 1) / 2 : plies / 2));
    CHECK(u.granted == Approx(5 + 0.5 * u.moves));
    CHECK(u.left == Approx(u.granted - u.seconds));
    CHECK(u.longest <= u.seconds);
    CHECK_FALSE(u.lost_on_time);
  }

  // An engine that oversteps its clock at its third move loses on time, and it is recorded.
  FakePlayer slow(FakePlayer::Fault::Slow, 3), sound;
  options.tc = *TimeControl::parse_clock("0.05", error);
  options.margin = 0.05;
  const GameRecord lost =
      play_game(Variant::English, start_opening(Variant::English), {&slow, &sound}, options);
  REQUIRE(lost.reason.find("lost on time") != std::string::npos);
  const TimeUse& u = lost.time_use[static_cast<std::size_t>(index(Side::White))];
  CHECK(u.lost_on_time);
  CHECK(u.moves == 3);
  CHECK(u.longest >= 0.2);
  CHECK(u.left < 0);
  CHECK_FALSE(lost.time_use[static_cast<std::size_t>(index(Side::Black))].lost_on_time);

  // The match table says it per engine.
  MatchConfig config;
  config.referee = options;
  MatchResult result;
  result.labels = {"1: slow", "2: sound"};
  GameRecord g = lost;
  g.engine1_side = Side::White;
  result.games = {g};
  CHECK(time_use_of(result.games, 0)[0].lost_on_time);
  CHECK_FALSE(time_use_of(result.games, 1)[0].lost_on_time);
  std::ostringstream table;
  print_summary(config, result, table);
  INFO(table.str());
  CHECK(table.str().find("time used (0.05;") != std::string::npos);
  CHECK(std::regex_search(table.str(), std::regex(R"(1: slow +3 +\d+\.\d{3} .* 1\n)")));
  // No time table under a fixed move time.
  config.referee.tc = TimeControl::fixed_time(0.1);
  std::ostringstream fixed;
  print_summary(config, result, fixed);
  CHECK(fixed.str().find("time used") == std::string::npos);
}

TEST_CASE("Openings: the built-in ballots are the reference deck's standard ballots",
          "[match][openings]") {
  // tests/data/ballots-english-3move.tsv: id, moves, FEN after the moves, status.
  std::ifstream in(std::string(TSURU_TEST_DATA) + "/ballots-english-3move.tsv");
  REQUIRE(in);
  struct Row {
    std::string moves, fen;
  };
  std::map<int, Row> standard;
  int lost = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.starts_with("id\t")) continue;
    std::istringstream f(line);
    std::string id, moves, fen, status;
    std::getline(f, id, '\t');
    std::getline(f, moves, '\t');
    std::getline(f, fen, '\t');
    std::getline(f, status, '\t');
    if (status == "standard")
      standard[std::stoi(id)] = {moves, fen};
    else
      ++lost;
  }
  CHECK(standard.size() == 157);
  CHECK(lost == 17);

  // The match plays the built-in deck's standard ballots (book/ballots.hpp).
  int built_in = 0;
  for (const book::Ballot& b : book::english_ballots()) {
    if (!b.standard) continue;
    ++built_in;
    INFO(b.id);
    const int number = std::stoi(std::string(b.id));
    REQUIRE(standard.count(number) == 1);
    CHECK(b.moves == standard[number].moves);
  }
  REQUIRE(built_in == 157);
  const auto openings = ballot_openings(Variant::English, 1);
  REQUIRE(openings.ok());
  REQUIRE(openings->size() == 157);
  std::set<int> seen;
  for (const Opening& o : *openings) {
    INFO(o.name);
    const int number = std::stoi(o.name.substr(7, 3));
    seen.insert(number);
    CHECK(o.moves.size() == 3);
    CHECK(o.start == start_position(Variant::English));
    const auto fen = notation::parse_fen(Variant::English, standard[number].fen);
    REQUIRE(fen.ok());
    CHECK(opening_game(Variant::English, o).position() == *fen);
  }
  CHECK(seen.size() == 157);

  // The seed orders the deck: reproducible, and different for another seed.
  const auto again = ballot_openings(Variant::English, 1);
  const auto other = ballot_openings(Variant::English, 2);
  REQUIRE(again.ok());
  REQUIRE(other.ok());
  CHECK((*again)[0].name == (*openings)[0].name);
  bool differs = false;
  for (std::size_t i = 0; i < 157; ++i) differs |= (*other)[i].name != (*openings)[i].name;
  CHECK(differs);

  const auto intl = load_openings(Variant::International, "ballots", 1, 10);
  REQUIRE_FALSE(intl.ok());
  CHECK(intl.error().find("English") != std::string::npos);
}

TEST_CASE("Openings: random lines and position files", "[match][openings]") {
  for (Variant v : {Variant::English, Variant::International}) {
    const auto a = load_openings(v, "random:6", 42, 5);
    REQUIRE(a.ok());
    REQUIRE(a->size() == 5);
    for (const Opening& o : *a) {
      CHECK(o.moves.size() == 6);
      CHECK(opening_game(v, o).moves().size() == 6);  // every move legal
      CHECK(opening_game(v, o).result().outcome == Outcome::Ongoing);
    }
    const auto b = load_openings(v, "random:6", 42, 5);
    REQUIRE(b.ok());
    const auto c = load_openings(v, "random:6", 43, 5);
    REQUIRE(c.ok());
    bool same = true, differs = false;
    for (std::size_t i = 0; i < 5; ++i) {
      same &= (*a)[i].moves == (*b)[i].moves;
      differs |= (*a)[i].moves != (*c)[i].moves;
    }
    CHECK(same);
    CHECK(differs);
  }
  CHECK(load_openings(Variant::English, "random:0", 1, 2)->front().moves.empty());
  for (const char* bad : {"random:", "random:x", "random:-1", "random:999", "no/such/file"})
    CHECK_FALSE(load_openings(Variant::English, bad, 1, 2).ok());

  std::istringstream file(
      "# openings\n\nB:W18,21-32:B1-10,12,15\n[Event \"x\"]\n[FEN \"W:W18,21-32:B1-10,12,15\"]\n"
      "  Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww  \n");
  const auto ok = read_opening_file(Variant::English, file, "f.txt");
  REQUIRE(ok.ok());
  REQUIRE(ok->size() == 3);
  CHECK((*ok)[0].name == "f.txt:3");
  CHECK((*ok)[1].start.turn() == Side::White);
  CHECK((*ok)[2].start == start_position(Variant::English));

  std::istringstream bad_line("B:W21-32:B1-12\nW:W99:B1\n");
  const auto bad = read_opening_file(Variant::English, bad_line, "g.txt");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().starts_with("g.txt:2: "));
  std::istringstream empty("# nothing\n");
  CHECK_FALSE(read_opening_file(Variant::English, empty, "e.txt").ok());
  std::istringstream over("B:W31,32:B28\n");  // Black to move is blocked
  const auto finished = read_opening_file(Variant::English, over, "o.txt");
  REQUIRE_FALSE(finished.ok());
  CHECK(finished.error().find("already over") != std::string::npos);
}

TEST_CASE("Referee: a normal game ends by the rules, every move checked", "[match][referee]") {
  for (Variant v : {Variant::English, Variant::International}) {
    FakePlayer white, black;
    RefereeOptions options;
    options.tc = TimeControl::fixed_depth(3);
    const GameRecord r = play_game(v, start_opening(v), {&white, &black}, options);
    INFO(r.reason);
    CHECK(r.outcome != Outcome::Ongoing);
    CHECK(r.outcome == r.game.result().outcome);
    CHECK_FALSE(r.reason.empty());
    CHECK(replays(r));
    CHECK(white.last_outcome == r.outcome);
    CHECK(black.last_outcome == r.outcome);
    CHECK(white.last_limits.depth == 3);
  }
}

TEST_CASE("Referee: adjudication by both engines' scores", "[match][referee]") {
  const Variant v = Variant::International;  // no game of first moves ends within 40 plies
  const auto plies = [](const GameRecord& r) { return static_cast<int>(r.game.moves().size()); };
  RefereeOptions options;
  options.tc = TimeControl::fixed_depth(3);
  const auto constant = [](int s) { return [s](const Game&) { return std::optional<int>(s); }; };
  FakePlayer white, black;

  SECTION("off by default: the game ends by the rules") {
    white.score = black.score = constant(0);
    const GameRecord r = play_game(v, start_opening(v), {&white, &black}, options);
    CHECK(r.reason.find("adjudicated") == std::string::npos);
    CHECK(r.outcome == r.game.result().outcome);
  }
  SECTION("a draw: from move 10, 4 moves each within 0.10") {
    REQUIRE(parse_draw_adjudication("10,4,0.1", options.adjudication).empty());
    CHECK(options.adjudication.draw_score == 10);
    white.score = constant(10);
    black.score = constant(-7);
    const GameRecord r = play_game(v, start_opening(v), {&white, &black}, options);
    CHECK(r.outcome == Outcome::Draw);
    CHECK(r.reason == "adjudicated: both engines scored within +-0.10 for 4 moves");
    CHECK(plies(r) == 20);  // move 10 reached; the 8 plies before it all in the window
    CHECK(white.last_outcome == Outcome::Draw);
    CHECK(replays(r));
  }
  SECTION("a draw needs every ply of the run in the window, and scored") {
    REQUIRE(parse_draw_adjudication("0,3,0.1", options.adjudication).empty());
    white.score = constant(0);
    // Black's engine scores 0.50 until its 10th move (ply 19), then 0.
    black.score = [](const Game& g) {
      const int ply = static_cast<int>(g.moves().size());
      return ply < 19 ? std::optional<int>(50) : std::optional<int>(0);
    };
    const GameRecord r = play_game(v, start_opening(v), {&white, &black}, options);
    CHECK(r.outcome == Outcome::Draw);
    CHECK(plies(r) == 24);  // Black's zeros from ply 19 on: plies 18-23 the first run of 6
    FakePlayer silent_white, silent_black;
    silent_white.score = constant(0);  // Black reports nothing: never adjudicated
    const GameRecord n = play_game(v, start_opening(v), {&silent_white, &silent_black}, options);
    CHECK(n.reason.find("adjudicated") == std::string::npos);
  }
  SECTION("a win: both engines agree for 3 moves") {
    REQUIRE(parse_win_adjudication("3,5", options.adjudication).empty());
    CHECK(options.adjudication.win_score == 500);
    white.score = constant(-600);  // White's engine sees itself lost
    black.score = constant(500);   // and Black's sees itself winning
    const GameRecord r = play_game(v, start_opening(v), {&white, &black}, options);
    CHECK(r.outcome == Outcome::BlackWins);
    CHECK(r.reason == "adjudicated: both engines scored Black 5.00 or more ahead for 3 moves");
    CHECK(plies(r) == 6);
    // Both claiming the win: no agreement, no adjudication.
    FakePlayer w2, b2;
    w2.score = b2.score = constant(900);
    const GameRecord n = play_game(v, start_opening(v), {&w2, &b2}, options);
    CHECK(n.reason.find("adjudicated") == std::string::npos);
  }
  SECTION("bad settings are refused with the reason") {
    Adjudication a;
    CHECK(parse_draw_adjudication("10,4", a).find("expected 3 numbers") != std::string::npos);
    CHECK(parse_draw_adjudication("10,0,0.1", a).find("MOVES at least 1") != std::string::npos);
    CHECK(parse_draw_adjudication("10,x,0.1", a).find("'x' is not a number") != std::string::npos);
    CHECK(parse_draw_adjudication("1.5,4,0.1", a).find("whole numbers") != std::string::npos);
    CHECK(parse_win_adjudication("3,0", a).find("SCORE above 0") != std::string::npos);
    CHECK(parse_win_adjudication("3,-1", a).find("is not a number >= 0") != std::string::npos);
    CHECK(a.draw_moves == 0);
    CHECK(a.win_moves == 0);
  }
}

TEST_CASE("Referee: a failing engine loses the game", "[match][referee]") {
  using F = FakePlayer::Fault;
  struct Case {
    F fault;
    std::string reason;
  };
  const Case cases[] = {
      {F::Crash, "forfeits: engine failure (process exited)"},
      {F::Hang, "forfeits: no move within"},
      {F::Illegal, "forfeits: illegal move '"},
      {F::Garbage, "forfeits: illegal move 'hello'"},
      {F::Slow, "forfeits: lost on time"},
      {F::Resign, "White resigns"},
      {F::NoMove, "forfeits: claims to have no move"},
      {F::Bogus, "forfeits: illegal move '0-0'"},
  };
  for (const Case& c : cases) {
    INFO(c.reason);
    // White misbehaves at its third move (English: Black moves first).
    FakePlayer white(c.fault, 3), black;
    RefereeOptions options;
    options.tc = TimeControl::fixed_time(0.05);
    options.margin = 0.05;
    const GameRecord r =
        play_game(Variant::English, start_opening(Variant::English), {&white, &black}, options);
    CHECK(r.outcome == Outcome::BlackWins);
    CHECK(r.reason.find(c.reason) != std::string::npos);
    CHECK(r.setup_error.empty());
    CHECK(r.game.moves().size() == 5);  // B W B W B, then White fails
    CHECK(replays(r));
  }
  // The other colour too.
  FakePlayer white, black(F::Illegal, 1);
  const GameRecord r = play_game(Variant::International, start_opening(Variant::International),
                                 {&white, &black}, {});
  CHECK(r.outcome == Outcome::WhiteWins);
  CHECK(r.reason.starts_with("Black forfeits: illegal move '"));
}

TEST_CASE("Referee: an engine that cannot start is a setup error, not a game", "[match][referee]") {
  // Either colour: no outcome, no moves, and the engine that did start hears the game is off.
  for (Side failing : {Side::White, Side::Black}) {
    FakePlayer broken(FakePlayer::Fault::NoStart), sound;
    sound.last_outcome = Outcome::Draw;
    std::array<Player*, 2> players{};
    players[static_cast<std::size_t>(index(failing))] = &broken;
    players[static_cast<std::size_t>(index(opponent(failing)))] = &sound;
    const GameRecord r =
        play_game(Variant::English, start_opening(Variant::English), players, RefereeOptions{});
    CHECK(r.outcome == Outcome::Ongoing);
    CHECK(r.setup_error == "no engine here");
    CHECK(r.setup_side == failing);
    CHECK(r.reason.find("forfeits") == std::string::npos);
    CHECK(r.game.moves().empty());
    CHECK(sound.last_outcome == Outcome::Ongoing);
  }
}

TEST_CASE("Scheduler: a setup error stops the match and counts nowhere", "[match][runner]") {
  MatchConfig config;
  config.variant = Variant::English;
  config.games = 6;
  config.referee.tc = TimeControl::fixed_depth(2);
  config.openings = *ballot_openings(Variant::English, 3);
  config.labels_from_engines = true;
  // Engine 2 plays its first game, then cannot start another (a follower that never comes
  // back); engine 1 is sound.
  int made2 = 0;
  const PlayerFactory factory = [&](int engine) -> std::unique_ptr<Player> {
    if (engine == 1) return std::make_unique<FakePlayer>(FakePlayer::Fault::None, 1, "one");
    ++made2;
    return std::make_unique<FakePlayer>(
        made2 == 1 ? FakePlayer::Fault::Crash : FakePlayer::Fault::NoStart, 1, "two");
  };
  std::ostringstream progress;
  const MatchResult result = run_match(config, factory, progress);
  INFO(progress.str());
  REQUIRE(result.setup_error.has_value());
  CHECK(*result.setup_error == "engine 2 (two): no engine here");
  // The one game played (engine 2 crashed in it) counts; the one that could not start does not.
  CHECK(result.games.size() == 1);
  CHECK(result.tally.games() == 1);
  CHECK(result.tally.wins == 1);
  CHECK(progress.str().find("game 2/6 not played: engine 2 cannot start: no engine here") !=
        std::string::npos);
  CHECK(progress.str().find("game 3/") == std::string::npos);
  // The engines' own names label the table and the games.
  CHECK(result.labels[0] == "1: one");
  CHECK(result.labels[1] == "2: two");
  CHECK(result.games[0].names[static_cast<std::size_t>(index(result.games[0].engine1_side))] ==
        "1: one");
}

TEST_CASE("Scheduler: both colours per opening, concurrency, failed engines replaced, PDN",
          "[match][runner]") {
  MatchConfig config;
  config.variant = Variant::English;
  config.games = 8;
  config.concurrency = 3;
  config.referee.tc = TimeControl::fixed_depth(2);
  config.openings = *ballot_openings(Variant::English, 5);
  config.pdn_file = "tsuru_match_test.pdn";
  CHECK(engine1_side(config, 0) == Side::Black);  // English: Black moves first
  CHECK(engine1_side(config, 1) == Side::White);
  CHECK(&scheduled_opening(config, 0) == &scheduled_opening(config, 1));
  CHECK(&scheduled_opening(config, 2) != &scheduled_opening(config, 1));

  // Engine 2 crashes at its second move of every game; engine 1 plays on.
  std::atomic<int> made[2] = {0, 0};
  const PlayerFactory factory = [&](int engine) -> std::unique_ptr<Player> {
    ++made[engine - 1];
    if (engine == 1) return std::make_unique<FakePlayer>(FakePlayer::Fault::None, 1, "one");
    return std::make_unique<FakePlayer>(FakePlayer::Fault::Crash, 2, "two");
  };
  std::ostringstream progress;
  const MatchResult result = run_match(config, factory, progress);
  INFO(progress.str());
  CHECK(result.tally.wins == 8);
  CHECK(result.tally.games() == 8);
  REQUIRE(result.games.size() == 8);
  for (int i = 0; i < 8; ++i) {
    const GameRecord& g = result.games[static_cast<std::size_t>(i)];
    CHECK(g.number == i + 1);
    CHECK(g.engine1_side == engine1_side(config, i));
    CHECK(g.opening == scheduled_opening(config, i).name);
    CHECK(g.names[static_cast<std::size_t>(index(g.engine1_side))] == "engine 1");
    CHECK(g.names[static_cast<std::size_t>(index(opponent(g.engine1_side)))] == "engine 2");
    CHECK(g.game.moves().size() >= 3);  // the ballot was played first
  }
  CHECK(made[0] <= 3);  // one engine 1 per slot
  CHECK(made[1] == 8);  // a fresh engine 2 after every crash
  const std::string lines = progress.str();
  CHECK(std::count(lines.begin(), lines.end(), '\n') == 8);
  CHECK(progress.str().find("W=8 D=0 L=0 score=100.0%") != std::string::npos);

  std::ifstream pdn(config.pdn_file);
  std::stringstream text;
  text << pdn.rdbuf();
  std::size_t events = 0;
  for (std::size_t at = text.str().find("[Event "); at != std::string::npos;
       at = text.str().find("[Event ", at + 1))
    ++events;
  CHECK(events == 8);
  CHECK(text.str().find("[Termination \"White forfeits: engine failure") != std::string::npos);
  CHECK(text.str().find("[Opening \"ballot ") != std::string::npos);
  std::remove(config.pdn_file.c_str());

  std::ostringstream summary;
  print_summary(config, result, summary);
  CHECK(summary.str().find("result W=8 D=0 L=0 score=100.0% elo=inf ci95=inf") !=
        std::string::npos);
}

TEST_CASE("Scheduler: the SPRT stops a decided match early", "[match][runner]") {
  MatchConfig config;
  config.variant = Variant::International;
  config.games = 400;
  config.concurrency = 2;
  config.openings = {start_opening(Variant::International)};
  std::string error;
  config.sprt = parse_sprt("0,50,0.05,0.05", error);
  // Engine 2 resigns at once: every game is a win for engine 1.
  const PlayerFactory factory = [](int engine) -> std::unique_ptr<Player> {
    if (engine == 1) return std::make_unique<FakePlayer>();
    return std::make_unique<FakePlayer>(FakePlayer::Fault::Resign, 1);
  };
  std::ostringstream progress;
  const MatchResult result = run_match(config, factory, progress);
  REQUIRE(result.sprt.has_value());
  CHECK(*result.sprt == SprtDecision::AcceptH1);
  CHECK(result.tally.losses == 0);
  CHECK(result.tally.games() < 40);
  CHECK(progress.str().find("SPRT: H1 accepted") != std::string::npos);
  std::ostringstream summary;
  print_summary(config, result, summary);
  CHECK(summary.str().find("H1 accepted") != std::string::npos);
}

TEST_CASE("Engine specs and parameters on the command line", "[match]") {
  const auto hub = parse_engine_spec("hub:build/tsuru hub --log x");
  REQUIRE(hub.ok());
  CHECK(hub->kind == EngineSpec::Kind::Hub);
  CHECK(hub->command == "build/tsuru hub --log x");
  const auto dxp = parse_engine_spec("dxp:localhost:27531");
  REQUIRE(dxp.ok());
  CHECK(dxp->kind == EngineSpec::Kind::Dxp);
  CHECK(dxp->host == "localhost");
  CHECK(dxp->port == 27531);
  const auto v6 = parse_engine_spec("dxp:[::1]:27531");
  REQUIRE(v6.ok());
  CHECK(v6->host == "::1");
  for (const char* bad : {"", "hub:", "hub:  ", "dxp:", "dxp:host", "dxp:host:", "dxp::27531",
                          "dxp:host:0", "dxp:host:65536", "dxp:host:12x", "uci:stockfish"}) {
    INFO(bad);
    CHECK_FALSE(parse_engine_spec(bad).ok());
  }
  const auto p = parse_param("level=hard");
  REQUIRE(p.ok());
  CHECK(p->first == "level");
  CHECK(p->second == "hard");
  const auto empty_value = parse_param("book-file=");
  REQUIRE(empty_value.ok());
  CHECK(empty_value->second.empty());
  CHECK(parse_param("a=b=c")->second == "b=c");
  CHECK_FALSE(parse_param("level").ok());
  CHECK_FALSE(parse_param("=hard").ok());
}
