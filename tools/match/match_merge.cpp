// tsuru match merge [--pool] FILE...: the results of a match's shards
// (tools/match/results_file.hpp) as the report one run playing all their games prints: the table,
// the Elo line, the game pairs and the SPRT when the run had one, and the result line. With --pool,
// the files may be runs of one test with other seeds (a gate run again to go on with its SPRT),
// pooled as one run.
#include <algorithm>
#include <iostream>
#include <stdexcept>

#include <boost/program_options.hpp>

#include "tools/commands.hpp"
#include "tools/match/results_file.hpp"
#include "tools/match/runner.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {

int run_match_merge(const Args& args) {
  namespace po = boost::program_options;
  std::vector<std::string> inputs;
  po::options_description desc(
      "tsuru match merge: the results files of a match's shards (tsuru match --shard I/N "
      "--results FILE) summed into the report one run playing all their games prints\n"
      "usage: tsuru match merge [--pool] FILE...");
  desc.add_options()("help,h", "show this help")(
      "pool",
      "pool runs of one test that differ in their seed (and number of games): each run's "
      "games numbered after the runs before it")("input", po::value(&inputs)->multitoken(),
                                                 "results files");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  if (!parse_options(args, desc, vm, &positional)) return vm.count("help") ? 0 : 2;
  if (inputs.empty()) {
    std::cerr << "match merge: no results files" << std::endl;
    return 2;
  }
  std::vector<std::pair<std::string, match::MatchResults>> files;
  for (const std::string& path : inputs) {
    auto r = match::read_results(path);
    if (!r) {
      std::cerr << "match merge: " << r.error() << std::endl;
      return 1;
    }
    files.emplace_back(path, std::move(r.value()));
  }
  const bool pool = vm.count("pool") > 0;
  const auto merged = pool ? match::pool_results(files) : match::merge_results(files);
  if (!merged) {
    std::cerr << "match merge: " << merged.error() << std::endl;
    return 1;
  }

  match::MatchConfig config;
  const auto fail = [&](const std::string& why) {
    std::cerr << "match merge: " << inputs[0] << ": " << why << std::endl;
    return 1;
  };
  try {
    config.variant = variant_from_name(merged->setting("variant"));
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  config.games = std::stoi(merged->setting("games"));  // checked when the file was read
  if (const std::string sprt = merged->setting("sprt"); !sprt.empty()) {
    std::string error;
    config.sprt = match::parse_sprt(sprt, error);
    if (!config.sprt) return fail(error);
  }
  match::MatchResult result;
  result.labels = {merged->setting("label1"), merged->setting("label2")};
  config.labels = result.labels;
  for (const match::ResultGame& g : merged->games) {
    match::GameRecord record;
    record.number = g.number;
    record.engine1_side = g.engine1_side;
    record.outcome = g.outcome;
    record.reason = g.reason;
    record.opening = g.opening;
    const int r = g.engine1_result();
    (r > 0 ? result.tally.wins : r < 0 ? result.tally.losses : result.tally.draws)++;
    result.games.push_back(std::move(record));
  }
  std::cout << "match merge: " << files.size() << (files.size() == 1 ? " file" : " files");
  if (pool) {
    const std::string seeds = merged->setting("seed");
    std::cout << " (" << 1 + std::count(seeds.begin(), seeds.end(), ',') << " runs pooled, seeds "
              << seeds << ")";
  }
  std::cout << ", " << result.games.size() << " of " << config.games << " games";
  if (static_cast<int>(result.games.size()) < config.games)
    std::cout << " (" << config.games - static_cast<int>(result.games.size())
              << " not in these files)";
  std::cout << std::endl;
  match::print_summary(config, result, std::cout);
  return 0;
}

}  // namespace tsuru::tools
