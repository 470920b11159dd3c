// Two-player Chinese checkers: the rule cases of docs/chinese.md, perft from the start, the
// notation, and the engine's move generator against an independent brute-force one written
// here in another design (cube coordinates in a std::map, recursive depth-first search over jump
// paths with a set of landings) on many random positions.
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/chinese/notation.hpp"
#include "engine/chinese/position.hpp"

using namespace tsuru::chinese;

namespace {

// ---- The brute-force generator: no tables, no bit sets. ----
using Cube = std::pair<int, int>;  // (x, z); y = -x - z

bool brute_on_star(Cube c) {
  const int x = c.first, z = c.second, y = -x - z;
  return (x >= -4 && y >= -4 && z >= -4) || (x <= 4 && y <= 4 && z <= 4);
}

// Points numbered 1..121 by rows (z from -8 down the page to 8), then x: the notation's order.
struct BruteBoard {
  std::map<Cube, int> number;
  std::map<int, Cube> cube;
  BruteBoard() {
    int n = 0;
    for (int z = -8; z <= 8; ++z)
      for (int x = -8; x <= 8; ++x)
        if (brute_on_star({x, z})) {
          number[{x, z}] = ++n;
          cube[n] = {x, z};
        }
  }
};
const BruteBoard& brute_board() {
  static const BruteBoard b;
  return b;
}

const int kUnit[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};

// occupant: point number -> 'R' / 'B'.
using Board = std::map<int, char>;

void brute_jumps(const Board& board, Cube at, std::set<int>& landings, int start) {
  for (const auto& u : kUnit) {
    const Cube over{at.first + u[0], at.second + u[1]};
    const Cube land{at.first + 2 * u[0], at.second + 2 * u[1]};
    if (!brute_on_star(over) || !brute_on_star(land)) continue;
    const int o = brute_board().number.at(over), l = brute_board().number.at(land);
    if (!board.count(o) || board.count(l) || l == start || landings.count(l)) continue;
    landings.insert(l);
    brute_jumps(board, land, landings, start);
  }
}

// The (from, to) pairs of the legal moves of `side`, by the rules' text.
std::set<std::pair<int, int>> brute_moves(Board board, char side) {
  std::set<std::pair<int, int>> out;
  for (const auto& [from, who] : Board(board)) {
    if (who != side) continue;
    const Cube c = brute_board().cube.at(from);
    for (const auto& u : kUnit) {
      const Cube to{c.first + u[0], c.second + u[1]};
      if (brute_on_star(to) && !board.count(brute_board().number.at(to)))
        out.insert({from, brute_board().number.at(to)});
    }
    board.erase(from);  // the piece is lifted while it jumps
    std::set<int> landings;
    brute_jumps(board, c, landings, from);
    board[from] = side;
    for (const int l : landings) out.insert({from, l});
  }
  return out;
}

Board to_board(const Position& pos) {
  Board b;
  for_each(pos.pieces(Side::Red), [&](int p) { b[p + 1] = 'R'; });
  for_each(pos.pieces(Side::Blue), [&](int p) { b[p + 1] = 'B'; });
  return b;
}

std::set<std::pair<int, int>> engine_moves(const Position& pos) {
  std::set<std::pair<int, int>> out;
  for (const Move& m : legal_moves(pos)) out.insert({m.from + 1, m.to + 1});
  return out;
}

std::uint64_t brute_perft(const Board& board, char side, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (const auto& [from, to] : brute_moves(board, side)) {
    Board next = board;
    next.erase(from);
    next[to] = side;
    n += brute_perft(next, side == 'R' ? 'B' : 'R', depth - 1);
  }
  return n;
}

Position fen(const std::string& text) {
  const auto p = parse_fen(text);
  INFO(text);
  REQUIRE(p.ok());
  return *p;
}

bool has_move(const Position& pos, const std::string& text) {
  for (const Move& m : legal_moves(pos))
    if (format_move(pos, m) == text) return true;
  return false;
}

}  // namespace

TEST_CASE("the star has 121 points numbered row by row", "[chinese]") {
  CHECK(kGeometry.row_length[0] == 1);
  CHECK(kGeometry.row_length[4] == 13);
  CHECK(kGeometry.row_length[8] == 9);
  for (int p = 0; p < kPoints; ++p) {
    const Cube c = brute_board().cube.at(p + 1);
    CHECK(kGeometry.x[static_cast<std::size_t>(p)] == c.first);
    CHECK(kGeometry.row[static_cast<std::size_t>(p)] == c.second + 8);
  }
  // Red starts on the bottom triangle (112-121), Blue on the top one (1-10).
  CHECK(format_fen(Position::start()) ==
        "R:R112,113,114,115,116,117,118,119,120,121:B1,2,3,4,5,6,7,8,9,10");
}

TEST_CASE("Chinese checkers perft from the start", "[chinese][perft]") {
  // No published perft exists for this board (none found); the brute-force generator above is
  // the independent source for these numbers.
  const Position start = Position::start();
  const std::uint64_t expected[] = {14, 196, 4760, 115600};
  for (int d = 1; d <= 4; ++d) CHECK(perft(start, d) == expected[d - 1]);
  for (int d = 1; d <= 3; ++d) CHECK(brute_perft(to_board(start), 'R', d) == expected[d - 1]);
}

TEST_CASE("Chinese checkers moves agree with a brute-force generator", "[chinese]") {
  std::mt19937_64 rng(20261130);
  int compared = 0;
  // Positions of random games, and random placements of 1-10 pieces a side.
  for (int game = 0; game < 60; ++game) {
    Position pos = Position::start();
    const int plies = static_cast<int>(rng() % 120);
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      pos.play(moves[rng() % moves.size()]);
      if (ply % 7 == 0) {
        INFO(format_fen(pos));
        CHECK(engine_moves(pos) ==
              brute_moves(to_board(pos), pos.side_to_move() == Side::Red ? 'R' : 'B'));
        ++compared;
      }
    }
  }
  for (int i = 0; i < 300; ++i) {
    std::vector<int> points(kPoints);
    for (int p = 0; p < kPoints; ++p) points[static_cast<std::size_t>(p)] = p;
    std::shuffle(points.begin(), points.end(), rng);
    const int reds = 1 + static_cast<int>(rng() % 10), blues = 1 + static_cast<int>(rng() % 10);
    Bits red = 0, blue = 0;
    for (int k = 0; k < reds; ++k) red |= bit(points[static_cast<std::size_t>(k)]);
    for (int k = reds; k < reds + blues; ++k) blue |= bit(points[static_cast<std::size_t>(k)]);
    const Position pos = Position::from_sets(red, blue, i % 2 ? Side::Blue : Side::Red);
    if (pos.decided()) continue;
    INFO(format_fen(pos));
    CHECK(engine_moves(pos) == brute_moves(to_board(pos), i % 2 ? 'B' : 'R'));
    ++compared;
  }
  CHECK(compared > 800);  // 823 with this seed
}

TEST_CASE("a jump chain may stop at any landing and jumps over either colour", "[chinese]") {
  // 61 jumps over Blue's 51 to 40, then over Red's 28 to 15: both landings are moves.
  const Position pos = fen("R:R61,28:B51");
  CHECK(has_move(pos, "61x40"));
  CHECK(has_move(pos, "61x40x15"));
  // A step and a jump never mix: 40 is no step from 61, and no chain goes on by a step.
  const auto step = parse_move(pos, "61-40");
  CHECK_FALSE(step.ok());
}

TEST_CASE("a jump chain never lands twice on a point nor back on its start", "[chinese]") {
  // Red's 61 is surrounded: six jumps, and every chain that could come back ends at 61.
  const Position pos = fen("R:R61:B51,52,60,62,70,71");
  std::set<int> to;
  int count = 0;
  for (const Move& m : legal_moves(pos)) {
    CHECK(m.jump);
    CHECK(m.from != m.to);
    to.insert(m.to + 1);
    ++count;
  }
  CHECK(count == 6);
  CHECK(to == std::set<int>{40, 42, 59, 63, 80, 82});
  // Two paths to one landing are one move.
  const Position ring = fen("R:R61,39,41,43,58,64:B51,52,60,62,70,71,79,81,83");
  const MoveList moves = legal_moves(ring);
  std::set<std::pair<int, int>> pairs;
  for (const Move& m : moves) pairs.insert({m.from, m.to});
  CHECK(pairs.size() == moves.size());
}

TEST_CASE("the win needs all ten pieces home; an opposing piece there blocks it", "[chinese]") {
  // Nine Red pieces home, the tenth steps in from 19.
  const Position nine = fen("R:R1,2,3,4,5,6,7,8,9,19:B57,58,59,60,61,62,63,64,65,66");
  CHECK_FALSE(nine.has_won(Side::Red));
  const auto last = parse_move(nine, "19-10");
  REQUIRE(last.ok());
  const Position won = nine.after(*last);
  CHECK(won.has_won(Side::Red));
  CHECK(won.decided());
  CHECK(legal_moves(won).empty());
  // Blue's piece left on 1 keeps Red from winning, whatever fills the other nine points.
  const Position blocked = fen("R:R2,3,4,5,6,7,8,9,19,18:B1,58,59,60,61,62,63,64,65,66");
  const Position after = blocked.after(*parse_move(blocked, "19-10"));
  CHECK((after.pieces(Side::Red) & kGeometry.goal[0]) == (kGeometry.goal[0] & ~bit(0)));
  CHECK_FALSE(after.has_won(Side::Red));
  CHECK_FALSE(after.decided());
}

TEST_CASE("a piece may leave its goal again", "[chinese]") {
  const Position pos = fen("R:R10,2:B112");
  CHECK(has_move(pos, "10-19"));
  CHECK(has_move(pos, "10-18"));
}

TEST_CASE("Chinese checkers notation round-trips", "[chinese]") {
  const Position pos = fen("R:R61,28:B51");
  const auto full = parse_move(pos, "61x40x15");
  REQUIRE(full.ok());
  const auto short_form = parse_move(pos, "61x15");
  REQUIRE(short_form.ok());
  CHECK(*full == *short_form);
  CHECK(format_move(pos, *full) == "61x40x15");
  CHECK(format_move(pos, *parse_move(pos, "61-62")) == "61-62");
  // Bad input: a clear error each time.
  for (const char* bad :
       {"", "61", "61-", "61-200", "61x62", "51-50", "61-40", "61x40-15", "61x15x40", "abc", "0-1"})
    CHECK_FALSE(parse_move(pos, bad).ok());
  CHECK(format_fen(fen("B:B1,2:R121")) == "B:R121:B1,2");
  for (const char* bad : {"X:R1", "R:R1,1", "R:R1:B1", "R:R1:R2", "R:Q1", "R:R0", "R:R122",
                          "R:R1,2,3,4,5,6,7,8,9,10,11"})
    CHECK_FALSE(parse_fen(bad).ok());
  CHECK(parse_fen("start").ok());
}
