#include "tests/pdn_check.hpp"

#include <sstream>

#include "engine/rules/game.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::test {
namespace {

// [Name "value"] with \" and \\ escapes; false when the line is no tag pair.
bool parse_tag(const std::string& line, std::pair<std::string, std::string>& out) {
  if (line.size() < 5 || line.front() != '[' || line.back() != ']') return false;
  const std::size_t space = line.find(' ');
  if (space == std::string::npos || space < 2 || line[space + 1] != '"') return false;
  out.first = line.substr(1, space - 1);
  out.second.clear();
  std::size_t i = space + 2;
  for (; i + 1 < line.size() && line[i] != '"'; ++i) {
    if (line[i] == '\\' && i + 2 < line.size()) ++i;
    out.second += line[i];
  }
  return i + 2 == line.size() && line[i] == '"';
}

bool is_result(const std::string& t) {
  return t == "2-0" || t == "0-2" || t == "1-1" || t == "1-0" || t == "0-1" || t == "1/2-1/2" ||
         t == "*";
}

bool is_move_number(const std::string& t) {
  const std::size_t dot = t.find('.');
  if (dot == 0 || dot == std::string::npos) return false;
  for (std::size_t i = 0; i < dot; ++i)
    if (t[i] < '0' || t[i] > '9') return false;
  return t.substr(dot) == "." || t.substr(dot) == "...";
}

std::string result_of(Variant v, Outcome o) {
  const bool ten = info(v).board.rows == 10;
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

}  // namespace

std::string PdnGame::tag(const std::string& name) const {
  for (const auto& [n, value] : tags)
    if (n == name) return value;
  return {};
}

PdnFile read_pdn(const std::string& text) {
  PdnFile file;
  std::istringstream in(text);
  std::string line;
  enum class State { Between, Tags, Moves } state = State::Between;
  PdnGame game;
  int number = 0;
  auto fail = [&](const std::string& why) {
    file.error = "game " + std::to_string(number) + ": " + why;
    return file;
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    switch (state) {
      case State::Between:
        if (line.empty()) continue;
        ++number;
        game = PdnGame{};
        state = State::Tags;
        [[fallthrough]];
      case State::Tags: {
        if (line.empty()) {
          if (game.tags.empty()) return fail("no tags");
          state = State::Moves;
          continue;
        }
        std::pair<std::string, std::string> tag;
        if (!parse_tag(line, tag)) return fail("not a tag pair: '" + line + "'");
        game.tags.push_back(tag);
        continue;
      }
      case State::Moves: {
        if (line.empty()) {
          if (game.tokens.empty() || !is_result(game.tokens.back()))
            return fail("the movetext does not end with a result (cut short?)");
          file.games.push_back(game);
          state = State::Between;
          continue;
        }
        std::istringstream words(line);
        for (std::string w; words >> w;) game.tokens.push_back(w);
        continue;
      }
    }
  }
  if (state != State::Between) return fail("cut short: the file ends inside the game");
  if (!text.empty() && !text.ends_with("\n\n")) return fail("the file does not end after a game");
  return file;
}

std::string check_pdn_game(Variant v, const PdnGame& g) {
  const std::string fen = g.tag("FEN");
  Game game(v);
  if (!fen.empty()) {
    const auto start = notation::parse_fen(v, fen);
    if (!start) return "bad FEN tag '" + fen + "'";
    game = Game(v, *start);
  }
  if (g.tokens.empty()) return "no movetext";
  for (std::size_t i = 0; i + 1 < g.tokens.size(); ++i) {
    const std::string& t = g.tokens[i];
    if (is_move_number(t)) continue;
    if (game.result().outcome != Outcome::Ongoing) return "a move after the end: " + t;
    const auto m = notation::parse_move(v, game.position(), t);
    if (!m) return "move " + t + " is not legal: " + m.error().message;
    if (!game.play(*m)) return "move " + t + " is refused by the game";
  }
  const std::string result = g.tag("Result");
  if (g.tokens.back() != result)
    return "the movetext ends with " + g.tokens.back() + ", the Result tag is " + result;
  const std::string termination = g.tag("Termination");
  const bool by_rules = termination.find("forfeits") == std::string::npos &&
                        termination.find("resigns") == std::string::npos;
  const Outcome rules = game.result().outcome;
  if (rules != Outcome::Ongoing && by_rules && result_of(v, rules) != result)
    return "the rules give " + result_of(v, rules) + ", the Result tag " + result;
  if (rules == Outcome::Ongoing && by_rules && result != "*" &&
      termination.find("adjudicated") == std::string::npos)
    return "a result (" + result + ") for a game the rules have not ended (" + termination + ")";
  return {};
}

std::string check_pdn_file(Variant v, const std::string& text, std::size_t* games) {
  const PdnFile file = read_pdn(text);
  if (games) *games = file.games.size();
  if (!file.error.empty()) return file.error;
  for (std::size_t i = 0; i < file.games.size(); ++i)
    if (const std::string e = check_pdn_game(v, file.games[i]); !e.empty())
      return "game " + std::to_string(i + 1) + " (" + file.games[i].tag("Round") + "): " + e;
  return {};
}

}  // namespace tsuru::test
