#include "tools/match/openings.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <random>
#include <sstream>

#include "book/ballots.hpp"
#include "engine/rules/notation.hpp"

namespace tsuru::match {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A uniform index below n. Written out (not std::uniform_int_distribution, whose algorithm
// differs between standard libraries) so a seed gives the same openings everywhere.
std::size_t pick(std::mt19937_64& rng, std::size_t n) {
  return static_cast<std::size_t>(rng() % n);
}

}  // namespace

Game opening_game(Variant v, const Opening& opening) {
  Game game(v, opening.start);
  for (const Move& m : opening.moves) game.play(m);
  return game;
}

Expected<std::vector<Opening>> ballot_openings(Variant v, std::uint64_t seed) {
  using E = Expected<std::vector<Opening>>;
  if (v != Variant::English)
    return E::failure(
        "the ballots are English 3-move openings; use --openings FILE or random:N for " +
        std::string(info(v).name));
  std::vector<Opening> out;
  for (const book::Ballot& b : book::english_ballots()) {
    if (!b.standard) continue;  // barred as a known loss
    Opening o;
    o.start = start_position(v);
    Game game(v);
    std::istringstream moves{std::string(b.moves)};
    for (std::string text; moves >> text;) {
      auto m = notation::parse_move(v, game.position(), text);
      if (!m) {
        // The deck writes jumps with '-' too (13-22 in ballot 4).
        std::string jump = text;
        std::replace(jump.begin(), jump.end(), '-', 'x');
        m = notation::parse_move(v, game.position(), jump);
      }
      if (!m || !game.play(*m))
        return E::failure("ballot " + std::string(b.id) + ": bad move " + text);
      o.moves.push_back(*m);
    }
    o.name = "ballot " + std::string(b.id) + ": " + std::string(b.moves);
    out.push_back(std::move(o));
  }
  // Shuffle the deck so a short match does not always draw the same ballots.
  std::mt19937_64 rng(seed);
  for (std::size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[pick(rng, i)]);
  return out;
}

Expected<std::vector<Opening>> random_openings(Variant v, int plies, std::uint64_t seed,
                                               int count) {
  using E = Expected<std::vector<Opening>>;
  if (plies < 0 || plies > 200) return E::failure("random:N needs 0 <= N <= 200");
  std::mt19937_64 rng(seed);
  std::vector<Opening> out;
  for (int k = 0; k < count; ++k) {
    // A line that ends the game before N plies is drawn again.
    bool found = false;
    for (int attempt = 0; attempt < 1000 && !found; ++attempt) {
      Game game(v);
      Opening o;
      o.start = game.position();
      while (static_cast<int>(o.moves.size()) < plies &&
             game.result().outcome == Outcome::Ongoing) {
        const MoveList moves = game.legal_moves();
        const Move m = moves[pick(rng, moves.size())];
        game.play(m);
        o.moves.push_back(m);
      }
      if (game.result().outcome != Outcome::Ongoing) continue;
      o.name = "random " + std::to_string(k + 1) + ":";
      for (std::size_t i = 0; i < o.moves.size(); ++i)
        o.name += ' ' + notation::format_move_pdn(v, game.positions()[i], o.moves[i]);
      out.push_back(std::move(o));
      found = true;
    }
    if (!found)
      return E::failure("cannot find a random opening of " + std::to_string(plies) +
                        " plies that does not end the game");
  }
  return out;
}

Expected<std::vector<Opening>> read_opening_file(Variant v, std::istream& in,
                                                 const std::string& name) {
  using E = Expected<std::vector<Opening>>;
  std::vector<Opening> out;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::string_view text = trim(line);
    if (text.empty() || text[0] == '#') continue;
    if (text.starts_with("[")) {
      // A PDN tag line: only [FEN "..."] carries a position.
      if (!text.starts_with("[FEN")) continue;
      const std::size_t open = text.find('"'), close = text.rfind('"');
      if (open == std::string_view::npos || close <= open)
        return E::failure(name + ":" + std::to_string(number) + ": bad FEN tag");
      text = text.substr(open + 1, close - open - 1);
    }
    const auto pos = notation::parse_position(v, text);
    if (!pos) return E::failure(name + ":" + std::to_string(number) + ": " + pos.error());
    if (Game(v, *pos).result().outcome != Outcome::Ongoing)
      return E::failure(name + ":" + std::to_string(number) + ": the game is already over");
    out.push_back({name + ":" + std::to_string(number), *pos, {}});
  }
  if (out.empty()) return E::failure("no positions in " + name);
  return out;
}

Expected<std::vector<Opening>> load_openings(Variant v, std::string_view spec, std::uint64_t seed,
                                             int wanted) {
  using E = Expected<std::vector<Opening>>;
  if (spec == "ballots") return ballot_openings(v, seed);
  if (spec.starts_with("random:")) {
    const std::string_view n = spec.substr(7);
    int plies = -1;
    const auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), plies);
    if (n.empty() || ec != std::errc{} || ptr != n.data() + n.size())
      return E::failure("bad --openings '" + std::string(spec) + "': expected random:N");
    return random_openings(v, plies, seed, std::max(1, wanted));
  }
  std::ifstream file{std::string(spec)};
  if (!file) return E::failure("cannot open openings file '" + std::string(spec) + "'");
  return read_opening_file(v, file, std::string(spec));
}

}  // namespace tsuru::match
