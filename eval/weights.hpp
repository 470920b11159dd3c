// Evaluation weights per rule set, as data. Units: centi-men (a man on its back row is 100).
#pragma once

#include <array>

#include "engine/rules/rules.hpp"
#include "engine/rules/score.hpp"

namespace tsuru::eval {

struct Weights {
  Score man;
  Score king;
  // Bonus for a man by rows advanced from its own back row (index 0 = back row).
  std::array<Score, 10> advance;
  Score centre;         // a man on one of the central squares
  Score back_guard;     // a man still on its own back row (guards the crowning squares)
  Score mobility;       // each quiet move more than the opponent
  Score locked;         // a man with no free square ahead (penalty)
  Score runaway;        // a man with a free run to the crowning row ...
  Score runaway_step;   // ... plus this per row it has already advanced
  Score king_diagonal;  // a king on the long diagonal (flying kings) or centre (short kings)
  Score king_chase;     // kings-only endings: per square of distance between opposing kings
  int trade_bonus;      // when ahead, percent added to the score per piece traded off
};

template <class>
inline constexpr bool kNoWeights = false;

// Every rule set states its weights (a specialisation below or in weights_variants.hpp): a
// default taken from another board or another goal would misjudge it.
template <class R>
constexpr Weights weights() {
  static_assert(kNoWeights<R>,
                "the rule set has no weights entry (eval/weights_variants.hpp; docs/rules.md "
                "\"Adding a rule set\")");
  return Weights{};
}

// English checkers: short kings are worth about 1.4 men; tempo matters less than structure.
template <>
constexpr Weights weights<EnglishRules>() {
  return Weights{.man = 100,
                 .king = 140,
                 .advance = {0, 2, 4, 7, 10, 14, 18, 0, 0, 0},
                 .centre = 8,
                 .back_guard = 10,
                 .mobility = 2,
                 .locked = 3,
                 .runaway = 35,
                 .runaway_step = 8,
                 .king_diagonal = 6,
                 .king_chase = 5,
                 .trade_bonus = 3};
}

// International draughts: flying kings are worth about three men.
template <>
constexpr Weights weights<InternationalRules>() {
  return Weights{.man = 100,
                 .king = 320,
                 .advance = {0, 2, 4, 6, 8, 11, 14, 18, 22, 0},
                 .centre = 5,
                 .back_guard = 6,
                 .mobility = 2,
                 .locked = 3,
                 .runaway = 40,
                 .runaway_step = 10,
                 .king_diagonal = 15,
                 .king_chase = 3,
                 .trade_bonus = 2};
}

}  // namespace tsuru::eval

// The other rule sets' weights.
#include "eval/weights_variants.hpp"  // IWYU pragma: export
