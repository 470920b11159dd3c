// The rule sets Tsuru plays, chosen at run time and dispatched once to the templated code.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "engine/rules/rule_set_list.hpp"

namespace tsuru {

// In registry order (rule_set_list.hpp).
enum class Variant : std::uint8_t {
#define TSURU_VARIANT_ENUM(Id, Trait) Id,
  TSURU_RULE_SETS(TSURU_VARIANT_ENUM)
#undef TSURU_VARIANT_ENUM
};

#define TSURU_COUNT_RULE_SET(Id, Trait) +1
inline constexpr std::size_t kVariantCount = 0 TSURU_RULE_SETS(TSURU_COUNT_RULE_SET);
#undef TSURU_COUNT_RULE_SET

// How a board's playable squares are numbered and named (notation only; never on a hot path).
struct BoardShape {
  int rows = 0;
  int cols = 0;
  int squares = 0;  // playable squares, numbered 1..squares
  Bitboard valid = 0;
  std::array<std::int8_t, 65> bit_of_number{};  // [1..squares]
  std::array<std::int8_t, 64> number_of_bit{};  // 0 for ghost bits
  std::array<std::int8_t, 64> row_of_bit{};     // 0 = top row (square 1's)
  std::array<std::int8_t, 64> col_of_bit{};     // 0 = left edge seen from White
  std::array<Bitboard, 2> promotion_row{};      // by Side

  int number(Square b) const { return number_of_bit[static_cast<std::size_t>(b)]; }
  // The bit of square number n, or -1 when n is not a square of this board.
  Square square(int n) const {
    return n >= 1 && n <= squares ? bit_of_number[static_cast<std::size_t>(n)] : -1;
  }
};

// A rule set's data for the code that chooses it at run time, read from its trait (variant.cpp).
struct VariantInfo {
  Variant id;
  std::string_view name;
  std::string_view description;
  Side first_to_move;
  int pdn_game_type;  // PDN GameType tag number (20 international, 21 English, ...)
  // Algebraic names: false = a1 is White's bottom-left square (diagram convention);
  // true = a1 is the first player's near-left square when that player is Black (seed 000).
  bool algebraic_from_black;
  const BoardShape& board;
  // Squares have no numbers (Turkish): FEN and moves name them algebraically.
  bool algebraic_only = false;
  // Positions carry Frisian king runs (Position::king_run).
  bool king_runs = false;
};

const VariantInfo& info(Variant v);
std::span<const Variant> all_variants();
// Accepts the canonical names and aliases (e.g. "normal" for international).
std::optional<Variant> parse_variant(std::string_view name);
// Space-separated canonical names, for help texts and the Hub enum parameter.
std::string_view variant_names();
// Space-separated aliases, in registry order (`american checkers normal ...`).
std::string_view variant_alias_names();
// Space-separated aliases as "alias=name" pairs (`normal=international ...`), for help texts.
std::string_view variant_aliases();

// Calls f(RulesTrait{}) with the trait of v; the single dispatch point from run time to templates.
template <class F>
decltype(auto) with_rules(Variant v, F&& f) {
  switch (v) {
#define TSURU_WITH_RULES_CASE(Id, Trait) \
  case Variant::Id:                      \
    return f(Trait{});
    TSURU_RULE_SETS(TSURU_WITH_RULES_CASE)
#undef TSURU_WITH_RULES_CASE
  }
  return f(InternationalRules{});  // not reached: every enumerator has its case
}

}  // namespace tsuru
