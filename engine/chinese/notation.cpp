#include "engine/chinese/notation.hpp"

#include <cctype>
#include <charconv>
#include <vector>

namespace tsuru::chinese {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A point number 1..121 as an index 0..120, or -1.
int parse_point(std::string_view s) {
  s = trim(s);
  int n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc{} || end != s.data() + s.size() || n < 1 || n > kPoints) return -1;
  return n - 1;
}

bool is_jump(int from, int to, Bits occupied) {
  const auto& nb = kGeometry.neighbour[static_cast<std::size_t>(from)];
  for (int d = 0; d < kDirections; ++d) {
    const int over = nb[static_cast<std::size_t>(d)];
    if (over == kNone || !(occupied & bit(over))) continue;
    if (kGeometry.neighbour[static_cast<std::size_t>(over)][static_cast<std::size_t>(d)] == to)
      return !(occupied & bit(to));
  }
  return false;
}

}  // namespace

std::string format_point(int p) {
  return std::to_string(p + 1);
}

std::string format_move(const Position& pos, Move m) {
  std::string s = format_point(m.from);
  for (const int p : path(pos, m)) s += (m.jump ? "x" : "-") + format_point(p);
  return s;
}

Expected<Move> parse_move(const Position& pos, std::string_view text) {
  using E = Expected<Move>;
  text = trim(text);
  const bool step = text.find('-') != std::string_view::npos;
  const bool jump = text.find_first_of("xX") != std::string_view::npos;
  if (step == jump) return E::failure("not a move (a-b or axbx...): '" + std::string(text) + "'");
  std::vector<int> points;
  while (true) {
    const std::size_t sep = text.find_first_of(step ? "-" : "xX");
    const int p = parse_point(text.substr(0, sep));
    if (p < 0) return E::failure("not a point number 1-121 in '" + std::string(text) + "'");
    points.push_back(p);
    if (sep == std::string_view::npos) break;
    text.remove_prefix(sep + 1);
  }
  if (points.size() < 2 || (step && points.size() != 2))
    return E::failure("a move names its start and end point");
  const int from = points.front(), to = points.back();
  if (!(pos.pieces(pos.side_to_move()) & bit(from)))
    return E::failure("no piece of the side to move on " + format_point(from));
  for (const Move& m : legal_moves(pos)) {
    if (m.from != from || m.to != to) continue;
    if (m.jump != jump) break;
    if (points.size() == 2) return m;
    // A full path must be a legal chain: each landing one jump on, none reached before.
    const Bits occupied = pos.occupied() & ~bit(from);
    Bits reached = bit(from);
    for (std::size_t i = 1; i < points.size(); ++i) {
      if (reached & bit(points[i]) || !is_jump(points[i - 1], points[i], occupied))
        return E::failure("no legal jump from " + format_point(points[i - 1]) + " to " +
                          format_point(points[i]));
      reached |= bit(points[i]);
    }
    return m;
  }
  return E::failure("no legal move from " + format_point(from) + " to " + format_point(to) +
                    (jump ? " by jumps" : " by a step"));
}

std::string format_fen(const Position& pos) {
  std::string s = pos.side_to_move() == Side::Red ? "R" : "B";
  for (const Side side : {Side::Red, Side::Blue}) {
    s += side == Side::Red ? ":R" : ":B";
    bool first = true;
    for_each(pos.pieces(side), [&](int p) {
      if (!first) s += ',';
      s += format_point(p);
      first = false;
    });
  }
  return s;
}

Expected<Position> parse_fen(std::string_view text) {
  using E = Expected<Position>;
  text = trim(text);
  if (text.empty() || text == "start") return Position::start();
  const std::string whole(text);
  if (text.size() < 1 || (text[0] != 'R' && text[0] != 'B') || (text.size() > 1 && text[1] != ':'))
    return E::failure("a position starts with the side to move, R or B: '" + whole + "'");
  const Side to_move = text[0] == 'R' ? Side::Red : Side::Blue;
  text.remove_prefix(std::min<std::size_t>(2, text.size()));
  Bits sets[2] = {0, 0};
  bool seen[2] = {false, false};
  while (!text.empty()) {
    const std::size_t colon = text.find(':');
    std::string_view field = trim(text.substr(0, colon));
    text.remove_prefix(colon == std::string_view::npos ? text.size() : colon + 1);
    if (field.empty() || (field[0] != 'R' && field[0] != 'B'))
      return E::failure("each list starts with R or B: '" + whole + "'");
    const int s = field[0] == 'R' ? 0 : 1;
    if (seen[s]) return E::failure("a side's list appears twice: '" + whole + "'");
    seen[s] = true;
    field.remove_prefix(1);
    while (!trim(field).empty()) {
      const std::size_t comma = field.find(',');
      const int p = parse_point(field.substr(0, comma));
      if (p < 0) return E::failure("not a point number 1-121 in '" + whole + "'");
      if ((sets[0] | sets[1]) & bit(p))
        return E::failure("point " + format_point(p) + " is given twice");
      sets[s] |= bit(p);
      field.remove_prefix(comma == std::string_view::npos ? field.size() : comma + 1);
    }
    if (count(sets[s]) > kPieces) return E::failure("more than ten pieces for a side");
  }
  return Position::from_sets(sets[0], sets[1], to_move);
}

}  // namespace tsuru::chinese
