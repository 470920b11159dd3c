// Self-play games for training data (`tsuru selfplay`): the engine plays both sides with a node
// or depth limit per move under every draw rule of the rule set, and each quiet position (no
// capture for the side to move) in which it chose a move becomes a Sample with the game's final
// result: not the opening's positions, nor the last one.
//
// Determinism: game g depends only on the options that shape play (rule set, openings, limits,
// seed, randomness, table size) and on g itself. Its random choices come from a generator seeded
// with (seed, g), its transposition table is cleared before it starts, and the node limit counts
// nodes, not time. So a shard (games g = I mod N) and a run on several threads make exactly the
// games a single run would, and merge_runs() joins shards into the single run's samples.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/game.hpp"
#include "engine/search/tt.hpp"
#include "eval/egdb/database.hpp"
#include "eval/pattern_weights.hpp"
#include "tools/train/sample.hpp"

namespace tsuru::train {

struct SelfplayOptions {
  Variant variant = Variant::English;
  // The game g starts as (an opening's moves played; the engine takes over from there), a
  // function of g alone, callable from several threads at once. Unset: every game starts from
  // the rule set's start position. A function rather than a list of games: a run of a million
  // games must not hold a million game records (`tsuru selfplay` keeps the openings' moves).
  std::function<Game(std::uint32_t)> opening;
  std::uint32_t games = 0;  // games of the whole run (all shards together)
  std::uint64_t nodes = 0;  // node limit per move (0 = none)
  int depth = 0;            // depth limit per move (0 = none); one of nodes and depth is needed
  std::uint64_t seed = 1;
  int shard = 0;  // this run plays the games g with g % shards == shard
  int shards = 1;
  int threads = 1;  // games played at once; the output does not depend on it
  // Variety among near-equal moves: in the first random_plies plies after the opening, the best
  // move not chosen by the first search is searched for too, and when it scores within
  // random_margin centi-men of the best, one of the two is played at random.
  int random_plies = 0;
  int random_margin = 0;
  int tt_log2 = 16;  // transposition table entries per game in play, log2
  // The evaluation both sides play (eval/pattern_weights.hpp); null: the classic one. Games of
  // a trained evaluation train the next one.
  std::shared_ptr<const eval::PatternWeights> evaluation;
  // Endgame databases probed by every search (null: none). They shape the games: every shard
  // of a run must see the same set.
  std::shared_ptr<const egdb::Database> egdb;
  // A game still going after this many plies is stopped and counted as a draw; every rule set's
  // draw rules end games far sooner (the English 400-move cap is the longest), so it never is.
  int max_plies = 2000;
  // Games of the shard not to play (unset: none): a resumed run's games already played, whose
  // samples the caller has (tools/train/sample_journal.hpp).
  std::function<bool(std::uint32_t)> skip;
};

struct GameSummary {
  std::uint32_t index = 0;  // global game index
  Outcome outcome = Outcome::Ongoing;
  ResultReason reason = ResultReason::None;
  int plies = 0;             // plies of the whole game, the opening's included
  bool adjudicated = false;  // stopped at max_plies and counted as a draw
  std::size_t samples = 0;
};

struct PlayedGame {
  Game game;  // the whole record, the opening's moves included
  GameSummary summary;
  std::vector<Sample> samples;  // in ply order
};

struct SelfplayProgress {
  std::size_t games_done = 0;
  std::size_t games_total = 0;  // games of this shard
  std::size_t samples = 0;
};

struct SelfplayRun {
  std::vector<GameSummary> games;  // the games finished, by index
  std::vector<Sample> samples;     // by game index, then ply
  bool stopped = false;            // `stop` was set before every game was played
};

// Checks the options (a limit per move, a shard within its count, ...); the reason when bad.
Expected<bool> check_options(const SelfplayOptions& options);

// The global indices of the games a shard plays, in order.
std::vector<std::uint32_t> shard_games(std::uint32_t games, int shard, int shards);

// Plays game `index` with `tt` as its table (cleared first).
PlayedGame play_game(const SelfplayOptions& options, std::uint32_t index, TranspositionTable& tt);

// Plays this shard's games (but those options.skip names) on options.threads threads. on_game
// (when set) is handed each game as it finishes and progress (when set) is called after it,
// from the worker threads, one call at a time. Once *stop is set, or on_game has returned false,
// no new game starts; the games in progress finish and the run holds the games finished.
SelfplayRun play_games(const SelfplayOptions& options,
                       const std::function<void(const SelfplayProgress&)>& progress = {},
                       const std::atomic<bool>* stop = nullptr,
                       const std::function<bool(const PlayedGame&)>& on_game = {});

// Games and their results as a sample set records them (each game's result is in every one of
// its samples); a game without a quiet position leaves no trace.
struct SampleStats {
  std::size_t games = 0;
  std::size_t white_wins = 0;
  std::size_t black_wins = 0;
  std::size_t draws = 0;
};
SampleStats sample_stats(const std::vector<Sample>& samples);

// Joins sample sets of one rule set (shards of a run) into the order a single run writes: by
// game index, then ply. A game found in two inputs is refused (the same shard given twice).
Expected<std::vector<Sample>> merge_runs(std::vector<std::vector<Sample>> parts);

}  // namespace tsuru::train
