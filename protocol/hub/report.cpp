#include "protocol/hub/report.hpp"

#include <cstdio>

#include "engine/rules/legal.hpp"
#include "protocol/hub/notation.hpp"

namespace tsuru::hub {
namespace {

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace

std::string format_score(Score score) {
  const int magnitude = score < 0 ? -score : score;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%d.%02d", score < 0 ? "-" : "", magnitude / 100,
                magnitude % 100);
  return buf;
}

Message info_message(Variant v, const SearchInfo& info, MoveNumbers n) {
  Message m("info");
  m.add("depth", std::to_string(info.depth));
  if (info.rank > 0) m.add("rank", std::to_string(info.rank));  // multi-pv lines only
  m.add("mean-depth", fixed(info.mean_depth, 1));
  m.add("score", format_score(info.score));
  m.add("nodes", std::to_string(info.nodes));
  m.add("time", fixed(info.seconds, 3));
  m.add("nps", fixed(info.nps() / 1e6, 1));
  if (!info.pv.empty()) {
    std::string pv;
    for (const Move& move : info.pv) {
      if (!pv.empty()) pv += ' ';
      pv += format_move(v, move, n);
    }
    m.add("pv", pv);
  }
  if (info.from_book) m.add("book", "true");  // an extra field; clients ignore unknown ones
  if (info.from_database) m.add("egdb", "true");
  return m;
}

Message done_message(Variant v, const Position& root, const BestMove& best, MoveNumbers n) {
  Message m("done");
  if (!best.has_move) return m;
  m.add("move", format_move(v, best.move, n));
  // The reply is offered only when it is legal after the move (it comes from the PV).
  if (best.has_ponder && legal_moves(v, root.after(best.move)).contains(best.ponder))
    m.add("ponder", format_move(v, best.ponder, n));
  return m;
}

}  // namespace tsuru::hub
