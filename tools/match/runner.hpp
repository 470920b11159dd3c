// The match: games scheduled over the openings (each opening once with each engine moving
// first), played by `concurrency` slots in parallel, each slot with its own pair of engines.
// Prints a progress line as each game finishes, appends every game to the PDN file, may stop
// early on an SPRT decision, and ends with the table and the one-line summary.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tools/match/pairs.hpp"
#include "tools/match/referee.hpp"
#include "tools/match/stats.hpp"

namespace tsuru::match {

struct MatchResult;

struct MatchConfig {
  Variant variant = Variant::English;
  int games = 2;
  RefereeOptions referee;
  std::vector<Opening> openings;  // at least one
  int concurrency = 1;
  std::optional<SprtParams> sprt;
  std::string pdn_file;  // empty: no PDN
  std::string event = "Tsuru match";
  std::array<std::string, 2> labels = {"engine 1", "engine 2"};  // table, progress and PDN
  // Label each engine "N: <its name>" as the engine gives it when a game starts (a DXP engine
  // tells its name only in its GAMEACC), instead of the fixed labels.
  bool labels_from_engines = false;
  // The games of the schedule this run plays (0-based, ascending): a shard of a larger run
  // (tools/match/shard.hpp). Empty: every game.
  std::vector<int> schedule;
  // Whether an SPRT decision stops the match; a shard plays all its games and the merge of the
  // shards' results decides.
  bool sprt_stops = true;
  // Called after each game is counted, with the result so far (its games in the order they
  // ended), under the runner's lock: one call at a time.
  std::function<void(const MatchResult&)> on_game;
};

struct MatchResult {
  Tally tally;                       // engine 1's point of view
  std::vector<GameRecord> games;     // in schedule order
  std::optional<SprtDecision> sprt;  // set when the SPRT stopped the match
  // Set when a game could not start (an engine that cannot be started or reached): the match
  // stopped there, and that game counts nowhere. "engine N (label): why".
  std::optional<std::string> setup_error;
  // Set when the PDN file cannot be opened (no game is played) or a game cannot be written to it
  // (the disk full): the match stopped there, the games in progress finished, and the file ends
  // with the last game written whole.
  std::optional<std::string> pdn_error;
  std::array<std::string, 2> labels;  // the engines' labels as the match ended
};

// A setup error stops the match (the games in progress end first); see MatchResult.
// Game i of the schedule (0-based): its opening and the side engine 1 plays.
const Opening& scheduled_opening(const MatchConfig& config, int i);
Side engine1_side(const MatchConfig& config, int i);

MatchResult run_match(const MatchConfig& config, const PlayerFactory& make_player,
                      std::ostream& out);
// The table of games, wins, draws and losses per engine.
void print_table(const MatchConfig& config, const MatchResult& result, std::ostream& out);
// Engine 1's (engine 0) or engine 2's (engine 1) clock use in each game.
std::vector<TimeUse> time_use_of(const std::vector<GameRecord>& games, int engine);
// Per engine: moves, mean and longest seconds per move, mean seconds per game, the mean share
// of the clock left unused at the end of games of kLongGameMoves moves or more, and losses on
// time (time_use.hpp).
void print_time_use(const MatchConfig& config, const MatchResult& result, std::ostream& out);
// The final table, the time table (a clock match's), the Elo line, the SPRT line (when
// configured) and the summary line.
void print_summary(const MatchConfig& config, const MatchResult& result, std::ostream& out);
// "result W=.. D=.. L=.. score=..% elo=.. ci95=.." and " llr=.." when an LLR is given.
std::string result_line(const Tally& t, std::optional<double> llr = std::nullopt);
// Engine 1's result in each game, for the pair tally.
std::vector<GameScore> scores_of(const std::vector<GameRecord>& games);

}  // namespace tsuru::match
