// tsuru match: engine against engine, the runner as referee (tools/match/).
#include <algorithm>
#include <csignal>
#include <iostream>
#include <mutex>
#include <stdexcept>

#include <boost/program_options.hpp>

#include "eval/egdb/database.hpp"
#include "tools/chinese_commands.hpp"
#include "tools/commands.hpp"
#include "tools/match/dxp_player.hpp"
#include "tools/match/engine_spec.hpp"
#include "tools/match/hub_player.hpp"
#include "tools/match/results_file.hpp"
#include "tools/match/runner.hpp"
#include "tools/match/shard.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {
namespace {

using match::EngineSpec;

std::vector<std::pair<std::string, std::string>> params_of(const std::vector<std::string>& texts) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& t : texts) {
    auto p = match::parse_param(t);
    if (!p) throw std::runtime_error(p.error());
    out.push_back(*p);
  }
  return out;
}

struct DxpSettings {
  dxp::Layout layout = dxp::Layout::Pydraughts;
  double retry = 5;
};

std::unique_ptr<match::Player> make_player(
    Variant v, const EngineSpec& spec,
    const std::vector<std::pair<std::string, std::string>>& params, const DxpSettings& dxp) {
  if (spec.kind == EngineSpec::Kind::Hub)
    return std::make_unique<match::HubPlayer>(v, match::HubEngineSpec{spec.command, params});
  match::DxpEngineSpec d;
  d.host = spec.host;
  d.port = spec.port;
  d.layout = dxp.layout;
  d.connect_retry = dxp.retry;
  return std::make_unique<match::DxpPlayer>(v, d);
}

// The sets an engine's `id` line named in its data directory; or, when the match gives it
// `egdb-dir` (which the engine reads after its id line), the sets in that directory, surveyed
// here.
std::string databases_of(const match::HubPlayer& hub,
                         const std::vector<std::pair<std::string, std::string>>& params) {
  for (auto it = params.rbegin(); it != params.rend(); ++it)
    if (it->first == "egdb-dir")
      return it->second.empty()
                 ? "none (egdb-dir empty)"
                 : egdb::summary(egdb::survey(it->second)) + " (egdb-dir " + it->second + ")";
  return hub.databases().empty() ? "none" : hub.databases();
}

}  // namespace

int run_match(const Args& args) {
  if (!args.empty() && args[0] == "merge")
    return run_match_merge(Args(args.begin() + 1, args.end()));
  if (wants_chinese(args)) return run_chinese_match(args);
  namespace po = boost::program_options;
  std::string variant_name = "english", openings_spec, tc_text, pdn_file, sprt_text;
  std::string layout_name = "pydraughts", shard_text, results_file, draw_text, win_text;
  DxpSettings dxp_settings;
  std::vector<std::string> engine_texts, param1, param2;
  int games = 2, depth = 0, concurrency = 1;
  double movetime = 0;
  std::uint64_t seed = 1;
  match::MatchConfig config;
  po::options_description desc(
      "tsuru match: engine against engine; the runner is the referee\n"
      "usage: tsuru match --variant V --games N (--movetime S | --tc BASE+INC | --depth D)\n"
      "         --engine SPEC --engine SPEC [--openings ballots|FILE|random:N]\n"
      "         [--concurrency K] [--pdn FILE] [--sprt elo0,elo1,alpha,beta] [--seed S]\n"
      "         [--shard I/N] [--results FILE] [--adjudicate-draw F,M,S] [--adjudicate-win M,S]\n"
      "       tsuru match merge [--pool] FILE...  (the results of a match's shards as one "
      "report; --pool pools runs of one test with other seeds)\n"
      "SPEC: hub:CMD (a Hub engine started with /bin/sh -c CMD) or dxp:HOST:PORT (a DXP\n"
      "engine listening there; the runner is the initiator)");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value(&variant_name)->default_value(variant_name), variant_help().c_str())(
      "games", po::value(&games)->default_value(games), "games to play")(
      "movetime", po::value(&movetime), "seconds per move")(
      "tc", po::value(&tc_text), "clock: BASE+INC or MOVES/BASE+INC, in seconds")(
      "depth", po::value(&depth), "fixed search depth per move")(
      "engine", po::value(&engine_texts), "an engine: hub:CMD or dxp:HOST:PORT (give two)")(
      "param1", po::value(&param1), "name=value: a parameter for engine 1 (Hub set-param)")(
      "param2", po::value(&param2), "name=value: a parameter for engine 2")(
      "openings", po::value(&openings_spec),
      "ballots (English 3-move ballots, the English default), a file of positions (FEN or "
      "Hub, one a line), or random:N (N random plies; the international default is random:4)")(
      "concurrency", po::value(&concurrency)->default_value(concurrency),
      "games played at the same time (each with its own engines)")(
      "pdn", po::value(&pdn_file), "write every game to this PDN file")(
      "sprt", po::value(&sprt_text), "elo0,elo1,alpha,beta: stop when the test decides")(
      "seed", po::value(&seed)->default_value(seed), "orders the ballots, draws random openings")(
      "shard", po::value(&shard_text),
      "play only the I-th of N runs of consecutive game pairs, with the openings and colours "
      "they have in the whole match, and no SPRT stop (the merge decides)")(
      "results", po::value(&results_file),
      "write the games' results to this file as each game ends (for tsuru match merge; a run "
      "stopped part-way leaves the games it finished)")(
      "margin", po::value(&config.referee.margin)->default_value(config.referee.margin),
      "seconds an engine may overstep its time before it loses on time")(
      "timeout",
      po::value(&config.referee.depth_timeout)->default_value(config.referee.depth_timeout),
      "seconds to wait for a move under --depth before the engine counts as hung")(
      "adjudicate-draw", po::value(&draw_text),
      "FROM,MOVES,SCORE: a draw once the game has FROM moves and each engine's last MOVES "
      "scores are within +-SCORE men (e.g. 40,10,0.05)")(
      "adjudicate-win", po::value(&win_text),
      "MOVES,SCORE: a win once each engine's last MOVES scores put one side SCORE men or more "
      "ahead (e.g. 4,5)")("event", po::value(&config.event)->default_value(config.event),
                          "PDN Event tag")(
      "dxp-layout", po::value(&layout_name)->default_value(layout_name),
      "DXP engines: 8x8 and Turkish squares as pydraughts writes them, or tsuru (as `tsuru dxp "
      "--layout`)")("dxp-retry", po::value(&dxp_settings.retry)->default_value(dxp_settings.retry),
                    "DXP engines: seconds to keep trying a refused connection (a follower "
                    "restarting between games)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;

  config.variant = variant_from_name(variant_name);
  const auto layout = dxp::parse_layout(layout_name);
  if (!layout) throw std::runtime_error("unknown --dxp-layout '" + layout_name + "'");
  dxp_settings.layout = *layout;
  if (!(dxp_settings.retry >= 0 && dxp_settings.retry <= 600))
    throw std::runtime_error("--dxp-retry must be 0-600 seconds");
  if (games < 1) throw std::runtime_error("--games must be at least 1");
  config.games = games;
  if (concurrency < 1 || concurrency > 64) throw std::runtime_error("--concurrency must be 1-64");
  config.concurrency = concurrency;
  const int limits = static_cast<int>(vm.count("movetime") + vm.count("tc") + vm.count("depth"));
  if (limits != 1) throw std::runtime_error("give exactly one of --movetime, --tc, --depth");
  if (vm.count("movetime")) {
    if (!(movetime > 0)) throw std::runtime_error("--movetime must be positive");
    config.referee.tc = match::TimeControl::fixed_time(movetime);
  } else if (vm.count("depth")) {
    if (depth < 1 || depth > 100) throw std::runtime_error("--depth must be 1-100");
    config.referee.tc = match::TimeControl::fixed_depth(depth);
  } else {
    std::string error;
    const auto tc = match::TimeControl::parse_clock(tc_text, error);
    if (!tc) throw std::runtime_error(error);
    config.referee.tc = *tc;
  }
  if (!(config.referee.margin >= 0)) throw std::runtime_error("--margin must be >= 0");
  if (vm.count("adjudicate-draw"))
    if (const std::string e =
            match::parse_draw_adjudication(draw_text, config.referee.adjudication);
        !e.empty())
      throw std::runtime_error("--adjudicate-draw " + e);
  if (vm.count("adjudicate-win"))
    if (const std::string e = match::parse_win_adjudication(win_text, config.referee.adjudication);
        !e.empty())
      throw std::runtime_error("--adjudicate-win " + e);
  if (!(config.referee.depth_timeout > 0)) throw std::runtime_error("--timeout must be positive");
  if (engine_texts.size() != 2) throw std::runtime_error("give --engine twice");
  std::array<EngineSpec, 2> specs;
  for (std::size_t i = 0; i < 2; ++i) {
    auto spec = match::parse_engine_spec(engine_texts[i]);
    if (!spec) throw std::runtime_error(spec.error());
    specs[i] = *spec;
  }
  const std::array<std::vector<std::pair<std::string, std::string>>, 2> params = {
      params_of(param1), params_of(param2)};
  for (std::size_t i = 0; i < 2; ++i)
    if (specs[i].kind == EngineSpec::Kind::Dxp && !params[i].empty())
      throw std::runtime_error("--param" + std::to_string(i + 1) +
                               ": DXP engines take no parameters (configure the engine itself)");
  if (vm.count("sprt")) {
    std::string error;
    config.sprt = match::parse_sprt(sprt_text, error);
    if (!config.sprt) throw std::runtime_error(error);
  }
  if (openings_spec.empty())
    openings_spec = config.variant == Variant::English ? "ballots" : "random:4";
  auto openings = match::load_openings(config.variant, openings_spec, seed, (games + 1) / 2);
  if (!openings) throw std::runtime_error(openings.error());
  config.openings = std::move(*openings);
  config.pdn_file = pdn_file;
  std::optional<match::Shard> shard;
  if (vm.count("shard")) {
    shard = match::parse_shard(shard_text);
    if (!shard)
      throw std::runtime_error("bad --shard '" + shard_text + "': expected I/N with 0 <= I < N");
    config.schedule = match::shard_games(games, *shard);
    config.sprt_stops = false;
    if (config.schedule.empty())
      throw std::runtime_error("--shard " + shard_text + ": the shard has no game (" +
                               std::to_string((games + 1) / 2) + " pairs in all)");
  }
  if (!results_file.empty()) {
    if (const std::string bad = match::check_results_output(results_file); !bad.empty())
      throw std::runtime_error("--results: " + bad);
  }

  // A dead engine must not kill the runner: writes to its pipe fail instead (EPIPE).
  std::signal(SIGPIPE, SIG_IGN);

  // Start each engine once before the match, so a wrong command fails at once and clearly. The
  // engines started here play the first games (a DXP follower may take only one connection).
  std::array<std::unique_ptr<match::Player>, 2> first;
  for (std::size_t i = 0; i < 2; ++i) {
    first[i] = make_player(config.variant, specs[i], params[i], dxp_settings);
    std::optional<std::string> error;
    if (auto* hub = dynamic_cast<match::HubPlayer*>(first[i].get())) error = hub->launch();
    if (auto* dxp = dynamic_cast<match::DxpPlayer*>(first[i].get())) error = dxp->launch();
    if (error)
      throw std::runtime_error("engine " + std::to_string(i + 1) + " (" + specs[i].text +
                               "): " + *error);
    config.labels[i] = std::to_string(i + 1) + ": " + first[i]->name();
  }
  config.labels_from_engines = true;
  std::cout << "match: " << config.labels[0] << " vs " << config.labels[1] << ", "
            << info(config.variant).name << ", " << games << " games, "
            << config.referee.tc.describe() << ", openings " << openings_spec << " ("
            << config.openings.size() << "), concurrency " << config.concurrency;
  if (shard)
    std::cout << ", shard " << shard->index << "/" << shard->count << ": games "
              << config.schedule.front() + 1 << "-" << config.schedule.back() + 1;
  std::cout << std::endl;
  // What each Hub engine plays with: the databases change the games.
  for (std::size_t i = 0; i < 2; ++i)
    if (const auto* hub = dynamic_cast<const match::HubPlayer*>(first[i].get()))
      std::cout << "match: engine " << i + 1
                << " endgame databases: " << databases_of(*hub, params[i]) << std::endl;

  std::mutex first_mutex;
  const match::PlayerFactory factory = [&](int engine) {
    const auto e = static_cast<std::size_t>(engine - 1);
    {
      std::lock_guard lock(first_mutex);
      if (first[e]) return std::move(first[e]);
    }
    return make_player(config.variant, specs[e], params[e], dxp_settings);
  };
  // The results file, written again as each game ends: a run stopped part-way (killed, out of
  // time on a cluster) leaves the games it finished, for `tsuru match merge`.
  const auto results_of = [&](const match::MatchResult& result) {
    match::MatchResults r;
    r.run = {{"variant", std::string(info(config.variant).name)},
             {"games", std::to_string(games)},
             {"limit", config.referee.tc.describe()},
             {"openings", openings_spec},
             {"seed", std::to_string(seed)},
             {"margin", match::format_number(config.referee.margin, 3)},
             {"timeout", match::format_number(config.referee.depth_timeout, 3)},
             {"engine1", specs[0].text},
             {"engine2", specs[1].text}};
    // Only when given: the files of runs without adjudication stay as they were.
    if (vm.count("adjudicate-draw")) r.run.emplace_back("adjudicate-draw", draw_text);
    if (vm.count("adjudicate-win")) r.run.emplace_back("adjudicate-win", win_text);
    for (std::size_t e = 0; e < 2; ++e)
      for (const auto& [name, value] : params[e])
        r.run.emplace_back("param" + std::to_string(e + 1), name + "=" + value);
    if (specs[0].kind == EngineSpec::Kind::Dxp || specs[1].kind == EngineSpec::Kind::Dxp)
      r.run.emplace_back("dxp-layout", layout_name);
    if (config.sprt) r.run.emplace_back("sprt", sprt_text);
    r.run.emplace_back("label1", result.labels[0]);
    r.run.emplace_back("label2", result.labels[1]);
    if (shard) r.shard = *shard;
    for (const match::GameRecord& g : result.games)
      r.games.push_back({g.number, g.engine1_side, g.outcome, g.reason, g.opening});
    std::sort(r.games.begin(), r.games.end(),
              [](const auto& a, const auto& b) { return a.number < b.number; });
    return r;
  };
  bool warned = false;
  if (!results_file.empty())
    config.on_game = [&](const match::MatchResult& so_far) {
      if (const std::string error = match::write_results(results_file, results_of(so_far));
          !error.empty() && !warned) {
        warned = true;
        std::cerr << "warning: --results: " << error << " (tried again at the end)" << std::endl;
      }
    };
  const match::MatchResult result = match::run_match(config, factory, std::cout);
  if (result.pdn_error) {
    std::cerr << "error: match stopped after " << result.games.size()
              << " games: PDN file: " << *result.pdn_error << std::endl;
    if (!result.games.empty()) match::print_table(config, result, std::cout);
    return result.games.empty() ? 2 : 1;
  }
  if (result.setup_error) {
    // No result line for a match that could not be played; the games that were are shown.
    std::cerr << "error: match stopped after " << result.games.size()
              << " games: setup error: " << *result.setup_error << std::endl;
    if (!result.games.empty()) match::print_table(config, result, std::cout);
    return 1;
  }
  match::print_summary(config, result, std::cout);
  if (!results_file.empty()) {
    if (const std::string error = match::write_results(results_file, results_of(result));
        !error.empty()) {
      std::cerr << "error: --results: " << error << std::endl;
      return 1;
    }
  }
  return 0;
}

}  // namespace tsuru::tools
