#include "tools/match/referee.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "tools/match/stats.hpp"

namespace tsuru::match {
namespace {

std::string side_name(Side s) {
  return s == Side::White ? "White" : "Black";
}

Outcome win_for(Side s) {
  return s == Side::White ? Outcome::WhiteWins : Outcome::BlackWins;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

std::string men(int centi) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", centi / 100.0);
  return buf;
}

// The comma-separated numbers of text, exactly count of them, each >= 0; the error, or empty.
std::string parse_numbers(const std::string& text, std::size_t count, std::vector<double>& out) {
  if (const auto bad = split_numbers(text, out)) return "'" + *bad + "' is not a number >= 0";
  for (const double x : out)
    if (!std::isfinite(x) || x < 0 || x > 1e6) {
      char buf[64];
      const auto end = std::to_chars(buf, buf + sizeof buf, x).ptr;  // as written: "-1"
      return "'" + std::string(buf, end) + "' is not a number >= 0";
    }
  if (out.size() != count) return "expected " + std::to_string(count) + " numbers";
  return "";
}

// Whether the last n entries are all scored and all satisfy f.
template <class F>
bool last_all(const std::vector<std::optional<int>>& scores, int n, const F& f) {
  if (n <= 0 || static_cast<int>(scores.size()) < n) return false;
  return std::all_of(scores.end() - n, scores.end(),
                     [&](const std::optional<int>& s) { return s && f(*s); });
}

}  // namespace

std::string parse_draw_adjudication(const std::string& text, Adjudication& out) {
  std::vector<double> x;
  if (std::string e = parse_numbers(text, 3, x); !e.empty()) return "FROM,MOVES,SCORE: " + e;
  if (x[1] < 1 || x[0] != std::floor(x[0]) || x[1] != std::floor(x[1]))
    return "FROM,MOVES,SCORE: FROM and MOVES are whole numbers, MOVES at least 1";
  out.draw_from = static_cast<int>(x[0]);
  out.draw_moves = static_cast<int>(x[1]);
  out.draw_score = static_cast<int>(std::lround(x[2] * 100));
  return "";
}

std::string parse_win_adjudication(const std::string& text, Adjudication& out) {
  std::vector<double> x;
  if (std::string e = parse_numbers(text, 2, x); !e.empty()) return "MOVES,SCORE: " + e;
  if (x[0] < 1 || x[0] != std::floor(x[0]) || x[1] <= 0)
    return "MOVES,SCORE: MOVES a whole number at least 1, SCORE above 0";
  out.win_moves = static_cast<int>(x[0]);
  out.win_score = static_cast<int>(std::lround(x[1] * 100));
  return "";
}

int GameRecord::engine1_result() const {
  if (outcome == Outcome::Draw || outcome == Outcome::Ongoing) return 0;
  return outcome == win_for(engine1_side) ? 1 : -1;
}

GameRecord play_game(Variant v, const Opening& opening, std::array<Player*, 2> players,
                     const RefereeOptions& options) {
  GameRecord record;
  record.opening = opening.name;
  record.game = opening_game(v, opening);
  Game& game = record.game;

  auto forfeit = [&](Side loser, const std::string& why) {
    record.outcome = win_for(opponent(loser));
    record.reason = side_name(loser) + " forfeits: " + why;
  };

  std::array<std::optional<std::string>, 2> failed;
  for (Side s : {Side::White, Side::Black}) {
    const auto i = static_cast<std::size_t>(index(s));
    failed[i] = players[i]->start_game(game, s, players[i]->time_control(options.tc));
    record.names[i] = players[i]->name();
  }
  for (Side s : {Side::White, Side::Black}) {
    const auto& f = failed[static_cast<std::size_t>(index(s))];
    if (!f || !record.setup_error.empty()) continue;
    // Not a game: a game nobody could play is no win for anyone.
    record.setup_error = *f;
    record.setup_side = s;
  }
  if (!record.setup_error.empty()) {
    record.reason = side_name(record.setup_side) + " cannot start: " + record.setup_error;
    for (Player* p : players) p->end_game(game, Outcome::Ongoing);
    return record;
  }

  // One clock per side: each runs under the time control its engine plays by.
  std::array<GameClock, 2> clocks = {GameClock(players[0]->time_control(options.tc)),
                                     GameClock(players[1]->time_control(options.tc))};
  // The engines' scores, ply by ply, from White's side (adjudication).
  const Adjudication& adj = options.adjudication;
  std::vector<std::optional<int>> scores;
  while (record.outcome == Outcome::Ongoing) {
    const GameResult r = game.result();
    if (r.outcome != Outcome::Ongoing) {
      record.outcome = r.outcome;
      record.reason = r.reason == ResultReason::NoLegalMove
                          ? side_name(game.position().turn()) + " has no legal move"
                          : std::string(describe(r.reason));
      break;
    }
    if (static_cast<int>(game.moves().size()) >= 2 * adj.draw_from &&
        last_all(scores, 2 * adj.draw_moves,
                 [&](int s) { return std::abs(s) <= adj.draw_score; })) {
      record.outcome = Outcome::Draw;
      record.reason = "adjudicated: both engines scored within +-" + men(adj.draw_score) + " for " +
                      std::to_string(adj.draw_moves) + " moves";
      break;
    }
    for (Side s : {Side::White, Side::Black}) {
      const int sign = s == Side::White ? 1 : -1;
      if (last_all(scores, 2 * adj.win_moves, [&](int x) { return sign * x >= adj.win_score; })) {
        record.outcome = win_for(s);
        record.reason = "adjudicated: both engines scored " + side_name(s) + " " +
                        men(adj.win_score) + " or more ahead for " + std::to_string(adj.win_moves) +
                        " moves";
      }
    }
    if (record.outcome != Outcome::Ongoing) break;
    const Side side = game.position().turn();
    Player& player = *players[static_cast<std::size_t>(index(side))];
    GameClock& clock = clocks[static_cast<std::size_t>(index(side))];
    const double budget = clock.budget(side);
    const double wait = std::isinf(budget) ? options.depth_timeout : budget + options.margin;
    const auto timeout = std::chrono::milliseconds(static_cast<long long>(wait * 1000) + 1);
    const auto t0 = std::chrono::steady_clock::now();
    const PlayerReply reply = player.get_move(game, clock.limits(side), timeout);
    const double used =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    TimeUse& use = record.time_use[static_cast<std::size_t>(index(side))];
    switch (reply.status) {
      case PlayerReply::Status::Move:
      case PlayerReply::Status::Illegal:
        break;
      case PlayerReply::Status::NoMove:
        forfeit(side, "claims to have no move");
        continue;
      case PlayerReply::Status::Resigned:
        record.outcome = win_for(opponent(side));
        record.reason = side_name(side) + " resigns";
        continue;
      case PlayerReply::Status::Crashed:
        forfeit(side, "engine failure (" + reply.detail + ")");
        continue;
      case PlayerReply::Status::TimedOut:
        forfeit(side, "no move within " + seconds(wait) + " (hung)");
        use.lost_on_time = true;
        continue;
    }
    const bool in_time = clock.charge(side, used, options.margin);
    ++use.moves;
    use.seconds += used;
    use.longest = std::max(use.longest, used);
    if (!in_time) {
      forfeit(side, "lost on time (" + seconds(used) + " used, " + seconds(budget) + " allowed)");
      use.lost_on_time = true;
      continue;
    }
    if (reply.status == PlayerReply::Status::Illegal) {
      forfeit(side, "illegal move '" + reply.text + "' (" + reply.detail + ")");
      continue;
    }
    if (!game.play(reply.move)) {  // a player's parser is not trusted either
      forfeit(side, "illegal move '" + reply.text + "'");
      continue;
    }
    scores.push_back(reply.score
                         ? std::optional<int>(side == Side::White ? *reply.score : -*reply.score)
                         : std::nullopt);
  }
  for (Side s : {Side::White, Side::Black}) {
    const auto i = static_cast<std::size_t>(index(s));
    record.time_use[i].granted = clocks[i].granted(s);
    record.time_use[i].left = clocks[i].left(s);
  }
  for (Player* p : players) p->end_game(game, record.outcome);
  return record;
}

}  // namespace tsuru::match
