// The registry of rule sets: each rule set is named once here, as X(Id, Trait), and everything
// that exists once per rule set is generated from these lists - the Variant enum and the
// with_rules dispatch (variant.hpp), the name, alias and board tables (variant.cpp), the
// explicit instantiations of search and perft (search_variants.cpp, perft_variants.cpp) - while
// the data of a rule set (its names, PDN GameType, board, first player, evaluation knowledge)
// lives in its trait. docs/rules.md "Adding a rule set" says what a new line needs.
//
// English and international draughts come first and apart: their search and perft have
// translation units of their own (search_english.cpp, search_international.cpp,
// perft_english.cpp, perft_international.cpp) so that the hot paths compile, and are inlined, on
// their own. A new rule set goes at the end of TSURU_OTHER_RULE_SETS: the order is the enum's,
// and tables and files (book headers, egdb names) use the names, never the numbers.
#pragma once

#include "engine/rules/rule_sets.hpp"

// clang-format off
#define TSURU_HOT_RULE_SETS(X)              \
  X(English, EnglishRules)                  \
  X(International, InternationalRules)

#define TSURU_OTHER_RULE_SETS(X)            \
  X(Brazilian, BrazilianRules)              \
  X(Russian, RussianRules)                  \
  X(Pool, PoolRules)                        \
  X(Czech, CzechRules)                      \
  X(Spanish, SpanishRules)                  \
  X(Italian, ItalianRules)                  \
  X(Thai, ThaiRules)                        \
  X(Turkish, TurkishRules)                  \
  X(Frisian, FrisianRules)                  \
  X(Killer, KillerRules)                    \
  X(Breakthrough, BreakthroughRules)        \
  X(Antidraughts, AntidraughtsRules)        \
  X(Giveaway, GiveawayRules)
// clang-format on

#define TSURU_RULE_SETS(X) TSURU_HOT_RULE_SETS(X) TSURU_OTHER_RULE_SETS(X)
