#include "protocol/pdn.hpp"

#include <chrono>
#include <ctime>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::pdn {
namespace {

std::string today() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
  return buf;
}

std::string tag(const std::string& name, const std::string& value) {
  std::string escaped;
  for (char c : value) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return "[" + name + " \"" + escaped + "\"]\n";
}

}  // namespace

std::string result_text(Variant v, Outcome o) {
  const bool ten = info(v).board.rows == 10;  // FMJD usage on 10x10 boards only
  switch (o) {
    case Outcome::WhiteWins:
      return ten ? "2-0" : "1-0";
    case Outcome::BlackWins:
      return ten ? "0-2" : "0-1";
    case Outcome::Draw:
      return ten ? "1-1" : "1/2-1/2";
    case Outcome::Ongoing:
      break;
  }
  return "*";
}

std::string write(const Game& game, const Tags& tags) {
  const Variant v = game.variant();
  std::string out;
  out += tag("Event", tags.event);
  out += tag("Site", tags.site);
  out += tag("Date", tags.date.empty() ? today() : tags.date);
  out += tag("Round", tags.round);
  out += tag("White", tags.white);
  out += tag("Black", tags.black);
  out += tag("Result", result_text(v, tags.result));
  out += tag("GameType", std::to_string(info(v).pdn_game_type));
  if (!(game.start() == start_position(v))) {
    out += tag("SetUp", "1");
    out += tag("FEN", notation::format_fen(v, game.start()));
  }
  if (!tags.time_control.empty()) out += tag("TimeControl", tags.time_control);
  for (const auto& [name, value] : tags.extra) out += tag(name, value);
  out += '\n';

  // Movetext: move numbers count full moves from the start position; a game that starts with
  // the second player to move opens with "1...".
  std::string line;
  auto emit = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > 79) {
      out += line + '\n';
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += token;
  };
  const Side first = info(v).first_to_move;
  const auto positions = game.positions();
  const auto moves = game.moves();
  int number = 1;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Position& before = positions[i];
    const bool first_player = before.turn() == first;
    if (first_player) {
      emit(std::to_string(number) + ".");
    } else if (i == 0) {
      emit(std::to_string(number) + "...");
    }
    emit(notation::format_move_pdn(v, before, moves[i]));
    if (!first_player) ++number;
  }
  emit(result_text(v, tags.result));
  out += line + "\n\n";
  return out;
}

}  // namespace tsuru::pdn
