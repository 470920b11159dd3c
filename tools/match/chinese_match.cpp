#include "tools/match/chinese_match.hpp"

#include <ostream>
#include <random>

#include "engine/chinese/notation.hpp"
#include "tools/match/stats.hpp"

namespace tsuru::match {

using namespace chinese;
// The draughts names of the same spelling stay outside.
using chinese::BestMove;
using chinese::EngineOptions;
using chinese::Game;
using chinese::legal_moves;
using chinese::Move;
using chinese::MoveList;
using chinese::Outcome;
using chinese::Position;
using chinese::Result;
using chinese::Side;

ChineseMatchResult run_chinese_match(const ChineseMatchConfig& config, std::ostream& out) {
  ChineseMatchResult result;
  std::mt19937_64 rng(config.seed);
  std::array<chinese::Engine, 2> engines;
  Game opening;
  for (int g = 0; g < config.games; ++g) {
    // A new opening for each pair of games.
    if (g % 2 == 0) {
      opening = Game();
      for (int ply = 0; ply < config.opening_plies; ++ply) {
        const MoveList moves = legal_moves(opening.position());
        opening.play(moves[rng() % moves.size()]);
      }
    }
    const int red = g % 2;  // the engine (0 = first) playing Red
    for (int e = 0; e < 2; ++e) {
      EngineOptions o;
      o.level = config.level[e];
      o.seed = config.seed * 1000 + static_cast<std::uint64_t>(g * 2 + e);
      engines[static_cast<std::size_t>(e)].set_options(o);
      engines[static_cast<std::size_t>(e)].new_game();
    }
    Game game = opening;
    bool capped = false;
    int failed = -1;  // the engine that gave no legal move
    while (game.result().outcome == Outcome::Ongoing) {
      if (config.max_moves > 0 && static_cast<int>(game.moves().size()) >= config.max_moves) {
        capped = true;
        break;
      }
      const int e = (game.position().side_to_move() == Side::Red) == (red == 0) ? 0 : 1;
      chinese::Engine& engine = engines[static_cast<std::size_t>(e)];
      engine.set_position(game);
      const BestMove best = engine.think(config.limits[e]);
      if (!best.has_move || !game.play(best.move)) {
        failed = e;  // never seen: the engine owes a legal move in an ongoing game
        break;
      }
    }
    const Result r = game.result();
    result.plies += static_cast<long long>(game.moves().size());
    int first_score = 1;  // 0 loss, 1 draw, 2 win
    std::string how;
    if (failed >= 0) {
      ++result.failures;
      first_score = failed == 0 ? 0 : 2;
      how = "engine " + std::to_string(failed + 1) + " gave no legal move: it loses";
    } else if (capped) {
      ++result.capped;
      how = "draw (adjudicated: move cap " + std::to_string(config.max_moves) + ")";
    } else if (r.outcome == Outcome::Draw) {
      if (r.reason == Reason::Repetition) ++result.repetitions;
      how = "draw (" + std::string(describe(r.reason)) + ")";
    } else {
      const bool red_won = r.outcome == Outcome::RedWins;
      first_score = red_won == (red == 0) ? 2 : 0;
      how = std::string(describe(r.outcome)) + " (" + std::string(describe(r.reason)) + ")";
    }
    if (first_score == 2) ++result.wins;
    if (first_score == 1) ++result.draws;
    if (first_score == 0) ++result.losses;
    out << "game " << g + 1 << ": Red " << level_name(config.level[red]) << " (" << red + 1
        << "), Blue " << level_name(config.level[1 - red]) << " (" << 2 - red << "): " << how
        << ", " << game.moves().size() << " plies" << std::endl;
  }
  Tally t;
  t.wins = result.wins;
  t.draws = result.draws;
  t.losses = result.losses;
  const EloEstimate elo = estimate_elo(t);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%+.1f +- %.1f", elo.elo, elo.margin);
  out << "result: 1 (" << level_name(config.level[0]) << ") vs 2 (" << level_name(config.level[1])
      << "): +" << result.wins << " =" << result.draws << " -" << result.losses << ", score "
      << t.score() << ", Elo " << buf << "; move cap reached in " << result.capped << " of "
      << config.games << " games, threefold repetitions " << result.repetitions
      << ", no legal move " << result.failures << ", mean length "
      << (config.games ? static_cast<double>(result.plies) / config.games : 0.0) << " plies"
      << std::endl;
  return result;
}

}  // namespace tsuru::match
