// The results of a match or of one shard of it: what `tsuru match --results FILE` writes and
// `tsuru match merge` reads (docs/cluster.md). A text file, one record a line:
//
//   tsuru match results 1
//   run variant=english             the settings every shard of one run shares, in this order:
//   run games=16                    variant, games, limit, openings, seed, engine1, engine2,
//   ...                             param1 and param2 (each repeated as given), sprt when given,
//                                   label1, label2 (the engines' names in the table)
//   shard 1/4
//   game<TAB>5<TAB>white<TAB>1-0<TAB>reason<TAB>opening     engine 1's side, the result (1-0:
//                                   White won, 0-1: Black won, 1/2: a draw), why, the opening
//   end 4 checksum=0123456789abcdef  the games, and FNV-1a (64 bits) of every byte before "end"
//
// A file that is not one, or whose checksum, counts or records do not hold, is refused with the
// reason; so is a merge of files of different runs or of files sharing a game.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/game.hpp"
#include "tools/match/shard.hpp"

namespace tsuru::match {

struct ResultGame {
  int number = 0;  // 1-based, in the whole run's schedule
  Side engine1_side = Side::White;
  Outcome outcome = Outcome::Draw;  // never Ongoing
  std::string reason;
  std::string opening;
  int engine1_result() const;  // +1, 0, -1
};

struct MatchResults {
  // The run's settings, (key, value) in order; keys and values hold no tab or line break.
  std::vector<std::pair<std::string, std::string>> run;
  Shard shard;
  std::vector<ResultGame> games;  // ascending numbers
  // The value of the first setting named key; empty when none.
  std::string setting(std::string_view key) const;
};

std::string format_results(const MatchResults& r);
// `name` is for messages (the file's path).
Expected<MatchResults> parse_results(std::string_view text, const std::string& name);
// Reads and parses a file of at most 256 MiB.
Expected<MatchResults> read_results(const std::string& path);
// Writes through a temporary of a unique name in the same directory, renamed over path: a
// reader never sees half a file. The error message, or empty.
std::string write_results(const std::string& path, const MatchResults& r);
// Whether path may receive results (checked before the games are played): its directory
// exists, and it is not a directory nor an existing file other than a results file. The reason
// when not, or empty.
std::string check_results_output(const std::string& path);

// Joins the results of shards of one run: the same settings (else the first that differs is
// named), no game in two files. The games come out in schedule order; `run` is the first
// file's settings and `shard` is 0/1. Each input is (its name, its results).
Expected<MatchResults> merge_results(const std::vector<std::pair<std::string, MatchResults>>& in);

// Pools several runs of one test: files whose settings differ only in the seed and the number
// of games (a match run again with another seed to go on with its SPRT). The files of each run
// are merged as above; then each run's games are numbered after the runs before it (game g of
// a run becomes g plus the games of the earlier runs, rounded up to even, so that pairs stay
// pairs), in the order the runs are first named. The result's settings are the first run's,
// with games the pooled schedule's length and seed every run's seed, comma-separated. Refused:
// runs of another test (the first setting that differs is named) and a seed given twice.
Expected<MatchResults> pool_results(const std::vector<std::pair<std::string, MatchResults>>& in);

}  // namespace tsuru::match
