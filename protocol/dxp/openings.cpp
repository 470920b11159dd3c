#include "protocol/dxp/openings.hpp"

#include <string>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::dxp {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

bool is_move_number(std::string_view token) {
  const auto digits = token.find_first_not_of("0123456789");
  return digits != 0 && digits != std::string_view::npos &&
         token.substr(digits).find_first_not_of('.') == std::string_view::npos;
}

}  // namespace

Expected<Position> play_moves(Variant v, std::string_view moves) {
  using E = Expected<Position>;
  Position pos = start_position(v);
  bool any = false;
  std::size_t i = 0;
  while (i < moves.size()) {
    const auto start = moves.find_first_not_of(" \t", i);
    if (start == std::string_view::npos) break;
    auto end = moves.find_first_of(" \t", start);
    if (end == std::string_view::npos) end = moves.size();
    const std::string_view token = moves.substr(start, end - start);
    i = end;
    if (is_move_number(token)) continue;
    const auto m = notation::parse_move(v, pos, token);
    if (!m) return E::failure("move '" + std::string(token) + "': " + m.error().message);
    pos.play(*m);
    any = true;
  }
  if (!any) return E::failure("no moves");
  return pos;
}

Expected<std::vector<Position>> parse_openings(Variant v, std::string_view text) {
  using E = Expected<std::vector<Position>>;
  std::vector<Position> out;
  int line_number = 0;
  bool first_data_line = true;
  std::size_t i = 0;
  while (i <= text.size()) {
    auto end = text.find('\n', i);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(i, end - i));
    i = end + 1;
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::string first_error;
    bool found = false;
    std::size_t f = 0;
    while (f <= line.size() && !found) {
      auto tab = line.find('\t', f);
      if (tab == std::string_view::npos) tab = line.size();
      const std::string_view field = trim(line.substr(f, tab - f));
      f = tab + 1;
      if (field.empty()) continue;
      auto pos = notation::parse_position(v, field);
      if (!pos) {
        const auto played = play_moves(v, field);
        if (played) pos = *played;
        if (first_error.empty()) first_error = played ? "" : played.error();
      }
      if (pos) {
        out.push_back(*pos);
        found = true;
      }
    }
    const bool header = first_data_line && line.find('\t') != std::string_view::npos;
    first_data_line = false;
    if (!found && !header)
      return E::failure("line " + std::to_string(line_number) + ": neither a position nor moves (" +
                        first_error + ")");
  }
  if (out.empty()) return E::failure("no openings");
  return out;
}

}  // namespace tsuru::dxp
