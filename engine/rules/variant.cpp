#include "engine/rules/variant.hpp"

#include <array>
#include <string>
#include <vector>

namespace tsuru {
namespace {

// light_a1: the board seen in a mirror (Italian, Spanish). The generator's geometry is the same
// (the rules are symmetric), but the squares are numbered and named from the other edge: the
// internal square on the right end of the top row is a8 and square 1.
template <class G>
BoardShape make_shape(bool light_a1 = false) {
  BoardShape s;
  s.rows = G::kRows;
  s.cols = G::kCols;
  s.squares = G::kSquares;
  s.valid = G::kValid;
  for (int sq = 0; sq < G::kSquares; ++sq) {
    const auto b = static_cast<std::size_t>(G::square_bit(sq));
    const int row = G::row_of_square(sq);
    const int in_row = sq % G::kPerRow;
    const int number = light_a1 ? row * G::kPerRow + (G::kPerRow - 1 - in_row) + 1 : sq + 1;
    s.bit_of_number[static_cast<std::size_t>(number)] = static_cast<std::int8_t>(b);
    s.number_of_bit[b] = static_cast<std::int8_t>(number);
    s.row_of_bit[b] = static_cast<std::int8_t>(row);
    const int col = G::col_of_square(sq);
    s.col_of_bit[b] = static_cast<std::int8_t>(light_a1 ? G::kCols - 1 - col : col);
  }
  s.promotion_row = {G::promotion_row(Side::White), G::promotion_row(Side::Black)};
  return s;
}

// The board of a geometry, numbered as the trait says; one per kind of board.
template <class G, bool LightA1>
const BoardShape kShape = make_shape<G>(LightA1);

// Constant: the table is ready before any code runs (help texts are built by static objects).
template <class R>
constexpr VariantInfo info_of(Variant id) {
  return {id,
          R::kName,
          R::kDescription,
          R::kFirstToMove,
          R::kPdnGameType,
          R::kAlgebraicFromBlack,
          kShape<typename R::Geometry, R::kLightA1>,
          R::kAlgebraicOnly,
          R::kKingMoveLimit > 0};
}

// Calls f on each space-separated word of s.
template <class F>
constexpr void for_each_word(std::string_view s, F&& f) {
  while (!s.empty()) {
    const std::size_t space = s.find(' ');
    f(s.substr(0, space));
    s = space == std::string_view::npos ? std::string_view{} : s.substr(space + 1);
  }
}

// Names and aliases must be distinct and non-empty: a trait derived from another (Killer from
// international) that forgot its own kName would otherwise answer to its base's.
consteval bool names_distinct() {
  std::array<std::string_view, 8 * kVariantCount> words{};
  std::size_t n = 0;
  bool ok = true;
  auto add = [&](std::string_view w) {
    if (w.empty() || n == words.size()) ok = false;
    if (ok) words[n++] = w;
  };
#define TSURU_ADD_NAMES(Id, Trait) \
  add(Trait::kName);               \
  for_each_word(Trait::kAliases, add);
  TSURU_RULE_SETS(TSURU_ADD_NAMES)
#undef TSURU_ADD_NAMES
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (words[i] == words[j]) ok = false;
  return ok;
}
static_assert(names_distinct(), "every rule set needs its own kName, and aliases must not clash");

// In Variant order.
constinit const std::array<VariantInfo, kVariantCount> kVariants = {{
#define TSURU_INFO_ROW(Id, Trait) info_of<Trait>(Variant::Id),
    TSURU_RULE_SETS(TSURU_INFO_ROW)
#undef TSURU_INFO_ROW
}};
const std::array<Variant, kVariantCount> kAll = {{
#define TSURU_ALL_ROW(Id, Trait) Variant::Id,
    TSURU_RULE_SETS(TSURU_ALL_ROW)
#undef TSURU_ALL_ROW
}};

struct Alias {
  std::string_view name;
  Variant variant;
};
// The traits' kAliases, as "alias=name" pairs and as a plain list.
struct AliasTables {
  std::vector<Alias> aliases;
  std::string pairs;
  std::string names;
};
const AliasTables& alias_tables() {
  static const AliasTables t = [] {
    AliasTables a;
    for (Variant v : kAll) {
      const std::string_view text = with_rules(v, []<class R>(R) { return R::kAliases; });
      for_each_word(text, [&](std::string_view w) {
        a.aliases.push_back({w, v});
        a.pairs += (a.pairs.empty() ? "" : " ") + std::string(w) + "=" + std::string(info(v).name);
        a.names += (a.names.empty() ? "" : " ") + std::string(w);
      });
    }
    return a;
  }();
  return t;
}

}  // namespace

const VariantInfo& info(Variant v) {
  return kVariants[static_cast<std::size_t>(v)];
}

std::span<const Variant> all_variants() {
  return kAll;
}

std::optional<Variant> parse_variant(std::string_view name) {
  for (Variant v : kAll)
    if (info(v).name == name) return v;
  for (const Alias& a : alias_tables().aliases)
    if (a.name == name) return a.variant;
  return std::nullopt;
}

std::string_view variant_names() {
  static const std::string names = [] {
    std::string s;
    for (Variant v : kAll) s += (s.empty() ? "" : " ") + std::string(info(v).name);
    return s;
  }();
  return names;
}

std::string_view variant_alias_names() {
  return alias_tables().names;
}

std::string_view variant_aliases() {
  return alias_tables().pairs;
}

}  // namespace tsuru
