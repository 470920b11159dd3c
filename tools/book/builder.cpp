#include "tools/book/builder.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <queue>
#include <set>
#include <sstream>

#include "book/ballots.hpp"
#include "book/book.hpp"
#include "engine/engine.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::book {
namespace {

// A build's progress file (OUT.build): "tsuru book build 1", then the fingerprint of the
// options, then the number of positions the book held when the build began, one a line.
struct Progress {
  std::uint64_t fingerprint = 0;
  std::size_t base = 0;
};

std::uint64_t fingerprint_of(const BuildOptions& o) {
  std::ostringstream text;
  text << "book build 1 variant=" << info(o.variant).name << " positions=" << o.positions
       << " plies=" << o.max_plies << " depth=" << o.depth << " margin=" << o.expand_margin
       << " drop=" << o.drop_weight << " ballots=" << o.ballots << " tt-size=" << o.tt_log2;
  const std::string s = text.str();
  return fnv1a(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

Expected<Progress> read_progress(const std::string& path) {
  std::ifstream in(path);
  std::string magic;
  Progress p;
  if (!std::getline(in, magic) || magic != "tsuru book build 1" || !(in >> p.fingerprint >> p.base))
    return Expected<Progress>::failure(path + " is not a book build's progress file");
  return p;
}

Expected<bool> write_progress(const std::string& path, const Progress& p) {
  const std::string text =
      "tsuru book build 1\n" + std::to_string(p.fingerprint) + "\n" + std::to_string(p.base) + "\n";
  return write_file_atomically(path,
                               {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

struct Node {
  double priority;
  int ply;
  Position position;
  // Equal priorities go by key: the order of analysis never depends on the order positions were
  // queued in (a resumed build reads the known positions' moves from the file, in another order).
  friend bool operator>(const Node& a, const Node& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.position.key() > b.position.key();
  }
};

class Builder {
 public:
  explicit Builder(const BuildOptions& o) : o_(o) {
    EngineOptions eo;
    eo.tt_log2 = o.tt_log2;
    eo.book = false;
    engine_.set_options(eo);
  }

  Expected<BuildStats> run() {
    using E = Expected<BuildStats>;
    if (std::filesystem::exists(o_.out)) {
      auto existing = read_file(o_.variant, o_.out);
      if (!existing) return E::failure(existing.error());
      for (const Record& r : existing.value()) book_[r.key].push_back(r);
    }
    // A new build notes where it begins; a stopped one takes up from there.
    const std::string progress_path = o_.out + ".build";
    Progress progress{fingerprint_of(o_), book_.size()};
    BuildStats stats;
    if (std::filesystem::exists(progress_path)) {
      const auto before = read_progress(progress_path);
      if (!before) return E::failure(before.error() + ": remove it to start a new build");
      if (before->fingerprint != progress.fingerprint)
        return E::failure(progress_path +
                          " is the progress of a build with other options: run that build "
                          "again to finish it, or remove the file to start a new build");
      if (before->base > book_.size())
        return E::failure(progress_path + " is the progress of a build of a larger book than " +
                          o_.out + ": remove it to start a new build");
      progress = *before;
      stats.resumed = static_cast<int>(book_.size() - progress.base);
      stats.analysed = stats.resumed;
    } else if (const auto written = write_progress(progress_path, progress); !written) {
      return E::failure(written.error());
    }
    push(start_position(o_.variant), 0, 0.0);
    if (o_.variant == Variant::English && o_.ballots)
      for (const Ballot& b : english_ballots())
        if (b.standard) push(*notation::parse_fen(o_.variant, b.fen), 3, 3.0);

    while (stats.analysed < o_.positions && !frontier_.empty()) {
      const Node node = frontier_.top();
      frontier_.pop();
      auto known = book_.find(node.position.key());
      if (known == book_.end()) {
        engine_.new_game();  // a cleared table: the scores depend on the position alone
        known = book_.emplace(node.position.key(), analyse(node.position)).first;
        ++stats.analysed;
        if (o_.progress) o_.progress(stats.analysed, o_.positions);
        if (stats.analysed % 10 == 0) {
          auto saved = save();
          if (!saved) return Expected<BuildStats>::failure(saved.error());
        }
      }
      expand(node, known->second);
    }
    auto saved = save();
    if (!saved) return Expected<BuildStats>::failure(saved.error());
    std::remove(progress_path.c_str());
    stats.positions = book_.size();
    for (const auto& [key, records] : book_) stats.records += records.size();
    return stats;
  }

 private:
  void push(const Position& p, int ply, double priority) {
    if (ply > o_.max_plies || !queued_.insert(p.key()).second) return;
    frontier_.push(Node{priority, ply, p});
  }

  // Scores every legal move by a search of the position it leads to.
  std::vector<Record> analyse(const Position& pos) {
    std::vector<Record> records;
    for (const Move& m : legal_moves(o_.variant, pos)) {
      const Position child = pos.after(m);
      Score score;
      if (legal_moves(o_.variant, child).empty()) {
        score = win_in(1);
      } else {
        engine_.set_position(Game(o_.variant, child));
        SearchLimits limits;
        limits.depth = o_.depth;
        limits.analyze = true;
        engine_.think(limits);
        score = -engine_.last_score();
      }
      records.push_back(Record{pos.key(), m, static_cast<std::int16_t>(score),
                               static_cast<std::uint8_t>(o_.depth)});
    }
    return records;
  }

  void expand(const Node& node, const std::vector<Record>& records) {
    if (records.empty()) return;
    Score best = -kInfinity;
    for (const Record& r : records) best = std::max<Score>(best, r.score);
    for (const Record& r : records) {
      if (r.score < best - o_.expand_margin) continue;
      push(node.position.after(r.move), node.ply + 1,
           node.priority + 1.0 + o_.drop_weight * (best - r.score));
    }
  }

  Expected<bool> save() const {
    std::vector<Record> all;
    for (const auto& [key, records] : book_) all.insert(all.end(), records.begin(), records.end());
    return write_file(o_.variant, o_.out, std::move(all));
  }

  BuildOptions o_;
  Engine engine_;
  std::map<Key, std::vector<Record>> book_;
  std::priority_queue<Node, std::vector<Node>, std::greater<Node>> frontier_;
  std::set<Key> queued_;
};

}  // namespace

Expected<BuildStats> build(const BuildOptions& options) {
  if (options.out.empty()) return Expected<BuildStats>::failure("no output file given");
  return Builder(options).run();
}

}  // namespace tsuru::book
