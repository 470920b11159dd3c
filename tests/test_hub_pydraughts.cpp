// pydraughts 0.6.7 against the real `tsuru hub`: what its HubEngine sends, per rule set, replayed
// from tests/data/pydraughts-hub.txt (its lines of the interop transcripts), and whole games
// driven as it drives them. Every answer is read the way the client reads it, by a reader of
// its own here (not protocol/hub/notation): squares in the client's numbering, a capture
// matched by from, to and the set of captured squares, which must all be listed (the client
// cannot read a short capture); the move must be legal in the client's position, and so must
// the ponder move after it. No error line may come except where the data says the client sent
// garbage.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/notation.hpp"
#include "tests/hub_client.hpp"
#include "tests/reference_data.hpp"

using namespace tsuru;
using namespace std::chrono_literals;
using test::fields;
using test::HubClient;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The rule set the client plays, by pydraughts' Board.variant name.
struct ClientRules {
  Variant variant;
  bool frysk = false;  // Frisian from Frysk!'s start
};

ClientRules client_rules(const std::string& name) {
  if (name == "standard") return {Variant::International};
  if (name == "frisian") return {Variant::Frisian};
  if (name == "frysk!") return {Variant::Frisian, true};
  if (name == "breakthrough") return {Variant::Breakthrough};
  if (name == "antidraughts") return {Variant::Antidraughts};
  if (name == "italian") return {Variant::Italian};
  if (name == "english") return {Variant::English};
  if (name == "russian") return {Variant::Russian};
  if (name == "brazilian") return {Variant::Brazilian};
  if (name == "turkish") return {Variant::Turkish};
  FAIL("unknown client rule set " << name);
  return {Variant::International};
}

// A square number in the client's numbering, as the rules core names the square
// (pydraughts' convert.py: Russian and Brazilian rows flipped, 1 = a1, every other square;
// Turkish 1 = a1 ... 64 = h8; everything else a plain PDN number, English included).
std::optional<Square> client_square(Variant v, const std::string& token) {
  if (token.empty() || token.size() > 2 ||
      !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const int n = std::stoi(token);
  std::string name = token;
  if (v == Variant::Russian || v == Variant::Brazilian || v == Variant::Turkish) {
    const int width = v == Variant::Turkish ? 8 : 4;
    if (n < 1 || n > width * 8) return std::nullopt;
    const int row = (n - 1) / width;
    int col = (n - 1) % width;
    if (width == 4) col = col * 2 + (row % 2);
    name = std::string(1, static_cast<char>('a' + col)) + std::to_string(row + 1);
  }
  return notation::parse_square(v, name);
}

// The legal move the client reads in text, or nullopt where the client would fail (its
// KeyError): from-to for a quiet move, from x to x every captured square for a capture.
std::optional<Move> client_move(Variant v, const Position& pos, const std::string& text) {
  const bool capture = text.find('x') != std::string::npos;
  std::vector<Square> squares;
  std::stringstream in(text);
  for (std::string token; std::getline(in, token, capture ? 'x' : '-');) {
    const auto sq = client_square(v, token);
    if (!sq) return std::nullopt;
    squares.push_back(*sq);
  }
  if (squares.size() < 2 || (!capture && squares.size() != 2)) return std::nullopt;
  Bitboard listed = 0;
  for (std::size_t i = 2; i < squares.size(); ++i) listed |= bit(squares[i]);
  for (const Move& m : legal_moves(v, pos)) {
    if (m.is_capture() != capture || m.from != squares[0] || m.to != squares[1]) continue;
    if (capture &&
        (m.captured != listed || static_cast<std::size_t>(m.capture_count()) != squares.size() - 2))
      continue;
    return m;
  }
  return std::nullopt;
}

// A done line read as the client reads it: move first, then only ponder; both legal.
void check_done(const ClientRules& rules, const Position& pos, const std::string& done) {
  INFO(notation::format_fen(rules.variant, pos) << " <- " << done);
  const auto f = fields(done);
  REQUIRE_FALSE(f.empty());
  REQUIRE(starts_with(f[0], "move="));
  REQUIRE(f.size() <= 2);
  const auto best = client_move(rules.variant, pos, f[0].substr(5));
  REQUIRE(best);
  if (f.size() == 2) {
    REQUIRE(starts_with(f[1], "ponder="));
    CHECK(client_move(rules.variant, pos.after(*best), f[1].substr(7)));
  }
}

// The client's position after `pos pos=<start> moves="..."`, each history move read as the
// client reads it (the history must be legal: it is the client's own game).
Game client_game(const ClientRules& rules, const hub::Message& pos) {
  const std::string* start_text = pos.value("pos");
  REQUIRE(start_text);
  // The position strings already agree between the client and Tsuru.
  const auto start = hub::parse_position(rules.variant, *start_text);
  REQUIRE(start.ok());
  Game game(rules.variant, *start);
  if (const std::string* moves = pos.value("moves")) {
    std::stringstream in(*moves);
    for (std::string word; in >> word;) {
      INFO(notation::format_fen(rules.variant, game.position()) << " history move " << word);
      const auto m = client_move(rules.variant, game.position(), word);
      REQUIRE(m);
      REQUIRE(game.play(*m));
    }
  }
  return game;
}

struct Step {
  std::string line;                   // what the client sends
  std::vector<std::string> expected;  // the replies listed for it (errors, a bare done)
};

struct Run {
  std::string rules;  // the client's rule set
  std::string title;
  std::vector<Step> steps;
};

struct WholeGame {
  std::string name;   // the variant name sent
  std::string rules;  // the client's rule set
  std::string start;  // the start position string
};

void load(std::vector<Run>& runs, std::vector<WholeGame>& games) {
  std::ifstream in(test::data_path("pydraughts-hub.txt"));
  REQUIRE(in);
  for (std::string l; std::getline(in, l);) {
    if (l.empty() || l[0] == '#') continue;
    if (starts_with(l, "run ")) {
      const std::size_t gap = l.find("  ");
      runs.push_back({l.substr(4, gap - 4), l.substr(gap + 2), {}});
    } else if (starts_with(l, "> ")) {
      REQUIRE_FALSE(runs.empty());
      runs.back().steps.push_back({l.substr(2), {}});
    } else if (starts_with(l, "< ")) {
      REQUIRE_FALSE(runs.empty());
      REQUIRE_FALSE(runs.back().steps.empty());
      runs.back().steps.back().expected.push_back(l.substr(2));
    } else if (starts_with(l, "game ")) {
      std::stringstream words(l.substr(5));
      WholeGame g;
      words >> g.name >> g.rules >> g.start;
      games.push_back(g);
    } else {
      FAIL("bad line in pydraughts-hub.txt: " << l);
    }
  }
}

}  // namespace

TEST_CASE("pydraughts: the client's own lines of every transcript, replayed",
          "[hub][pydraughts][transcript]") {
  std::vector<Run> runs;
  std::vector<WholeGame> games;
  load(runs, games);
  REQUIRE(runs.size() == 23);
  std::size_t answered = 0;
  for (const Run& run : runs) {
    INFO("run " << run.rules << ": " << run.title);
    const ClientRules rules = client_rules(run.rules);
    HubClient hub;
    std::optional<Game> position;  // the client's position at its last pos
    bool quit = false;
    for (const Step& step : run.steps) {
      INFO("> " << step.line.substr(0, 160));
      hub.send(step.line);
      const auto message = hub::parse_line(step.line);
      REQUIRE(message.ok());
      const std::string& command = message->command();
      if (command == "hub") {
        // The variant the client sends next is among the listed values.
        bool variant_listed = false;
        for (std::string l = hub.line(); l != "wait"; l = hub.line()) {
          CHECK_FALSE(starts_with(l, "error"));
          if (starts_with(l, "param name=variant ")) variant_listed = true;
        }
        CHECK(variant_listed);
      } else if (command == "init") {
        std::vector<std::string> before;
        for (std::string l = hub.line(); l != "ready"; l = hub.line()) before.push_back(l);
        CHECK(before == step.expected);
      } else if (command == "go") {
        std::vector<std::string> before;
        const std::string done = hub.until_done(&before);
        std::vector<std::string> errors;
        for (const std::string& l : before)
          if (!starts_with(l, "info ")) errors.push_back(l);
        if (!step.expected.empty()) {
          // Garbage was sent: the listed errors, then the listed done.
          errors.push_back(done);
          CHECK(errors == step.expected);
        } else {
          CHECK(errors.empty());
          REQUIRE(position);
          check_done(rules, position->position(), done);
          ++answered;
        }
      } else if (command == "quit") {
        CHECK(hub.process().wait(5000ms) == 0);
        quit = true;
      } else {
        // set-param, pos, level: nothing back unless the data lists an error.
        CHECK(hub.sync() == step.expected);
        if (command == "pos" && step.expected.empty()) position = client_game(rules, *message);
      }
    }
    if (!quit) {
      hub.send("quit");
      CHECK(hub.process().wait(5000ms) == 0);
    }
  }
  CHECK(answered >= 50);
}

TEST_CASE("pydraughts: whole games in every rule set it plays, driven as it drives them",
          "[hub][pydraughts][game]") {
  std::vector<Run> runs;
  std::vector<WholeGame> games;
  load(runs, games);
  REQUIRE(games.size() == 15);
  constexpr std::size_t kPlyLimit = 300;
  for (const WholeGame& g : games) {
    INFO("game: variant=" << g.name << ", client plays " << g.rules);
    const ClientRules rules = client_rules(g.rules);
    HubClient hub;
    hub.send("hub");
    while (hub.line() != "wait") {
    }
    hub.send("set-param name=variant value=" + g.name);
    hub.send("init");
    CHECK(hub.line() == "ready");  // no error: the name is accepted
    const auto start = hub::parse_position(rules.variant, g.start);
    REQUIRE(start.ok());
    Game game(rules.variant, *start);
    std::string history;
    std::size_t plies = 0;
    while (game.result().outcome == Outcome::Ongoing && plies < kPlyLimit) {
      hub.send("pos pos=" + g.start + (history.empty() ? "" : " moves=\"" + history + "\""));
      hub.send("level depth=3");
      hub.send("go think");
      std::vector<std::string> before;
      const std::string done = hub.until_done(&before);
      for (const std::string& l : before) {
        INFO(l);
        CHECK(starts_with(l, "info "));
      }
      check_done(rules, game.position(), done);
      const std::string text = fields(done)[0].substr(5);
      // The client keeps the engine's text as it came and sends it back in the history.
      REQUIRE(game.play(*client_move(rules.variant, game.position(), text)));
      history += (history.empty() ? "" : " ") + text;
      ++plies;
    }
    const GameResult r = game.result();
    WARN(g.name << " (" << g.rules << "): " << describe(r.outcome) << " (" << describe(r.reason)
                << ") after " << plies << " plies");
    CHECK(plies >= 10);
    if (r.reason == ResultReason::NoLegalMove) {
      // Asked for a move with none left: a bare done.
      hub.send("pos pos=" + g.start + " moves=\"" + history + "\"");
      hub.send("go think");
      CHECK(hub.until_done() == "done");
      if (rules.variant == Variant::Antidraughts) {
        // The blocked side has won.
        CHECK(r.outcome ==
              (game.position().turn() == Side::White ? Outcome::WhiteWins : Outcome::BlackWins));
      }
    }
    CHECK(hub.sync().empty());  // no error line anywhere
    hub.send("quit");
    CHECK(hub.process().wait(5000ms) == 0);
  }
}
