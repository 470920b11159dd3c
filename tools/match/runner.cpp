#include "tools/match/runner.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <ostream>
#include <thread>

#include "engine/rules/binary_io.hpp"
#include "protocol/pdn.hpp"

namespace tsuru::match {
namespace {

std::string percent(double score) {
  return format_number(100.0 * score) + "%";
}

std::string describe_decision(SprtDecision d) {
  switch (d) {
    case SprtDecision::AcceptH0:
      return "H0 accepted";
    case SprtDecision::AcceptH1:
      return "H1 accepted";
    case SprtDecision::Continue:
      break;
  }
  return "no decision";
}

std::string game_pdn(const MatchConfig& config, const GameRecord& g) {
  pdn::Tags tags;
  tags.event = config.event;
  tags.round = std::to_string(g.number);
  tags.white = g.names[static_cast<std::size_t>(index(Side::White))];
  tags.black = g.names[static_cast<std::size_t>(index(Side::Black))];
  tags.result = g.outcome;
  tags.time_control = config.referee.tc.describe();
  tags.extra = {{"Opening", g.opening}, {"Termination", g.reason}};
  return pdn::write(g.game, tags);
}

}  // namespace

const Opening& scheduled_opening(const MatchConfig& config, int i) {
  return config.openings[static_cast<std::size_t>(i / 2) % config.openings.size()];
}

Side engine1_side(const MatchConfig& config, int i) {
  const Side first = info(config.variant).first_to_move;
  return i % 2 == 0 ? first : opponent(first);
}

std::string result_line(const Tally& t, std::optional<double> llr) {
  const EloEstimate e = estimate_elo(t);
  return "result W=" + std::to_string(t.wins) + " D=" + std::to_string(t.draws) +
         " L=" + std::to_string(t.losses) + " score=" + percent(t.score()) +
         " elo=" + format_number(e.elo) + " ci95=" + format_number(e.margin) +
         (llr ? " llr=" + format_number(*llr, 2) : "");
}

std::vector<GameScore> scores_of(const std::vector<GameRecord>& games) {
  std::vector<GameScore> out;
  out.reserve(games.size());
  for (const GameRecord& g : games) out.push_back({g.number, g.engine1_result()});
  return out;
}

MatchResult run_match(const MatchConfig& config, const PlayerFactory& make_player,
                      std::ostream& out) {
  MatchResult result;
  result.labels = config.labels;
  std::mutex mutex;
  std::atomic<int> next{0};
  std::atomic<bool> stop{false};
  // Each game goes in with one write, or not at all (engine/rules/binary_io.hpp): whatever
  // happens to the match, the file holds whole games only.
  AppendFile pdn;
  if (!config.pdn_file.empty()) {
    if (const auto opened = pdn.open(config.pdn_file, true); !opened) {
      result.pdn_error = opened.error();
      return result;
    }
  }
  int finished = 0;
  std::vector<int> schedule = config.schedule;
  if (schedule.empty())
    for (int i = 0; i < config.games; ++i) schedule.push_back(i);
  const int planned = static_cast<int>(schedule.size());
  int written = 0;

  auto slot = [&]() {
    std::array<std::unique_ptr<Player>, 2> engines;  // engine 1, engine 2
    while (!stop) {
      const int k = next++;
      if (k >= planned) break;
      const int i = schedule[static_cast<std::size_t>(k)];
      for (int e = 0; e < 2; ++e)
        if (!engines[static_cast<std::size_t>(e)] ||
            !engines[static_cast<std::size_t>(e)]->usable())
          engines[static_cast<std::size_t>(e)] = make_player(e + 1);
      const Side side1 = engine1_side(config, i);
      std::array<Player*, 2> by_side{};
      by_side[static_cast<std::size_t>(index(side1))] = engines[0].get();
      by_side[static_cast<std::size_t>(index(opponent(side1)))] = engines[1].get();
      GameRecord record =
          play_game(config.variant, scheduled_opening(config, i), by_side, config.referee);
      record.number = i + 1;
      record.engine1_side = side1;

      std::lock_guard lock(mutex);
      if (!record.setup_error.empty()) {
        const int engine = record.setup_side == side1 ? 1 : 2;
        const std::string name = engines[static_cast<std::size_t>(engine - 1)]->name();
        if (!result.setup_error)
          result.setup_error =
              "engine " + std::to_string(engine) + " (" + name + "): " + record.setup_error;
        out << "game " << record.number << "/" << config.games << " not played: engine " << engine
            << " cannot start: " << record.setup_error << "; the match stops" << std::endl;
        stop = true;
        break;
      }
      if (config.labels_from_engines)
        for (int e = 0; e < 2; ++e)
          result.labels[static_cast<std::size_t>(e)] =
              std::to_string(e + 1) + ": " + engines[static_cast<std::size_t>(e)]->name();
      // The table's names, so that two copies of one engine can be told apart.
      record.names[static_cast<std::size_t>(index(side1))] = result.labels[0];
      record.names[static_cast<std::size_t>(index(opponent(side1)))] = result.labels[1];

      const int r = record.engine1_result();
      (r > 0 ? result.tally.wins : r < 0 ? result.tally.losses : result.tally.draws)++;
      ++finished;
      out << "game " << record.number << "/" << config.games << " "
          << pdn::result_text(config.variant, record.outcome) << " (" << record.reason
          << "), engine 1 " << (side1 == Side::White ? "white" : "black") << ", opening "
          << record.opening << " | after " << finished << ": W=" << result.tally.wins
          << " D=" << result.tally.draws << " L=" << result.tally.losses
          << " score=" << percent(result.tally.score()) << std::endl;
      if (pdn.is_open() && !result.pdn_error) {
        if (const auto w = pdn.append(game_pdn(config, record)); w) {
          ++written;
        } else {
          result.pdn_error =
              w.error() + " (the file holds the " + std::to_string(written) + " games before it)";
          stop = true;
          out << "game " << record.number
              << " cannot be written to the PDN file: " << *result.pdn_error << "; the match stops"
              << std::endl;
        }
      }
      result.games.push_back(std::move(record));
      if (config.on_game) config.on_game(result);
      if (config.sprt && config.sprt_stops && !result.sprt) {
        const SprtDecision d = sprt_decision(tally_pairs(scores_of(result.games)), *config.sprt);
        if (d != SprtDecision::Continue) {
          result.sprt = d;
          stop = true;
          out << "SPRT: " << describe_decision(d) << " after " << finished
              << " games; the match stops when the games in progress end." << std::endl;
        }
      }
    }
  };

  const int slots = std::clamp(config.concurrency, 1, std::max(1, planned));
  std::vector<std::thread> threads;
  for (int k = 1; k < slots; ++k) threads.emplace_back(slot);
  slot();
  for (std::thread& t : threads) t.join();
  std::sort(result.games.begin(), result.games.end(),
            [](const GameRecord& a, const GameRecord& b) { return a.number < b.number; });
  return result;
}

void print_table(const MatchConfig& config, const MatchResult& result, std::ostream& out) {
  const Tally& t = result.tally;
  const Tally mirror{t.losses, t.draws, t.wins};
  char line[256];
  out << '\n';
  std::snprintf(line, sizeof line, "%-40s %6s %6s %6s %6s %7s\n", "engine", "games", "wins",
                "draws", "losses", "score");
  out << line;
  for (int e = 0; e < 2; ++e) {
    const Tally& x = e == 0 ? t : mirror;
    std::string label = result.labels[static_cast<std::size_t>(e)];
    if (label.empty()) label = config.labels[static_cast<std::size_t>(e)];
    if (label.size() > 40) label = label.substr(0, 37) + "...";
    std::snprintf(line, sizeof line, "%-40s %6d %6d %6d %6d %7s\n", label.c_str(), x.games(),
                  x.wins, x.draws, x.losses, percent(x.score()).c_str());
    out << line;
  }
}

std::vector<TimeUse> time_use_of(const std::vector<GameRecord>& games, int engine) {
  std::vector<TimeUse> out;
  out.reserve(games.size());
  for (const GameRecord& g : games) {
    const Side side = engine == 0 ? g.engine1_side : opponent(g.engine1_side);
    out.push_back(g.time_use[static_cast<std::size_t>(index(side))]);
  }
  return out;
}

void print_time_use(const MatchConfig& config, const MatchResult& result, std::ostream& out) {
  char line[256];
  out << "\ntime used (" << config.referee.tc.describe()
      << "; unused: the share of base and increments left at the end of games of " << kLongGameMoves
      << "+ moves)\n";
  std::snprintf(line, sizeof line, "%-40s %6s %8s %8s %8s %7s %5s %11s\n", "engine", "moves",
                "s/move", "max s", "s/game", "unused", "long", "time losses");
  out << line;
  for (int e = 0; e < 2; ++e) {
    const TimeUseSummary t = summarize(time_use_of(result.games, e));
    std::string label = result.labels[static_cast<std::size_t>(e)];
    if (label.empty()) label = config.labels[static_cast<std::size_t>(e)];
    if (label.size() > 40) label = label.substr(0, 37) + "...";
    const std::string unused = t.long_games > 0 ? percent(t.unused_share()) : "-";
    std::snprintf(line, sizeof line, "%-40s %6d %8.3f %8.3f %8.2f %7s %5d %11d\n", label.c_str(),
                  t.moves, t.per_move(), t.longest, t.per_game(), unused.c_str(), t.long_games,
                  t.time_losses);
    out << line;
  }
}

void print_summary(const MatchConfig& config, const MatchResult& result, std::ostream& out) {
  print_table(config, result, out);
  if (config.referee.tc.kind == TimeControl::Kind::Clock) print_time_use(config, result, out);
  const Tally& t = result.tally;
  const EloEstimate e = estimate_elo(t);
  out << "Elo difference (engine 1 - engine 2): " << format_number(e.elo) << " +- "
      << format_number(e.margin) << " (95% confidence interval " << format_number(e.lower) << " .. "
      << format_number(e.upper) << ")\n";
  std::optional<double> llr;
  if (config.sprt) {
    const SprtParams& p = *config.sprt;
    const PairTally pairs = tally_pairs(scores_of(result.games));
    llr = sprt_llr(pairs, p);
    out << "game pairs by engine 1's points (0, 0.5, 1, 1.5, 2): " << pairs.counts[0] << " "
        << pairs.counts[1] << " " << pairs.counts[2] << " " << pairs.counts[3] << " "
        << pairs.counts[4] << " (" << pairs.pairs() << " pairs)\n";
    out << "SPRT elo0=" << format_number(p.elo0) << " elo1=" << format_number(p.elo1)
        << " alpha=" << format_number(p.alpha, 3) << " beta=" << format_number(p.beta, 3)
        << ": LLR " << format_number(*llr, 2) << " (bounds " << format_number(p.lower_bound(), 2)
        << ", " << format_number(p.upper_bound(), 2) << "), "
        << describe_decision(sprt_decision(pairs, p)) << '\n';
  }
  out << result_line(t, llr) << std::endl;
}

}  // namespace tsuru::match
