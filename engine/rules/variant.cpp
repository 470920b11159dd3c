#include "engine/rules/variant.hpp"

#include <array>

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

const BoardShape kBoard8 = make_shape<Board8>();
const BoardShape kBoard8LightA1 = make_shape<Board8>(true);
const BoardShape kBoard10 = make_shape<Board10>();
const BoardShape kBoard64 = make_shape<SquareBoard8>();

// In Variant order. PDN GameType numbers from the PDN standard; Killer and antidraughts have
// none of their own (20, the board's), Breakthrough uses lidraughts' 96.
const std::array<VariantInfo, 14> kVariants = {{
    {Variant::English, "english", "English/American checkers (WCDF)", Side::Black, 21, true,
     kBoard8},
    {Variant::International, "international", "International draughts (FMJD)", Side::White, 20,
     false, kBoard10},
    {Variant::Brazilian, "brazilian", "Brazilian draughts (FMJD rules on 8x8)", Side::White, 26,
     false, kBoard8},
    {Variant::Russian, "russian", "Russian draughts (shashki)", Side::White, 25, false, kBoard8},
    {Variant::Pool, "pool", "American pool checkers (APCA)", Side::Black, 23, true, kBoard8},
    {Variant::Czech, "czech", "Czech draughts", Side::White, 29, false, kBoard8},
    {Variant::Spanish, "spanish", "Spanish draughts", Side::White, 24, false, kBoard8LightA1},
    {Variant::Italian, "italian", "Italian draughts (FID)", Side::White, 22, false, kBoard8LightA1},
    {Variant::Thai, "thai", "Thai draughts (mak-hot)", Side::White, 31, false, kBoard8},
    {Variant::Turkish, "turkish", "Turkish draughts (dama)", Side::White, 30, false, kBoard64,
     true},
    {Variant::Frisian, "frisian", "Frisian draughts", Side::White, 40, false, kBoard10, false,
     true},
    {Variant::Killer, "killer", "Killer draughts", Side::White, 20, false, kBoard10},
    {Variant::Breakthrough, "breakthrough", "Breakthrough draughts (first king wins)", Side::White,
     96, false, kBoard10},
    {Variant::Antidraughts, "antidraughts", "Antidraughts (FMJD moves; whoever cannot move wins)",
     Side::White, 20, false, kBoard10},
}};
const std::array<Variant, 14> kAll = {
    Variant::English,      Variant::International, Variant::Brazilian, Variant::Russian,
    Variant::Pool,         Variant::Czech,         Variant::Spanish,   Variant::Italian,
    Variant::Thai,         Variant::Turkish,       Variant::Frisian,   Variant::Killer,
    Variant::Breakthrough, Variant::Antidraughts};

struct Alias {
  std::string_view name;
  Variant variant;
};
// pydraughts and lidraughts send `standard` and `normal` for international, `bt` for
// Breakthrough, `losing` for antidraughts (Scan's Hub names), `american` for English.
const std::array<Alias, 20> kAliases = {{{"english", Variant::English},
                                         {"checkers", Variant::English},
                                         {"american", Variant::English},
                                         {"international", Variant::International},
                                         {"normal", Variant::International},
                                         {"standard", Variant::International},
                                         {"brazilian", Variant::Brazilian},
                                         {"russian", Variant::Russian},
                                         {"pool", Variant::Pool},
                                         {"czech", Variant::Czech},
                                         {"spanish", Variant::Spanish},
                                         {"italian", Variant::Italian},
                                         {"thai", Variant::Thai},
                                         {"turkish", Variant::Turkish},
                                         {"frisian", Variant::Frisian},
                                         {"killer", Variant::Killer},
                                         {"breakthrough", Variant::Breakthrough},
                                         {"bt", Variant::Breakthrough},
                                         {"antidraughts", Variant::Antidraughts},
                                         {"losing", Variant::Antidraughts}}};

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
  return "english international brazilian russian pool czech spanish italian thai turkish "
         "frisian killer breakthrough antidraughts";
}

std::string_view variant_aliases() {
  return "checkers=english american=english normal=international standard=international "
         "bt=breakthrough losing=antidraughts";
}

}  // namespace tsuru
