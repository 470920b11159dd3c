#include "tools/match/results_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

namespace tsuru::match {
namespace {

constexpr std::string_view kMagic = "tsuru match results 1";
constexpr std::uintmax_t kMaxBytes = std::uintmax_t{256} << 20;

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string hex64(std::uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// Tabs, line breaks and other control bytes become spaces: a field stays one field.
std::string clean(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

bool parse_int(std::string_view s, int& out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc{} && p == s.data() + s.size();
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? s.npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// The first setting in which two runs' settings differ, "'key=value' against 'key=value'"
// ("(nothing)" past the end of the shorter).
std::string first_difference(const std::vector<std::pair<std::string, std::string>>& a,
                             const std::vector<std::pair<std::string, std::string>>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const auto at = [&](const auto& x) {
      return i < x.size() ? x[i].first + "=" + x[i].second : std::string("(nothing)");
    };
    if (at(a) != at(b)) return "'" + at(a) + "' against '" + at(b) + "'";
  }
  return "its settings";
}

const char* outcome_text(Outcome o) {
  switch (o) {
    case Outcome::WhiteWins:
      return "1-0";
    case Outcome::BlackWins:
      return "0-1";
    default:
      return "1/2";
  }
}

}  // namespace

int ResultGame::engine1_result() const {
  if (outcome == Outcome::Draw || outcome == Outcome::Ongoing) return 0;
  const bool white_won = outcome == Outcome::WhiteWins;
  return white_won == (engine1_side == Side::White) ? 1 : -1;
}

std::string MatchResults::setting(std::string_view key) const {
  for (const auto& [k, v] : run)
    if (k == key) return v;
  return {};
}

std::string format_results(const MatchResults& r) {
  std::string body = std::string(kMagic) + "\n";
  for (const auto& [k, v] : r.run) body += "run " + clean(k) + "=" + clean(v) + "\n";
  body += "shard " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) + "\n";
  for (const ResultGame& g : r.games)
    body += "game\t" + std::to_string(g.number) + "\t" +
            (g.engine1_side == Side::White ? "white" : "black") + "\t" + outcome_text(g.outcome) +
            "\t" + clean(g.reason) + "\t" + clean(g.opening) + "\n";
  return body + "end " + std::to_string(r.games.size()) + " checksum=" + hex64(fnv1a(body)) + "\n";
}

Expected<MatchResults> parse_results(std::string_view text, const std::string& name) {
  using E = Expected<MatchResults>;
  const auto fail = [&](const std::string& why) { return E::failure(name + ": " + why); };
  if (!text.starts_with(std::string(kMagic) + "\n")) {
    if (text.starts_with("tsuru match results "))
      return fail("a match results file of another version (this program reads '" +
                  std::string(kMagic) + "')");
    return fail("not a match results file (it does not start with '" + std::string(kMagic) + "')");
  }
  // The last line is "end <games> checksum=<hex>"; everything before it is checked.
  if (!text.ends_with("\n")) return fail("truncated (no end line)");
  const std::size_t end_at = text.rfind("\nend ", text.size() - 1);
  if (end_at == std::string_view::npos) return fail("truncated (no end line)");
  const std::string_view body = text.substr(0, end_at + 1);
  const std::string_view end_line = text.substr(end_at + 1, text.size() - end_at - 2);
  const std::vector<std::string_view> end_fields = split(end_line, ' ');
  int count = 0;
  if (end_fields.size() != 3 || !parse_int(end_fields[1], count) ||
      !end_fields[2].starts_with("checksum="))
    return fail("bad end line '" + clean(end_line) + "'");
  if (end_fields[2].substr(9) != hex64(fnv1a(body)))
    return fail("damaged: the checksum does not match the contents");

  MatchResults r;
  bool have_shard = false;
  int line_number = 1;
  std::vector<std::string_view> lines = split(body.substr(kMagic.size() + 1), '\n');
  lines.pop_back();  // after the last '\n'
  for (const std::string_view line : lines) {
    ++line_number;
    const auto bad = [&](const std::string& why) {
      return fail("line " + std::to_string(line_number) + ": " + why);
    };
    if (line.starts_with("run ")) {
      if (have_shard) return bad("a run setting after the shard line");
      const std::string_view kv = line.substr(4);
      const std::size_t eq = kv.find('=');
      if (eq == std::string_view::npos || eq == 0) return bad("expected run KEY=VALUE");
      r.run.emplace_back(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    } else if (line.starts_with("shard ")) {
      const auto s = parse_shard(line.substr(6));
      if (have_shard || !s) return bad("bad shard line");
      r.shard = *s;
      have_shard = true;
    } else if (line.starts_with("game\t")) {
      if (!have_shard) return bad("a game before the shard line");
      const std::vector<std::string_view> f = split(line, '\t');
      ResultGame g;
      if (f.size() != 6 || !parse_int(f[1], g.number) || g.number < 1)
        return bad("bad game record");
      if (f[2] == "white" || f[2] == "black")
        g.engine1_side = f[2] == "white" ? Side::White : Side::Black;
      else
        return bad("bad side '" + std::string(f[2]) + "'");
      if (f[3] == "1-0")
        g.outcome = Outcome::WhiteWins;
      else if (f[3] == "0-1")
        g.outcome = Outcome::BlackWins;
      else if (f[3] == "1/2")
        g.outcome = Outcome::Draw;
      else
        return bad("bad result '" + std::string(f[3]) + "'");
      g.reason = f[4];
      g.opening = f[5];
      if (!r.games.empty() && g.number <= r.games.back().number)
        return bad("game " + std::to_string(g.number) + " out of order");
      r.games.push_back(std::move(g));
    } else {
      return bad("unknown record '" + clean(line.substr(0, 40)) + "'");
    }
  }
  if (!have_shard) return fail("no shard line");
  if (count != static_cast<int>(r.games.size()))
    return fail("the end line counts " + std::to_string(count) + " games, the file holds " +
                std::to_string(r.games.size()));
  // Every game must be one of the shard's (shard.hpp), as the settings give the run's size.
  int games = 0;
  if (!parse_int(r.setting("games"), games) || games < 1) return fail("no run games=N setting");
  const std::vector<int> mine = shard_games(games, r.shard);
  for (const ResultGame& g : r.games)
    if (!std::binary_search(mine.begin(), mine.end(), g.number - 1))
      return fail("game " + std::to_string(g.number) + " is not one of shard " +
                  std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) + "'s");
  return r;
}

Expected<MatchResults> read_results(const std::string& path) {
  using E = Expected<MatchResults>;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return E::failure(path + ": is a directory");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return E::failure(path + ": " + ec.message());
  if (size > kMaxBytes) return E::failure(path + ": too large for a match results file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return E::failure(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_results(text.str(), path);
}

std::string write_results(const std::string& path, const MatchResults& r) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << format_results(r);
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return "cannot write " + tmp;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return "cannot rename " + tmp + " to " + path + ": " + ec.message();
  }
  return {};
}

std::string check_results_output(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return path + " is a directory";
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    return "directory " + parent.string() + " does not exist";
  if (std::filesystem::exists(path, ec)) {
    const auto existing = read_results(path);
    if (!existing && existing.error().find("not a match results file") != std::string::npos)
      return "will not overwrite " + path + ", not a match results file";
  }
  return {};
}

Expected<MatchResults> merge_results(const std::vector<std::pair<std::string, MatchResults>>& in) {
  using E = Expected<MatchResults>;
  if (in.empty()) return E::failure("no results to merge");
  const auto& [first_name, first] = in.front();
  MatchResults out;
  out.run = first.run;
  std::map<int, std::string> owner;  // game number -> the file it came from
  for (const auto& [name, r] : in) {
    if (r.run != first.run)
      return E::failure(name + " is from another run than " + first_name + ": " +
                        first_difference(r.run, first.run));
    for (const ResultGame& g : r.games) {
      const auto [it, fresh] = owner.emplace(g.number, name);
      if (!fresh)
        return E::failure("game " + std::to_string(g.number) + " is in both " + it->second +
                          " and " + name + " (overlapping shards)");
      out.games.push_back(g);
    }
  }
  std::sort(out.games.begin(), out.games.end(),
            [](const ResultGame& a, const ResultGame& b) { return a.number < b.number; });
  return out;
}

Expected<MatchResults> pool_results(const std::vector<std::pair<std::string, MatchResults>>& in) {
  using E = Expected<MatchResults>;
  if (in.empty()) return E::failure("no results to pool");
  // The runs, by their settings, in the order they are first named.
  std::vector<std::vector<std::pair<std::string, MatchResults>>> runs;
  for (const auto& file : in) {
    auto same = std::find_if(runs.begin(), runs.end(), [&](const auto& run) {
      return run.front().second.run == file.second.run;
    });
    if (same == runs.end())
      runs.push_back({file});
    else
      same->push_back(file);
  }
  // The test's settings: all but the seed and the number of games.
  const auto test_of = [](const MatchResults& r) {
    std::vector<std::pair<std::string, std::string>> t;
    for (const auto& kv : r.run)
      if (kv.first != "seed" && kv.first != "games") t.push_back(kv);
    return t;
  };
  const auto& [first_name, first] = in.front();
  const auto test = test_of(first);
  MatchResults out;
  std::string seeds;
  int offset = 0;
  for (const auto& run : runs) {
    const auto& [name, r] = run.front();
    if (const auto t = test_of(r); t != test)
      return E::failure(name + " is from another test than " + first_name + ": " +
                        first_difference(t, test));
    const std::string seed = r.setting("seed");
    for (const auto& earlier : runs) {
      if (&earlier == &run) break;
      if (earlier.front().second.setting("seed") == seed)
        return E::failure(name + " and " + earlier.front().first + " are runs of one seed (" +
                          seed + "): their games would be the same games");
    }
    auto merged = merge_results(run);
    if (!merged) return E::failure(merged.error());
    for (ResultGame g : merged->games) {
      g.number += offset;
      out.games.push_back(std::move(g));
    }
    const int games = std::stoi(r.setting("games"));  // checked when the file was read
    offset += games + games % 2;
    seeds += (seeds.empty() ? "" : ",") + seed;
  }
  out.run = first.run;
  for (auto& [key, value] : out.run) {
    if (key == "games") value = std::to_string(offset);
    if (key == "seed") value = seeds;
  }
  return out;
}

}  // namespace tsuru::match
