#include "tools/play/chinese_console.hpp"

#include <cstdio>
#include <istream>
#include <ostream>
#include <vector>

#include "engine/chinese/notation.hpp"

namespace tsuru::play {

using namespace chinese;
// The draughts names of the same spelling stay outside.
using chinese::BestMove;
using chinese::bit;
using chinese::EngineOptions;
using chinese::Game;
using chinese::legal_moves;
using chinese::Move;
using chinese::MoveList;
using chinese::Outcome;
using chinese::Position;
using chinese::Result;
using chinese::Side;

std::string draw_star(const Position& pos, bool colour) {
  std::string text;
  for (int r = 0; r < kRows; ++r) {
    std::string line;
    std::size_t width = 0;  // printed characters (escape codes excluded)
    for (int i = 0; i < kGeometry.row_length[static_cast<std::size_t>(r)]; ++i) {
      const int p = kGeometry.row_start[static_cast<std::size_t>(r)] + i;
      // Three columns per half point: neighbours in a row stand six apart.
      const int column = (2 * kGeometry.x[static_cast<std::size_t>(p)] + r - 8) * 3 + 50;
      std::string cell = format_point(p);
      std::string shown = cell;
      const bool red = pos.pieces(Side::Red) & bit(p), blue = pos.pieces(Side::Blue) & bit(p);
      if (red || blue) {
        if (colour) {
          shown = (red ? "\x1b[1;37;41m" : "\x1b[1;37;44m") + cell + "\x1b[0m";
        } else {
          cell = (red ? "R" : "B") + cell;
          shown = cell;
        }
      }
      const std::size_t at = static_cast<std::size_t>(column) - (cell.size() > 1 ? 1 : 0);
      if (at > width) {
        line.append(at - width, ' ');
        width = at;
      } else if (width > 0) {
        line += ' ';
        ++width;
      }
      line += shown;
      width += cell.size();
    }
    text += line + '\n';
  }
  text += pos.side_to_move() == Side::Red ? "Red to move\n" : "Blue to move\n";
  return text;
}

namespace {

std::string side_name(Side s) {
  return s == Side::Red ? "Red" : "Blue";
}

// Text typed by the user, safe to echo: control bytes escaped, cut after 80 characters.
std::string printable(const std::string& text) {
  std::string out;
  for (const char c : text.substr(0, 80)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return text.size() > 80 ? out + "..." : out;
}

}  // namespace

int run_chinese_console(const ChinesePlaySettings& settings, std::istream& in, std::ostream& out) {
  chinese::Engine engine;
  EngineOptions options;
  options.level = settings.level;
  options.seed = settings.seed;
  engine.set_options(options);
  Game game(settings.start);
  out << "Chinese checkers, you play " << side_name(settings.human) << " against the "
      << level_name(settings.level) << " level. Red moves up to points 1-10, Blue down to "
      << "112-121. Type moves as 113-104 or 116x103 (or with every landing); moves, undo, quit.\n";
  bool show = true;
  while (game.result().outcome == Outcome::Ongoing) {
    const Position& pos = game.position();
    if (show) out << '\n' << draw_star(pos, settings.colour);
    show = true;
    if (pos.side_to_move() != settings.human) {
      engine.set_position(game);
      const BestMove best = engine.think({});
      if (!best.has_move) break;
      out << "Tsuru plays " << format_move(pos, best.move) << '\n';
      game.play(best.move);
      continue;
    }
    out << "your move> " << std::flush;
    std::string line;
    if (!std::getline(in, line)) return 0;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    show = false;
    if (line == "quit") return 0;
    if (line == "moves") {
      for (const Move& m : legal_moves(pos)) out << format_move(pos, m) << ' ';
      out << '\n';
      continue;
    }
    if (line == "undo") {
      // Back to the human's previous turn: the engine's reply and the human's move.
      if (game.moves().size() >= 2 ||
          (game.moves().size() == 1 && game.start().side_to_move() != settings.human)) {
        game.undo();
        if (game.position().side_to_move() != settings.human) game.undo();
        show = true;
      } else {
        out << "nothing to take back\n";
      }
      continue;
    }
    if (line.size() > 1024) {
      out << "error: line too long\n";
      continue;
    }
    const auto move = parse_move(pos, line);
    if (!move.ok()) {
      out << "error: " << printable(move.error()) << '\n';
      continue;
    }
    game.play(*move);
    show = true;
  }
  out << '\n' << draw_star(game.position(), settings.colour);
  const Result r = game.result();
  out << "game over: " << describe(r.outcome);
  if (r.reason != Reason::None) out << " (" << describe(r.reason) << ")";
  out << '\n';
  return 0;
}

}  // namespace tsuru::play
