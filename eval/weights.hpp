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

// The default for a rule set: men and kings valued by how far kings reach.
template <class R>
constexpr Weights weights() {
  using G = typename R::Geometry;
  Weights w{};
  w.man = 100;
  w.king = R::kFlyingKings ? 300 : 140;
  for (int i = 0; i < G::kRows && i < 10; ++i) w.advance[static_cast<std::size_t>(i)] = i * 3;
  w.centre = 6;
  w.back_guard = 8;
  w.mobility = 2;
  w.locked = 4;
  w.runaway = 30;
  w.runaway_step = 8;
  w.king_diagonal = 10;
  w.king_chase = 4;
  w.trade_bonus = 2;
  return w;
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
