#include "tools/book/builder.hpp"

#include <filesystem>
#include <map>
#include <queue>
#include <set>

#include "book/ballots.hpp"
#include "book/book.hpp"
#include "engine/engine.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::book {
namespace {

struct Node {
  double priority;
  int ply;
  Position position;
  friend bool operator>(const Node& a, const Node& b) { return a.priority > b.priority; }
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
    if (std::filesystem::exists(o_.out)) {
      auto existing = read_file(o_.variant, o_.out);
      if (!existing) return Expected<BuildStats>::failure(existing.error());
      for (const Record& r : existing.value()) book_[r.key].push_back(r);
    }
    push(start_position(o_.variant), 0, 0.0);
    if (o_.variant == Variant::English && o_.ballots)
      for (const Ballot& b : english_ballots())
        if (b.standard) push(*notation::parse_fen(o_.variant, b.fen), 3, 3.0);

    BuildStats stats;
    while (stats.analysed < o_.positions && !frontier_.empty()) {
      const Node node = frontier_.top();
      frontier_.pop();
      auto known = book_.find(node.position.key());
      if (known == book_.end()) {
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
