// Evaluation weights of the rule sets beyond English and international draughts (weights.hpp
// holds those two and the format). Units: centi-men.
//
// King values follow what a king can do in each game: a flying king on 8x8 dominates the short
// diagonals less than on 10x10 (about 2.5 men); an Italian king cannot be taken by men and is
// worth more than an English one; a Frisian king may capture along eight lines but not move more
// than three times in a row; a Killer king is easier to trap (it halts behind a captured king);
// a Thai king captures only by landing right behind its victim. Breakthrough never sees a king
// in the search (the first one ends the game), so advancement carries the weight there.
#pragma once

#include "engine/rules/rule_sets.hpp"
#include "eval/weights.hpp"

namespace tsuru::eval {

namespace variant_weights {
// 8x8 flying-king games: advancement as English, kings worth about 2.5 men.
constexpr Weights flying8(Score king) {
  return Weights{.man = 100,
                 .king = king,
                 .advance = {0, 2, 4, 7, 10, 14, 18, 0, 0, 0},
                 .centre = 7,
                 .back_guard = 9,
                 .mobility = 2,
                 .locked = 3,
                 .runaway = 35,
                 .runaway_step = 8,
                 .king_diagonal = 12,
                 .king_chase = 4,
                 .trade_bonus = 2};
}
// 10x10 games: international's shape.
constexpr Weights board10(Score king) {
  Weights w = weights<InternationalRules>();
  w.king = king;
  return w;
}
}  // namespace variant_weights

template <>
constexpr Weights weights<BrazilianRules>() {
  return variant_weights::flying8(250);
}
template <>
constexpr Weights weights<RussianRules>() {
  return variant_weights::flying8(250);
}
template <>
constexpr Weights weights<PoolRules>() {
  return variant_weights::flying8(250);
}
template <>
constexpr Weights weights<CzechRules>() {
  return variant_weights::flying8(240);
}
template <>
constexpr Weights weights<SpanishRules>() {
  return variant_weights::flying8(250);
}
template <>
constexpr Weights weights<ThaiRules>() {
  // Eight men each: every man counts for more of the position, kings capture less freely.
  Weights w = variant_weights::flying8(220);
  w.back_guard = 12;
  return w;
}
template <>
constexpr Weights weights<ItalianRules>() {
  // Short kings out of the men's reach (FID 5.3).
  Weights w = weights<EnglishRules>();
  w.king = 160;
  return w;
}
template <>
constexpr Weights weights<FrisianRules>() {
  return variant_weights::board10(260);
}
template <>
constexpr Weights weights<KillerRules>() {
  return variant_weights::board10(250);
}
template <>
constexpr Weights weights<BreakthroughRules>() {
  // The race to the last row is the game: steep advancement, runaway men nearly decisive.
  Weights w = variant_weights::board10(1000);
  w.advance = {0, 3, 6, 10, 15, 22, 32, 48, 80, 0};
  w.runaway = 150;
  w.runaway_step = 40;
  w.back_guard = 15;
  return w;
}
template <>
constexpr Weights weights<AntidraughtsRules>() {
  // Read by eval_antidraughts.hpp as costs: a man 100, a king 150, each quiet move 3; the other
  // terms are not used there.
  Weights w = variant_weights::board10(150);
  w.mobility = 3;
  return w;
}
template <>
constexpr Weights weights<GiveawayRules>() {
  // Read by eval_antidraughts.hpp as costs, as antidraughts' on the 8x8 board: a man 100, a
  // king 150, each quiet move 3; the other terms are not used there.
  Weights w = weights<EnglishRules>();
  w.king = 150;
  w.mobility = 3;
  return w;
}
template <>
constexpr Weights weights<TurkishRules>() {
  // Read by eval_turkish.hpp: advance by ranks from the start rank; king_diagonal is the bonus
  // of a king on an open file or rank; runaway a man with nothing in front of it.
  return Weights{.man = 100,
                 .king = 300,
                 .advance = {0, 0, 3, 7, 12, 20, 35, 0, 0, 0},
                 .centre = 4,
                 .back_guard = 0,
                 .mobility = 1,
                 .locked = 3,
                 .runaway = 40,
                 .runaway_step = 10,
                 .king_diagonal = 6,
                 .king_chase = 4,
                 .trade_bonus = 2};
}

}  // namespace tsuru::eval
