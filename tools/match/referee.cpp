#include "tools/match/referee.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

}  // namespace

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
  while (record.outcome == Outcome::Ongoing) {
    const GameResult r = game.result();
    if (r.outcome != Outcome::Ongoing) {
      record.outcome = r.outcome;
      record.reason = r.reason == ResultReason::NoLegalMove
                          ? side_name(game.position().turn()) + " has no legal move"
                          : std::string(describe(r.reason));
      break;
    }
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
    if (!game.play(reply.move))  // a player's parser is not trusted either
      forfeit(side, "illegal move '" + reply.text + "'");
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
