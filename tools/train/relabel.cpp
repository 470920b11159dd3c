#include "tools/train/relabel.hpp"

#include <optional>

#include "engine/rules/game.hpp"
#include "engine/rules/types.hpp"
#include "eval/egdb/search_probe.hpp"

namespace tsuru::train {
namespace {

std::int8_t wdl_result(egdb::Wdl w) {
  return w == egdb::Wdl::Win ? 1 : w == egdb::Wdl::Loss ? -1 : 0;
}

// 0 White won, 1 drawn, 2 Black won: a sample's result seen from White.
int white_outcome(std::int8_t result, Side turn) {
  if (result == 0) return 1;
  return (result > 0) == (turn == Side::White) ? 0 : 2;
}

// The sample's side's result when `turn`'s result is r.
std::int8_t for_side(std::int8_t r, Side turn, Side side) {
  return turn == side ? r : static_cast<std::int8_t>(-r);
}

// The databases' verdict with the move-count draw rules as the engine combines them
// (egdb::verdict), the counters fresh at the sample: a kings-only win a counter would cut short
// is a draw, and one without a distance is not known.
std::optional<std::int8_t> probe(const egdb::Database& db, const Sample& s) {
  const Position pos = s.position();
  // verdict() checks this too, but only after a Game is made: most samples have too many pieces.
  if (popcount(pos.occupied()) > db.probe_limit()) return std::nullopt;
  const auto v = with_rules(
      db.variant(), [&]<class R>(R) { return egdb::verdict<R>(db, Game(db.variant(), pos)); });
  if (!v) return std::nullopt;
  return wdl_result(*v);
}

}  // namespace

RelabelStats relabel_with_database(std::vector<Sample>& samples, const egdb::Database& db) {
  RelabelStats st;
  st.samples = samples.size();
  std::size_t begin = 0;
  while (begin < samples.size()) {
    std::size_t end = begin + 1;
    while (end < samples.size() && samples[end].game == samples[begin].game) ++end;
    ++st.games;
    const int played = white_outcome(samples[begin].result, samples[begin].turn);
    // The first position the databases know sets the result of everything before it.
    std::size_t first = end;
    std::int8_t value = 0;
    for (std::size_t i = begin; i < end; ++i)
      if (const auto v = probe(db, samples[i])) {
        first = i;
        value = *v;
        break;
      }
    if (first < end) {
      ++st.games_reached;
      const Side side = samples[first].turn;
      const int exact = white_outcome(value, side);
      ++st.transitions[played][exact];
      if (exact != played) ++st.games_changed;
      auto set = [&](Sample& s, std::int8_t r) {
        if (s.result != r) ++st.samples_changed;
        s.result = r;
      };
      for (std::size_t i = begin; i <= first; ++i)
        set(samples[i], for_side(value, side, samples[i].turn));
      ++st.samples_probed;  // the first, whose probe anchored the game
      // Later positions have at most as many pieces: each is probed; one the databases do not
      // answer (a slice missing) keeps the value of the last one that was.
      Side last_side = side;
      std::int8_t last = value;
      for (std::size_t i = first + 1; i < end; ++i) {
        if (const auto v = probe(db, samples[i])) {
          last = *v;
          last_side = samples[i].turn;
          ++st.samples_probed;
        }
        set(samples[i], for_side(last, last_side, samples[i].turn));
      }
    }
    begin = end;
  }
  return st;
}

}  // namespace tsuru::train
