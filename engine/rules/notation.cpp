#include "engine/rules/notation.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "engine/rules/board_letters.hpp"
#include "engine/rules/legal.hpp"

namespace tsuru::notation {
namespace {

// Hub position strings in PDN numbering: w b for men, W B for kings.
constexpr BoardLetters kHubLetters{{'w', 'b'}, {'W', 'B'}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' ||
                        s.front() == '\n' || s.front() == '"'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' ||
                        s.back() == '\n' || s.back() == '"'))
    s.remove_suffix(1);
  return s;
}

std::optional<int> parse_int(std::string_view s) {
  if (s.empty() || s.size() > 4) return std::nullopt;
  int value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string_view::npos ? s.npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

// Algebraic file/rank of a bit under the variant's convention.
std::pair<int, int> file_rank(Variant v, Square sq) {
  const VariantInfo& vi = info(v);
  const BoardShape& b = vi.board;
  const int row = b.row_of_bit[static_cast<std::size_t>(sq)];
  const int col = b.col_of_bit[static_cast<std::size_t>(sq)];
  if (vi.algebraic_from_black) return {b.cols - 1 - col, row + 1};
  return {col, b.rows - row};
}

// The squares of b in ascending notation order.
std::vector<Square> in_number_order(Variant v, Bitboard b) {
  std::vector<Square> out(squares_of(b).begin(), squares_of(b).end());
  const BoardShape& shape = info(v).board;
  std::sort(out.begin(), out.end(),
            [&](Square x, Square y) { return shape.number(x) < shape.number(y); });
  return out;
}

}  // namespace

std::string square_number(Variant v, Square sq) {
  return std::to_string(info(v).board.number(sq));
}

std::string square_name(Variant v, Square sq) {
  return info(v).algebraic_only ? square_algebraic(v, sq) : square_number(v, sq);
}

std::string square_algebraic(Variant v, Square sq) {
  const auto [file, rank] = file_rank(v, sq);
  std::string name(1, static_cast<char>('a' + file));
  name += std::to_string(rank);
  return name;
}

std::optional<Square> parse_square(Variant v, std::string_view text) {
  const BoardShape& b = info(v).board;
  if (text.empty()) return std::nullopt;
  if (text[0] >= '0' && text[0] <= '9') {
    if (info(v).algebraic_only) return std::nullopt;  // squares have no numbers (Turkish)
    const auto n = parse_int(text);
    if (!n) return std::nullopt;
    const Square sq = b.square(*n);
    return sq >= 0 ? std::optional<Square>(sq) : std::nullopt;
  }
  const char f = static_cast<char>(text[0] | 0x20);  // lower case
  if (f < 'a' || f >= 'a' + b.cols) return std::nullopt;
  const auto rank = parse_int(text.substr(1));
  if (!rank || *rank < 1 || *rank > b.rows) return std::nullopt;
  for (int n = 1; n <= b.squares; ++n) {
    const Square sq = b.square(n);
    if (file_rank(v, sq) == std::pair<int, int>{f - 'a', *rank}) return sq;
  }
  return std::nullopt;  // a light square
}

std::optional<std::string> check_position(Variant v, const Position& pos) {
  const BoardShape& b = info(v).board;
  for (Side s : {Side::White, Side::Black}) {
    const Bitboard bad = pos.men(s) & b.promotion_row[static_cast<std::size_t>(index(s))];
    if (bad)
      return std::string(s == Side::White ? "white" : "black") +
             " man on its promotion row (square " + square_name(v, lsb(bad)) + ")";
  }
  if (!pos.pieces(opponent(pos.turn())))
    return std::string("the side that just moved (") +
           (pos.turn() == Side::White ? "black" : "white") + ") has no pieces";
  return std::nullopt;
}

Expected<Position> parse_fen(Variant v, std::string_view text) {
  using E = Expected<Position>;
  text = trim(text);
  if (!text.empty() && text.back() == '.') text.remove_suffix(1);
  const auto fields = split(text, ':');
  if (fields.size() < 3) return E::failure("FEN needs a side to move and two piece lists");
  Side turn;
  const std::string_view t = trim(fields[0]);
  if (t == "W" || t == "w")
    turn = Side::White;
  else if (t == "B" || t == "b")
    turn = Side::Black;
  else
    return E::failure("FEN side to move must be W or B");

  Bitboard pieces[2] = {0, 0};
  Bitboard kings = 0;
  bool seen[2] = {false, false};
  for (std::size_t i = 1; i < fields.size(); ++i) {
    std::string_view f = trim(fields[i]);
    if (f.empty()) return E::failure("empty FEN field");
    const char c = f[0];
    if (c == 'H' || c == 'F') continue;  // PDN 3 half-move clock / move number fields
    if (c != 'W' && c != 'B') return E::failure("FEN piece list must start with W or B");
    const Side s = c == 'W' ? Side::White : Side::Black;
    if (seen[index(s)]) return E::failure("FEN lists the same colour twice");
    seen[index(s)] = true;
    f.remove_prefix(1);
    if (trim(f).empty()) continue;  // no pieces of this colour
    for (std::string_view item : split(f, ',')) {
      item = trim(item);
      bool king = false;
      if (!item.empty() && (item[0] == 'K' || item[0] == 'k')) {
        king = true;
        item.remove_prefix(1);
      }
      if (item.empty()) return E::failure("empty square in FEN piece list");
      const std::size_t dash = item.find('-');
      std::vector<Square> squares;
      if (dash != std::string_view::npos && info(v).algebraic_only) {
        return E::failure("bad square '" + std::string(item) +
                          "' in FEN (no ranges on this board)");
      } else if (dash != std::string_view::npos) {
        const auto lo = parse_int(item.substr(0, dash));
        const auto hi = parse_int(item.substr(dash + 1));
        const BoardShape& b = info(v).board;
        if (!lo || !hi || *lo < 1 || *hi > b.squares || *lo > *hi)
          return E::failure("bad square range '" + std::string(item) + "' in FEN");
        for (int n = *lo; n <= *hi; ++n) squares.push_back(b.square(n));
      } else {
        const auto sq = parse_square(v, item);
        if (!sq) return E::failure("bad square '" + std::string(item) + "' in FEN");
        squares.push_back(*sq);
      }
      for (Square sq : squares) {
        if (has(pieces[0] | pieces[1], sq))
          return E::failure("square " + square_name(v, sq) + " is listed twice in FEN");
        pieces[index(s)] |= bit(sq);
        if (king) kings |= bit(sq);
      }
    }
  }
  if (!seen[0] || !seen[1]) return E::failure("FEN needs a W list and a B list");
  const Position pos = make_position(v, pieces[0], pieces[1], kings, turn);
  if (auto problem = check_position(v, pos)) return E::failure(*problem);
  return pos;
}

std::string format_fen(Variant v, const Position& pos) {
  std::string out(pos.turn() == Side::White ? "W" : "B");
  for (Side s : {Side::White, Side::Black}) {
    out += s == Side::White ? ":W" : ":B";
    bool first = true;
    for (Square sq : in_number_order(v, pos.pieces(s))) {
      if (!first) out += ',';
      first = false;
      if (has(pos.kings(), sq)) out += 'K';
      out += square_name(v, sq);
    }
  }
  return out;
}

Expected<Position> parse_hub_position(Variant v, std::string_view text) {
  using E = Expected<Position>;
  const BoardShape& b = info(v).board;
  if (text.size() != static_cast<std::size_t>(b.squares) + 1)
    return E::failure("position must have " + std::to_string(b.squares + 1) + " characters");
  Side turn;
  if (text[0] == 'W')
    turn = Side::White;
  else if (text[0] == 'B')
    turn = Side::Black;
  else
    return E::failure("position must start with W or B");
  const auto pos = parse_board_letters(v, text.substr(1), turn, kHubLetters);
  if (!pos) return E::failure("bad character in position at square " + std::to_string(pos.error()));
  if (auto problem = check_position(v, *pos)) return E::failure(*problem);
  return *pos;
}

std::string format_hub_position(Variant v, const Position& pos) {
  return (pos.turn() == Side::White ? "W" : "B") + format_board_letters(v, pos, kHubLetters);
}

Expected<Position> parse_position(Variant v, std::string_view text) {
  text = trim(text);
  if (text.find(':') != std::string_view::npos) return parse_fen(v, text);
  return parse_hub_position(v, text);
}

namespace {

// Steps of path search allowed for matching a PDN path (Paths::All; PathBudget).
constexpr std::uint64_t kPathSearchSteps = std::uint64_t{1} << 24;

// Squares joined by one separator, each named by name(v, sq).
std::string join(Variant v, const std::vector<Square>& squares, char sep,
                 std::string (*name)(Variant, Square)) {
  std::string out;
  for (std::size_t i = 0; i < squares.size(); ++i) {
    if (i) out += sep;
    out += name(v, squares[i]);
  }
  return out;
}

// from, the landing squares of m's first capture path (only when with_landings), to.
std::vector<Square> path_squares(Variant v, const Position& pos, const Move& m,
                                 bool with_landings) {
  std::vector<Square> squares{m.from};
  if (with_landings) {
    for (const MovePath& p : move_paths(v, pos, Paths::OnePerMove)) {
      if (p.move != m) continue;
      squares.insert(squares.end(), p.landings.begin(), p.landings.end() - 1);
      break;
    }
  }
  squares.push_back(m.to);
  return squares;
}

// Whether another legal move has the same from and to squares as m.
bool shares_ends(Variant v, const Position& pos, const Move& m) {
  for (const Move& o : legal_moves(v, pos))
    if (o != m && o.from == m.from && o.to == m.to) return true;
  return false;
}

}  // namespace

std::string format_move(Variant v, const Move& m) {
  std::vector<Square> squares{m.from, m.to};
  const std::vector<Square> captured = in_number_order(v, m.captured);
  squares.insert(squares.end(), captured.begin(), captured.end());
  return join(v, squares, m.is_capture() ? 'x' : '-', square_name);
}

std::string format_move_pdn(Variant v, const Position& pos, const Move& m) {
  if (!m.is_capture()) return format_move(v, m);
  return join(v, path_squares(v, pos, m, shares_ends(v, pos, m)), 'x', square_name);
}

std::string format_move_algebraic(Variant v, const Position& pos, const Move& m) {
  return join(v, path_squares(v, pos, m, m.is_capture()), m.is_capture() ? 'x' : '-',
              square_algebraic);
}

Expected<Move, MoveError> parse_move(Variant v, const Position& pos, std::string_view text) {
  using E = Expected<Move, MoveError>;
  auto fail = [](MoveError::Kind k, std::string msg) { return E::failure({k, std::move(msg)}); };
  text = trim(text);
  if (text.empty()) return fail(MoveError::Kind::Malformed, "empty move");
  if (text.size() > 200) return fail(MoveError::Kind::Malformed, "move text too long");

  // Tokenize: squares separated by '-' (quiet) or 'x' / ':' (capture).
  std::vector<Square> squares;
  bool quiet_sep = false, capture_sep = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : '\0';
    const bool sep = c == '-' || c == 'x' || c == 'X' || c == ':' || c == '\0';
    if (!sep) continue;
    const std::string_view token = text.substr(start, i - start);
    const auto sq = parse_square(v, token);
    if (!sq) return fail(MoveError::Kind::Malformed, "bad square '" + std::string(token) + "'");
    squares.push_back(*sq);
    if (c == '-') quiet_sep = true;
    if (c == 'x' || c == 'X' || c == ':') capture_sep = true;
    start = i + 1;
  }
  if (squares.size() < 2) return fail(MoveError::Kind::Malformed, "a move needs two squares");
  if (quiet_sep && capture_sep)
    return fail(MoveError::Kind::Malformed, "mixed '-' and 'x' separators");
  if (quiet_sep && squares.size() != 2)
    return fail(MoveError::Kind::Malformed, "a quiet move has two squares");

  const MoveList legal = legal_moves(v, pos);
  const bool must_capture = !legal.empty() && legal[0].is_capture();
  const Square from = squares.front();
  if (quiet_sep) {
    for (const Move& m : legal)
      if (!m.is_capture() && m.from == from && m.to == squares[1]) return m;
    if (must_capture) return fail(MoveError::Kind::Illegal, "a capture is compulsory");
    return fail(MoveError::Kind::Illegal, "illegal move " + std::string(text));
  }

  // Hub long form: from x to x captured squares (any order); or short form from x to.
  Bitboard listed = 0;
  for (std::size_t i = 2; i < squares.size(); ++i) listed |= bit(squares[i]);
  std::vector<Move> matches;
  auto add = [&](const Move& m) {
    if (std::find(matches.begin(), matches.end(), m) == matches.end()) matches.push_back(m);
  };
  for (const Move& m : legal) {
    if (!m.is_capture() || m.from != from || m.to != squares[1]) continue;
    if (squares.size() == 2 ||
        (m.captured == listed && static_cast<std::size_t>(m.capture_count()) == squares.size() - 2))
      add(m);
  }
  if (matches.size() == 1) return matches.front();
  // PDN path form: from x landing x ... x to.
  // A full path (every landing) names one move; the paths the generation walks find it at once
  // unless it is not the path kept for its move.
  if (matches.empty() && squares.size() > 2) {
    for (const MovePath& p : move_paths(v, pos, Paths::OnePerMove))
      if (p.move.is_capture() && p.move.from == from && p.landings.size() + 1 == squares.size() &&
          std::equal(p.landings.begin(), p.landings.end(), squares.begin() + 1))
        return p.move;
  }
  if (matches.empty() && squares.size() > 2) {
    // Every path, since the squares given may fit only some paths of a move; their number can
    // explode in a contrived position, hence a budget (about a tenth of a second).
    std::vector<MovePath> paths;
    try {
      PathBudget budget(kPathSearchSteps);
      const ScopedCaptureGuard guard(&budget);
      paths = move_paths(v, pos, Paths::All);
    } catch (const CaptureSearchAborted&) {
      return fail(MoveError::Kind::Ambiguous,
                  "too many capture paths to match " + std::string(text) +
                      ": give the captured squares instead (from x to x captured...)");
    }
    for (const MovePath& p : paths) {
      if (!p.move.is_capture() || p.move.from != from || p.move.to != squares.back()) continue;
      std::size_t next = 1;  // next listed intermediate square to find along the path
      for (std::size_t i = 0; i + 1 < p.landings.size() && next + 1 < squares.size(); ++i)
        if (p.landings[i] == squares[next]) ++next;
      if (next + 1 == squares.size()) add(p.move);
    }
  }
  if (matches.size() == 1) return matches.front();
  if (matches.size() > 1)
    return fail(MoveError::Kind::Ambiguous,
                "ambiguous move " + std::string(text) + ": list the captured squares");
  if (!must_capture) return fail(MoveError::Kind::Illegal, "no capture is possible here");
  return fail(MoveError::Kind::Illegal, "illegal capture " + std::string(text));
}

bool pydraughts_flips_rows(Variant v) {
  return v == Variant::Russian || v == Variant::Brazilian || v == Variant::Turkish;
}

int flip_rows(Variant v, int n) {
  const BoardShape& b = info(v).board;
  const int per_row = b.squares / b.rows;
  return (b.rows - 1 - (n - 1) / per_row) * per_row + (n - 1) % per_row + 1;
}

}  // namespace tsuru::notation
