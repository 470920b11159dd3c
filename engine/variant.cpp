#include "engine/variant.hpp"

#include <array>

namespace tsuru {
namespace {

template <class G>
BoardShape make_shape() {
  BoardShape s;
  s.rows = G::kRows;
  s.cols = G::kCols;
  s.squares = G::kSquares;
  s.valid = G::kValid;
  for (int sq = 0; sq < G::kSquares; ++sq) {
    const auto b = static_cast<std::size_t>(G::square_bit(sq));
    s.bit_of_number[static_cast<std::size_t>(sq + 1)] = static_cast<std::int8_t>(b);
    s.number_of_bit[b] = static_cast<std::int8_t>(sq + 1);
    s.row_of_bit[b] = static_cast<std::int8_t>(G::row_of_square(sq));
    s.col_of_bit[b] = static_cast<std::int8_t>(G::col_of_square(sq));
  }
  s.promotion_row = {G::promotion_row(Side::White), G::promotion_row(Side::Black)};
  return s;
}

const BoardShape kBoard8 = make_shape<Board8>();
const BoardShape kBoard10 = make_shape<Board10>();

const std::array<VariantInfo, 2> kVariants = {{
    {Variant::English, "english", "English/American checkers (WCDF)", Side::Black, 21, true,
     kBoard8},
    {Variant::International, "international", "International draughts (FMJD)", Side::White, 20,
     false, kBoard10},
}};
const std::array<Variant, 2> kAll = {Variant::English, Variant::International};

struct Alias {
  std::string_view name;
  Variant variant;
};
const std::array<Alias, 5> kAliases = {{{"english", Variant::English},
                                        {"checkers", Variant::English},
                                        {"american", Variant::English},
                                        {"international", Variant::International},
                                        {"normal", Variant::International}}};

}  // namespace

const VariantInfo& info(Variant v) {
  return kVariants[static_cast<std::size_t>(v)];
}

std::span<const Variant> all_variants() {
  return kAll;
}

std::optional<Variant> parse_variant(std::string_view name) {
  for (const Alias& a : kAliases)
    if (a.name == name) return a.variant;
  return std::nullopt;
}

std::string_view variant_names() {
  return "english international";
}

}  // namespace tsuru
