// tsuru play: the board diagram, the draw-offer rule of seed 000, and console sessions run
// through the real binary's stdin (piped scripts, and interactive sessions that follow the
// engine's replies).
#include <cstdio>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/rules/game.hpp"
#include "engine/rules/notation.hpp"
#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/child_process.hpp"
#include "tools/play/board_view.hpp"
#include "tools/play/draw_offers.hpp"

using namespace tsuru;
using tsuru::test::count_of;
using tsuru::tools::ChildProcess;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const std::string& l : lines_of(text))
    if (l == line) return true;
  return false;
}

// `tsuru play <args>` (words separated by spaces) with the whole script on stdin, then end of
// input.
test::TsuruRun run_play(const std::string& args, const std::string& script) {
  std::vector<std::string> argv{"play"};
  std::istringstream words(args);
  for (std::string w; words >> w;) argv.push_back(w);
  return test::run_tsuru(argv, script);
}

// An interactive session: send a line, get the output up to the next prompt.
class Session {
 public:
  explicit Session(const std::string& args) {
    auto child = ChildProcess::start_shell(std::string(TSURU_BINARY) + " play " + args);
    REQUIRE(child.ok());
    child_ = std::move(child.value());
  }
  std::string until_prompt() {
    std::string text;
    REQUIRE(child_->read_until("\n> ", text, 60s) == ChildProcess::Read::Ok);
    return text;
  }
  std::string send(const std::string& line) {
    REQUIRE(child_->write_line(line));
    return until_prompt();
  }
  void quit() { REQUIRE(child_->write_line("quit")); }
  int finish() {
    child_->close_input();
    std::string rest;
    child_->read_all(rest, 30s);
    const auto code = child_->wait(10s);
    REQUIRE(code.has_value());
    return *code;
  }

 private:
  std::unique_ptr<ChildProcess> child_;
};

// The engine's move announced in text ("Tsuru plays 32-28 (...)"), as a move of pos.
std::optional<Move> engine_move(Variant v, const Position& pos, const std::string& text) {
  const std::size_t at = text.find("Tsuru plays ");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t start = at + 12;
  const std::string token = text.substr(start, text.find(' ', start) - start);
  const auto m = notation::parse_move(v, pos, token);
  if (!m) return std::nullopt;
  return *m;
}

}  // namespace

TEST_CASE("Board diagram: seen from either side, coordinates on the frame", "[play]") {
  // docs/notation.md square names. English: a1 is Black's near-left square = 4, 1 = g1, 5 = h2,
  // 29 = h8, 32 = b8; so rank 4 holds 16 (b4), 15 (d4), 14 (f4), 13 (h4).
  const auto black_view =
      lines_of(play::render_board(Variant::English, start_position(Variant::English), Side::Black));
  REQUIRE(black_view.size() == 19);
  CHECK(black_view[0] == "      a   b   c   d   e   f   g   h");
  CHECK(black_view[2] == "  8 |   | w |   | w |   | w |   | w | 8");
  CHECK(black_view[8] == "  5 |20 |   |19 |   |18 |   |17 |   | 5");
  CHECK(black_view[10] == "  4 |   |16 |   |15 |   |14 |   |13 | 4");
  CHECK(black_view[16] == "  1 | b |   | b |   | b |   | b |   | 1");
  CHECK(black_view[18] == black_view[0]);
  // From White's side the board turns round: Black's rank 1 (g1 = square 1) is at the top.
  const auto white_view =
      lines_of(play::render_board(Variant::English, start_position(Variant::English), Side::White));
  CHECK(white_view[0] == "      h   g   f   e   d   c   b   a");
  CHECK(white_view[2] == "  1 |   | b |   | b |   | b |   | b | 1");
  CHECK(white_view[10] == "  5 |   |17 |   |18 |   |19 |   |20 | 5");

  // International (a1 = 46 is White's near-left, 1 = b10, 5 = j10): rank 5 is 26 (a5) .. 30.
  const auto intl = lines_of(play::render_board(
      Variant::International, start_position(Variant::International), Side::White));
  REQUIRE(intl.size() == 23);
  CHECK(intl[0] == "      a   b   c   d   e   f   g   h   i   j");
  CHECK(intl[2] == " 10 |   | b |   | b |   | b |   | b |   | b | 10");
  CHECK(intl[12] == "  5 |26 |   |27 |   |28 |   |29 |   |30 |   | 5");
  CHECK(intl[20] == "  1 | w |   | w |   | w |   | w |   | w |   | 1");
  // Kings are capitals.
  const auto kings = notation::parse_fen(Variant::International, "W:WK46:BK5");
  REQUIRE(kings.ok());
  const auto k = lines_of(play::render_board(Variant::International, *kings, Side::White));
  CHECK(k[2] == " 10 |   | 1 |   | 2 |   | 3 |   | 4 |   | B | 10");
  CHECK(k[20] == "  1 | W |   |47 |   |48 |   |49 |   |50 |   | 1");
}

TEST_CASE("Draw offers: a refused side waits for a man move or a capture (seed 000)", "[play]") {
  using play::DrawOffers;
  const Side a = Side::Black, b = Side::White;
  DrawOffers d;
  CHECK(d.may_offer(a));
  CHECK(d.may_offer(b));
  d.on_move(a, true, true);  // a offers with a man move
  CHECK(d.pending() == a);
  CHECK(d.may_offer(a));      // not refused yet
  d.on_move(b, true, false);  // b plays on: refused; b's man move was the refusal itself
  CHECK_FALSE(d.pending().has_value());
  CHECK_FALSE(d.may_offer(a));
  CHECK(d.may_offer(b));
  d.on_move(a, false, false);  // a king move lifts nothing
  CHECK_FALSE(d.may_offer(a));
  d.on_move(b, false, false);
  CHECK_FALSE(d.may_offer(a));
  d.on_move(a, true, false);  // a man move (without an offer) after the refusal
  CHECK(d.may_offer(a));

  // A capture by the other side lifts the bar too.
  DrawOffers e;
  e.on_move(a, false, true);
  e.on_move(b, false, false);
  CHECK_FALSE(e.may_offer(a));
  e.on_move(a, false, false);
  e.on_move(b, true, false);
  CHECK(e.may_offer(a));

  // An offer that is accepted never bars; an offer followed by the offerer's own next move
  // cannot happen (the other side moves in between), so pending always names the last mover.
  DrawOffers f;
  f.on_move(a, false, true);
  CHECK(f.pending() == a);
  f.on_move(b, false, true);  // b refuses a's offer and offers back
  CHECK(f.pending() == b);
  CHECK_FALSE(f.may_offer(a));
  CHECK(f.may_offer(b));
}

TEST_CASE("Console: commands, both notations, undo, save, resign, new, end of input",
          "[play][console]") {
  const std::string pdn_file = "tsuru_play_test_save.pdn";
  std::remove(pdn_file.c_str());
  const test::TsuruRun run =
      run_play("--variant english --level beginner --seed 7",
               "help\nmoves\n11-15\nundo\nc3-d4\nflip\nlevel hard\nlevel foo\n"
               "hello\n1x10\nundo\nundo\nundo\nsave " +
                   pdn_file + "\nsave\naccept\nresign\n11-15\nundo\nnew\nmoves\n");
  INFO(run.out);
  CHECK(run.code == 0);
  const std::string& out = run.out;
  CHECK(out.find("You play Black (the first player)") != std::string::npos);
  CHECK(out.find("  quit        leave") != std::string::npos);  // help
  CHECK(count_of(out,
                 "Legal moves (7): 9-13 (g3-h4) 10-14 (e3-f4) 11-15 (c3-d4) 12-16 (a3-b4) "
                 "9-14 (g3-f4) 10-15 (e3-d4) 11-16 (c3-b4)") == 2);
  // Numeric and algebraic input name the same move.
  CHECK(count_of(out, "You play 11-15 (c3-d4).") == 2);
  CHECK(count_of(out, "Tsuru plays ") == 2);
  CHECK(out.find("Took back 2 moves.") != std::string::npos);
  CHECK(has_line(out, "      h   g   f   e   d   c   b   a"));  // flipped
  CHECK(out.find("Engine level: hard.") != std::string::npos);
  CHECK(out.find("Unknown level 'foo': choose beginner, medium or hard.") != std::string::npos);
  CHECK(out.find("Not a command or a move: 'hello'") != std::string::npos);
  CHECK(out.find("Illegal move '1x10'") != std::string::npos);
  CHECK(out.find("Nothing to undo.") != std::string::npos);
  CHECK(out.find("Game saved to " + pdn_file) != std::string::npos);
  CHECK(out.find("Usage: save FILE") != std::string::npos);
  CHECK(out.find("There is no draw offer to accept.") != std::string::npos);
  CHECK(out.find("Result: white wins (Black resigned), 1-0. Tsuru wins.") != std::string::npos);
  CHECK(out.find("The game is over. Type new for another game.") != std::string::npos);
  CHECK(out.find("The game has ended by resignation") != std::string::npos);
  CHECK(out.find("New game.") != out.rfind("New game."));  // twice
  CHECK(out.find("End of input. Goodbye.") != std::string::npos);

  // The saved game was taken after two undos: no moves, result unknown.
  std::ifstream f(pdn_file);
  REQUIRE(f);
  std::stringstream saved;
  saved << f.rdbuf();
  CHECK(saved.str().find("[Black \"You\"]") != std::string::npos);
  CHECK(saved.str().find("[White \"Tsuru (hard)\"]") != std::string::npos);
  CHECK(saved.str().find("[GameType \"21\"]") != std::string::npos);
  CHECK(saved.str().find("[Result \"*\"]") != std::string::npos);
  std::remove(pdn_file.c_str());
}

TEST_CASE("Console: compulsory capture, capture forms, a win by the rules, saved result",
          "[play][console]") {
  // docs/rules.md worked example: the only move is 22x31; a quiet move gets the capture message.
  const test::TsuruRun forced = run_play(
      "--fen B:W19,26,27,30,32:B1,2,6,22 --level beginner --seed 1", "1-5\nf6-e7\n22x31\nquit\n");
  INFO(forced.out);
  CHECK(forced.code == 0);
  CHECK(forced.out.find("You must capture: a capture is compulsory.") != std::string::npos);
  CHECK(count_of(forced.out, "A capture is compulsory: you must capture. Legal moves: 22x31") == 2);
  CHECK(forced.out.find("You play 22x31 (f6xd8).") != std::string::npos);
  CHECK(forced.out.find("Goodbye.") != std::string::npos);

  // A double jump typed as the landing path, as from x to, and algebraically; it takes the
  // last white pieces, so Black wins: White has no legal move.
  const std::string save = "tsuru_play_test_win.pdn";
  for (const char* text : {"9x18x27", "9x27", "g3xe5xc7"}) {
    INFO(text);
    const test::TsuruRun run = run_play("--fen B:W14,23:B9 --seed 1",
                                        std::string("moves\n") + text + "\nsave " + save + "\n");
    INFO(run.out);
    CHECK(run.out.find("Legal moves (1): 9x27 (g3xe5xc7)") != std::string::npos);
    CHECK(run.out.find("You play 9x27 (g3xe5xc7).") != std::string::npos);
    CHECK(run.out.find("Result: black wins (White has no legal move), 0-1. You win.") !=
          std::string::npos);
    std::ifstream f(save);
    std::stringstream saved;
    saved << f.rdbuf();
    CHECK(saved.str().find("[FEN \"B:W14,23:B9\"]") != std::string::npos);
    CHECK(saved.str().find("1. 9x27 0-1") != std::string::npos);
  }
  std::remove(save.c_str());
}

TEST_CASE("Console: draw offers accepted, declined, barred, offered by the engine",
          "[play][console]") {
  // The engine (White) has four kings against two men and a king: it declines. Its kings
  // cannot reach Black's pieces in three moves, so the script does not depend on its replies.
  const test::TsuruRun declined =
      run_play("--fen B:WK29,K30,K31,K32:B1,2,K3 --level beginner --seed 3",
               "draw\n1-5\ndraw\n3-7\ndraw\n2-6\ndraw\n7-3\ndraw\n");
  INFO(declined.out);
  const std::string& d = declined.out;
  CHECK(count_of(d, "Your draw offer goes with your next move.") == 2);
  CHECK(d.find("You play 1-5 (g1-h2) and offer a draw.") != std::string::npos);
  CHECK(d.find("You play 7-3 (d2-c1) and offer a draw.") != std::string::npos);
  CHECK(count_of(d, "Tsuru declines your draw offer.") == 2);
  // Barred after the first refusal (a king move lifts nothing), free again after 2-6, and
  // barred again after the second refusal.
  CHECK(count_of(d, "You may not offer a draw again until a man moves or a piece is captured.") ==
        3);
  const std::size_t after_man_move = d.find("You play 2-6");
  REQUIRE(after_man_move != std::string::npos);
  CHECK(d.find("You may not offer", after_man_move) > d.find("You play 7-3"));

  // Three kings against one: the engine accepts. Undo cannot reopen an agreed game.
  const test::TsuruRun accepted =
      run_play("--fen B:WK32:BK1,K2,K3 --level beginner --seed 3", "draw\n1-5\nundo\n11-15\n");
  INFO(accepted.out);
  CHECK(accepted.out.find("Tsuru accepts your draw offer.") != std::string::npos);
  CHECK(accepted.out.find("Result: draw (draw by agreement), 1/2-1/2. Drawn game.") !=
        std::string::npos);
  CHECK(accepted.out.find("The game has ended by agreement") != std::string::npos);
  CHECK(accepted.out.find("The game is over. Type new for another game.") != std::string::npos);

  // One king against two: the engine offers with its reply, and the offer can be accepted.
  const test::TsuruRun offered =
      run_play("--fen B:WK32:BK1,K2 --level beginner --seed 3", "1-5\naccept\nmoves\n");
  INFO(offered.out);
  CHECK(offered.out.find("and offers a draw.") != std::string::npos);
  CHECK(offered.out.find("Tsuru offers a draw: type accept to take it") != std::string::npos);
  CHECK(offered.out.find("You accept Tsuru's draw offer.") != std::string::npos);
  CHECK(offered.out.find("Result: draw (draw by agreement), 1/2-1/2.") != std::string::npos);
  CHECK(offered.out.find("The game is over: no moves.") != std::string::npos);
}

TEST_CASE("Console: second player in international draughts, undo of a move pair",
          "[play][console]") {
  const Variant v = Variant::International;
  Session s("--variant international --colour second --level beginner --seed 11");
  std::string out = s.until_prompt();
  INFO(out);
  CHECK(out.find("You play Black (the second player)") != std::string::npos);
  CHECK(has_line(out, "      j   i   h   g   f   e   d   c   b   a"));  // from Black's side
  Game game(v);
  auto reply = engine_move(v, game.position(), out);
  REQUIRE(reply.has_value());  // the engine (White) opens
  REQUIRE(game.play(*reply));
  // Three move pairs, our moves typed in algebraic form, then undo twice.
  for (int i = 0; i < 3; ++i) {
    const Move mine = game.legal_moves()[0];
    const std::string text = notation::format_move_algebraic(v, game.position(), mine);
    REQUIRE(game.play(mine));
    out = s.send(text);
    INFO(out);
    reply = engine_move(v, game.position(), out);
    REQUIRE(reply.has_value());
    REQUIRE(game.play(*reply));
    CHECK(out.find("Last move: " + notation::format_move_pdn(
                                       v, game.positions()[game.moves().size() - 1], *reply)) !=
          std::string::npos);
  }
  for (int i = 0; i < 3; ++i) {
    out = s.send("undo");
    CHECK(out.find("Took back 2 moves.") != std::string::npos);
  }
  out = s.send("undo");
  CHECK(out.find("Nothing to undo.") != std::string::npos);  // the engine's opening stays
  out = s.send("moves");
  CHECK(out.find("Legal moves (9):") != std::string::npos);
  CHECK(s.finish() == 0);
}

TEST_CASE("Console: moves left before an automatic draw, then the draw by the endgame limit",
          "[play][console]") {
  // International, two kings against a lone king: the FMJD limit of 5 moves each runs at once.
  const Variant v = Variant::International;
  const std::string fen = "W:WK47,K49:BK3";
  Session s("--variant international --colour white --level medium --seed 5 --fen " + fen);
  std::string out = s.until_prompt();
  CHECK(out.find("Moves left before an automatic draw: 5 (10 plies).") != std::string::npos);
  Game game(v, *notation::parse_fen(v, fen));
  for (int pair = 0; pair < 5; ++pair) {
    // A king move after which the lone king has no capture, so the game runs to the limit.
    std::optional<Move> safe;
    for (const Move& m : game.legal_moves())
      if (!has_capture(v, game.position().after(m))) {
        safe = m;
        break;
      }
    REQUIRE(safe.has_value());
    const std::string text = notation::format_move_pdn(v, game.position(), *safe);
    REQUIRE(game.play(*safe));
    out = s.send(text);
    INFO(out);
    const auto reply = engine_move(v, game.position(), out);
    REQUIRE(reply.has_value());
    REQUIRE(game.play(*reply));
    if (pair < 4) {
      const int left = 4 - pair;
      CHECK(out.find("Moves left before an automatic draw: " + std::to_string(left) + " (" +
                     std::to_string(2 * left) + " plies).") != std::string::npos);
    } else {
      CHECK(out.find("Result: draw (endgame move limit), 1-1. Drawn game.") != std::string::npos);
    }
  }
  CHECK(game.result().reason == ResultReason::EndgameLimit);
  s.quit();
  CHECK(s.finish() == 0);
}

TEST_CASE("Console: tsuru without a command starts a game; tsuru help lists the commands",
          "[play][console]") {
  auto child = ChildProcess::start({TSURU_BINARY, "--seed", "1"});
  REQUIRE(child.ok());
  ChildProcess& bare = **child;
  bare.close_input();
  std::string out;
  REQUIRE(bare.read_all(out, 60s) == ChildProcess::Read::Ok);
  CHECK(bare.wait(10s) == 0);
  CHECK(out.find("You play Black (the first player)") != std::string::npos);

  auto none = ChildProcess::start({TSURU_BINARY});
  REQUIRE(none.ok());
  REQUIRE((*none)->write_line("quit"));
  REQUIRE((*none)->read_all(out, 60s) == ChildProcess::Read::Ok);
  CHECK((*none)->wait(10s) == 0);
  CHECK(out.find("Goodbye.") != std::string::npos);

  auto help = ChildProcess::start({TSURU_BINARY, "help"});
  REQUIRE(help.ok());
  REQUIRE((*help)->read_all(out, 60s) == ChildProcess::Read::Ok);
  CHECK((*help)->wait(10s) == 0);
  for (const char* command : {"  bench ", "  dxp ", "  hub ", "  match ", "  perft ", "  play "}) {
    INFO(command);
    CHECK(out.find(command) != std::string::npos);
  }
}

TEST_CASE("Console: a bad line is echoed cut and escaped; an overlong line is not read whole",
          "[play][console]") {
  // A 4 MiB line with terminal escape sequences in it, then a short line of control bytes,
  // a level and a file name with an escape, then a line that still works.
  std::string huge;
  while (huge.size() < (std::size_t{4} << 20)) huge += "\x1b[2J\x1b]0;pwned\x07 junk ";
  const std::string script = huge + "\n" + "he\x01llo\x1b[31m\n" + "level \x1b[5mfoo\n" +
                             std::string(300, 'z') + "\n" + "quit\n";
  const test::TsuruRun run = run_play("--level beginner --seed 1", script);
  CHECK(run.code == 0);
  // Nothing like the input's size comes back, and no raw control byte but newlines.
  CHECK(run.out.size() < 8000);
  std::size_t controls = 0;
  for (const char c : run.out)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) ++controls;
  CHECK(controls == 0);
  INFO(run.out);
  CHECK(run.out.find("Line too long (more than 1024 bytes): '\\x1b[2J\\x1b]0;pwned\\x07 junk") !=
        std::string::npos);
  CHECK(run.out.find("Not a command or a move: 'he\\x01llo\\x1b[31m' (bad square "
                     "'he\\x01llo\\x1b[31m'). Type help for the commands.") != std::string::npos);
  CHECK(run.out.find("Unknown level '\\x1b[5mfoo': choose beginner, medium or hard.") !=
        std::string::npos);
  // A long line under the limit: cut after 80 characters with an ellipsis.
  CHECK(run.out.find("Not a command or a move: '" + std::string(80, 'z') + "\u2026' (") !=
        std::string::npos);
  CHECK(run.out.find("Goodbye.") != std::string::npos);
}
