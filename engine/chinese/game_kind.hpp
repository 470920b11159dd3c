// Which game a front end plays. Chinese checkers is not one of the draughts rule sets
// (engine/rules/variant.hpp): another board, other moves, other positions. Front ends check the
// variant name with is_chinese() before they parse it as a draughts rule set, and hand the
// Chinese game to its own engine (engine/chinese/) and adapters.
#pragma once

#include <string_view>

namespace tsuru {

enum class GameKind : unsigned char { Draughts, Chinese };

inline constexpr std::string_view kChineseName = "chinese";

constexpr bool is_chinese(std::string_view variant_name) {
  return variant_name == kChineseName;
}
constexpr GameKind game_kind(std::string_view variant_name) {
  return is_chinese(variant_name) ? GameKind::Chinese : GameKind::Draughts;
}

}  // namespace tsuru
