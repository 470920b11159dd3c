// Legal move lists against the reference lists and the rule book's examples.
#include <algorithm>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/notation.hpp"
#include "tests/engine_helpers.hpp"
#include "tests/reference_data.hpp"

using namespace tsuru;
using test::fen;

namespace {

std::vector<std::string> hub_moves(Variant v, const Position& pos) {
  std::vector<std::string> out;
  for (const Move& m : legal_moves(v, pos)) out.push_back(notation::format_move(v, m));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> pdn_paths(Variant v, const Position& pos) {
  std::vector<std::string> out;
  for (const MovePath& p : move_paths(v, pos)) {
    std::string s = notation::square_name(v, p.move.from);
    const char sep = p.move.is_capture() ? 'x' : '-';
    for (Square sq : p.landings) s += sep + notation::square_name(v, sq);
    out.push_back(s);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The reference lists Turkish moves as algebraic paths with ':' (c7:e7:e4): each distinct move
// by its path through the landing squares, written with 'x' here.
std::vector<std::string> turkish_moves(const Position& pos) {
  std::vector<std::string> out;
  for (const Move& m : legal_moves(Variant::Turkish, pos))
    out.push_back(notation::format_move_algebraic(Variant::Turkish, pos, m));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> colons_to_x(std::vector<std::string> moves) {
  for (std::string& m : moves) std::replace(m.begin(), m.end(), ':', 'x');
  std::sort(moves.begin(), moves.end());
  return moves;
}

}  // namespace

TEST_CASE("move lists equal the reference lists", "[movegen]") {
  int checked = 0;
  for (const test::MoveListRow& row : test::movelist_rows()) {
    const auto v = parse_variant(row.variant);
    if (!v) continue;
    INFO(row.variant << " " << row.fen << " (" << row.source << ")");
    const Position pos = fen(*v, row.fen);
    if (*v == Variant::Turkish) {
      CHECK(turkish_moves(pos) == colons_to_x(row.moves));
      CHECK(pdn_paths(*v, pos) == colons_to_x(row.paths));
    } else {
      auto expected = row.moves;
      std::sort(expected.begin(), expected.end());
      CHECK(hub_moves(*v, pos) == expected);
      auto expected_paths = row.paths;
      std::sort(expected_paths.begin(), expected_paths.end());
      CHECK(pdn_paths(*v, pos) == expected_paths);
    }
    ++checked;
  }
  CHECK(checked >= 57);  // every row: 19 English and international, 38 of the other rule sets
}

TEST_CASE("the rule book's worked example: crowning ends an English capture", "[movegen]") {
  // docs/rules.md worked example: Black men 1, 2, 6, 22; White men 19, 26, 27, 30, 32; Black to
  // move.
  const Position pos = fen(Variant::English, "B:W19,26,27,30,32:B1,2,6,22");
  const MoveList moves = legal_moves(Variant::English, pos);
  REQUIRE(moves.size() == 1);
  CHECK(notation::format_move(Variant::English, moves[0]) == "22x31x26");
  CHECK(moves[0].crowns);
  const Position after = pos.after(moves[0]);
  CHECK(has(after.kings(Side::Black), *notation::parse_square(Variant::English, "31")));
  CHECK(popcount(after.pieces(Side::White)) == 4);
}

TEST_CASE("English men move and capture forward only, kings one square", "[movegen]") {
  // A black man on 14 with white men on 9 and 10 behind it: no backward capture.
  const Position pos = fen(Variant::English, "B:W9,10,18:B14");
  CHECK(hub_moves(Variant::English, pos) == std::vector<std::string>{"14x23x18"});
  // The same as a king captures in every direction it can.
  const Position king = fen(Variant::English, "B:W9,10,18:BK14");
  CHECK(hub_moves(Variant::English, king) ==
        std::vector<std::string>{"14x23x18", "14x5x9", "14x7x10"});
  // A lone king moves one square in four directions.
  CHECK(hub_moves(Variant::English, fen(Variant::English, "B:W32:BK14")) ==
        std::vector<std::string>{"14-10", "14-17", "14-18", "14-9"});
}

TEST_CASE("capture is compulsory", "[movegen]") {
  for (Variant v : all_variants()) {
    const Position start = start_position(v);
    for (const Move& m : legal_moves(v, start)) {
      const Position p = start.after(m);
      const MoveList replies = legal_moves(v, p);
      const bool any_capture =
          std::any_of(replies.begin(), replies.end(), [](const Move& r) { return r.is_capture(); });
      const bool all_capture =
          std::all_of(replies.begin(), replies.end(), [](const Move& r) { return r.is_capture(); });
      CHECK((!any_capture || all_capture));
      CHECK(any_capture == has_capture(v, p));
    }
  }
  // English: 27-24 would be quiet, but 27 must capture.
  const Position pos = fen(Variant::English, "W:W27,30:B23");
  CHECK(hub_moves(Variant::English, pos) == std::vector<std::string>{"27x18x23"});
}

TEST_CASE("international men capture backwards and kings fly", "[movegen]") {
  // White man on 28 with a black man behind it on 33 (towards White's side).
  CHECK(hub_moves(Variant::International, fen(Variant::International, "W:W28:B33,5")) ==
        std::vector<std::string>{"28x39x33"});
  // A king on 46 sees 23 across the board and lands anywhere beyond it.
  CHECK(hub_moves(Variant::International, fen(Variant::International, "W:WK46:B23,1")) ==
        std::vector<std::string>{"46x10x23", "46x14x23", "46x19x23", "46x5x23"});
  // A flying king moves along empty diagonals.
  CHECK(legal_moves(Variant::International, fen(Variant::International, "W:WK46:B1")).size() == 9);
}

TEST_CASE("majority capture: only the longest sequences are legal", "[movegen]") {
  // White 36 can take one piece (31); white 32 takes two (28, then 19).
  const Position pos = fen(Variant::International, "W:W32,36:B19,28,31");
  CHECK(hub_moves(Variant::International, pos) == std::vector<std::string>{"32x14x19x28"});
}

TEST_CASE("international men are crowned only where the move ends", "[movegen]") {
  // A black man capturing onto White's back row is crowned.
  const Position pos = fen(Variant::International, "B:W43:B39");
  const MoveList moves = legal_moves(Variant::International, pos);
  REQUIRE(moves.size() == 1);
  CHECK(notation::format_move(Variant::International, moves[0]) == "39x48x43");
  CHECK(moves[0].crowns);
  CHECK(pos.after(moves[0]).kings(Side::Black) != 0);
  // INT-8: passing the promotion row mid-capture, the man goes on as a man.
  const Position passing = fen(Variant::International, "W:W11:B7,8");
  const MoveList through = legal_moves(Variant::International, passing);
  REQUIRE(through.size() == 1);
  CHECK(notation::format_move(Variant::International, through[0]) == "11x13x7x8");
  CHECK_FALSE(through[0].crowns);
  CHECK(passing.after(through[0]).kings() == 0);
}

TEST_CASE("capture sequences with the same from, to and captured set are one move", "[movegen]") {
  // INT-1: the king can run round the four pieces either way.
  const Position pos = fen(Variant::International, "W:WK38:B18,19,32,33");
  CHECK(legal_moves(Variant::International, pos).size() == 5);
  MoveList kept;
  MoveGen<InternationalRules>::generate<true>(pos, kept);
  CHECK(kept.size() == 6);
}
