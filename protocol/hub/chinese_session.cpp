#include "protocol/hub/chinese_session.hpp"

#include <cctype>
#include <cstdio>

#include "engine/chinese/notation.hpp"
#include "protocol/hub/limits.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/report.hpp"

namespace tsuru::hub {
namespace {

// Digits separated by '-' or 'x': the shape of a move, legal or not.
bool looks_like_move(std::string_view w) {
  if (w.empty() || !std::isdigit(static_cast<unsigned char>(w.front())) ||
      !std::isdigit(static_cast<unsigned char>(w.back())))
    return false;
  for (const char c : w)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-' && c != 'x' && c != 'X')
      return false;
  return true;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace

void ChineseSession::error(const std::string& message, const std::string& name,
                           const std::string& value) const {
  Message m("error");
  m.add("message", message);
  if (!name.empty()) m.add(name, value);
  output_(format_line(m));
}

void ChineseSession::finish_search() {
  engine_.stop();
  engine_.wait();
}

void ChineseSession::handle(const Message& m, const chinese::EngineOptions& options) {
  finish_search();
  engine_.set_options(options);
  const std::string& command = m.command();
  if (command == "init") {
    output_(format_line(Message("ready")));
  } else if (command == "new-game") {
    engine_.new_game();
    game_ = chinese::Game();
    has_position_ = true;
  } else if (command == "pos") {
    on_pos(m);
  } else if (command == "level") {
    if (auto problem = read_level(m, limits_)) error(*problem);
  } else if (command == "go") {
    on_go(m);
  }
  // stop: the search has been stopped above.
}

void ChineseSession::on_pos(const Message& m) {
  chinese::Position start = chinese::Position::start();
  if (const std::string* text = m.value("pos")) {
    auto parsed = chinese::parse_fen(*text);
    if (!parsed.ok()) {
      has_position_ = false;
      return error("bad position", "detail", parsed.error());
    }
    start = *parsed;
  }
  chinese::Game game(start);
  if (const std::string* moves = m.value("moves")) {
    for (std::string_view word : split_words(*moves)) {
      auto move = chinese::parse_move(game.position(), word);
      if (!move.ok() || !game.play(*move)) {
        has_position_ = false;
        return error(looks_like_move(word) ? "illegal move" : "bad move", "move",
                     std::string(word));
      }
    }
  }
  game_ = std::move(game);
  has_position_ = true;
  limits_ = SearchLimits{};
}

void ChineseSession::on_go(const Message& m) {
  int modes = 0;
  for (const Argument& a : m.arguments())
    if (!a.value && (a.name == "think" || a.name == "ponder" || a.name == "analyze")) ++modes;
  if (modes != 1) {
    Message e("error");
    e.add("message", "bad argument").add("detail", "go takes one of think, ponder, analyze");
    return output_(format_line(e));
  }
  if (!has_position_) {
    error("no position", "detail", "the last pos was rejected");
    output_(format_line(Message("done")));
    return;
  }
  SearchLimits limits = limits_;
  // No pondering for this game: a ponder search is an analysis until stopped.
  if (m.has("ponder") || m.has("analyze")) limits.infinite = true;
  engine_.set_position(game_);
  const chinese::Position root = game_.position();
  const Output out = output_;
  engine_.go(
      limits,
      [out, root](const chinese::SearchInfo& info) {
        Message i("info");
        i.add("depth", std::to_string(info.depth));
        i.add("score", format_score(info.score));
        i.add("nodes", std::to_string(info.nodes));
        i.add("time", fixed(info.seconds, 3));
        i.add("nps", fixed(info.nps() / 1e6, 1));
        std::string pv;
        chinese::Position p = root;
        for (const chinese::Move& move : info.pv) {
          if (!pv.empty()) pv += ' ';
          pv += chinese::format_move(p, move);
          p.play(move);
        }
        if (!pv.empty()) i.add("pv", pv);
        out(format_line(i));
      },
      [out, root](const chinese::BestMove& best) {
        Message d("done");
        if (best.has_move) d.add("move", chinese::format_move(root, best.move));
        out(format_line(d));
      });
}

}  // namespace tsuru::hub
