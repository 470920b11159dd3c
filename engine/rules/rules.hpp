// Rule sets as traits. Move generation, draw rules and search are templates over one of these;
// the rule set is chosen once, at the boundary (see variant.hpp). Each trait cites the rule it
// encodes; docs/rules.md describes every rule set as these traits play it.
#pragma once

#include <string_view>

#include "engine/rules/geometry.hpp"

namespace tsuru {

enum class CapturePriority : std::uint8_t {
  FreeChoice,  // any capture may be chosen; the chosen sequence must be completed
  Majority,    // the sequence capturing the most pieces (kings and men count one each)
  // The priorities below rank a capture by a key (MoveGen's capture_rank); only the highest
  // key is legal.
  KingFirst,          // Czech: a king must capture when one can; otherwise free choice
  MajorityThenKings,  // Spanish: most pieces, then most kings
  Italian,            // most pieces, then with a king, then most kings, then kings met first
  FrisianValue,       // highest value (a king is worth just under two men), then with a king
};

// What happens when a man reaches the promotion row in the middle of a capture.
enum class CrownInCapture : std::uint8_t {
  AtEndOnly,       // it stays a man and goes on capturing; crowned only if the move ends there
  ContinueAsKing,  // crowned at once and continues capturing as a king (Russian)
};

// Move-count limits of the other federations, counted from the moment the material arose (see
// draw_rules.hpp for each one's source).
enum class EndgameRule : std::uint8_t {
  None,
  Fmjd64,   // FMJD-64 (IDF) 7.2.4-7.2.8: Russian and Brazilian
  Pool,     // APCA: three kings against one king, 13 moves
  Spanish,  // three kings against one king, 12 moves
  Frisian,  // two kings against one, 7 moves each; one king each, 2 moves each
  Turkish,  // one piece each: a draw at once
};

// What the evaluation knows of a rule set's endgames (eval/eval.hpp): which material cannot beat
// a lone king depends on the board and on how far kings move and capture, so every trait states
// it (kEndgames, no default); the evaluation checks it against the board and the kings.
enum class Endgames : std::uint8_t {
  // Flying kings on 10x10 (FMJD): one or two pieces cannot beat a lone king, nor three while it
  // stands on the long diagonal; three against it off the diagonal keep a quarter of their score
  // (the 16-move limit leaves them little time).
  Flying10,
  // Short kings (English, Italian): one piece cannot beat a lone king.
  ShortKings,
  // Flying kings on 8x8 (eval_variants.hpp): two pieces cannot catch a lone king; three can,
  // unless it holds the long diagonal and the stronger side has no piece on it.
  Flying8,
  // Kings that catch a lone king more easily (eval_variants.hpp; Thai and Killer kings, and
  // Frisian ones sometimes): only one piece cannot.
  OnePieceDraws,
  // Turkish: its own evaluator for orthogonal moves (eval_turkish.hpp); one piece each is a draw
  // by rule.
  Turkish,
  // The side that cannot move wins (eval_losing.hpp): material and mobility count against, and
  // the normal game's endgame knowledge does not apply. Goes with kNoMoveWins.
  Losing,
};

// Draw-rule parameters; a value of 0 disables the rule.
struct DrawLimits {
  int reversible_plies;  // plies in a row with no man move and no capture
  int total_plies;       // plies since the game started
  bool endgame_limits;   // FMJD 16/5-move endgame limits (see draw_rules.hpp)
  EndgameRule endgame_rule = EndgameRule::None;
  int repetitions = 3;  // the occurrence of a position that draws the game
};

// What every trait states, with no default (the registry, rule_set_list.hpp, checks that names
// and aliases are unique, so a trait derived from another must give its own):
//   kName          the canonical name (`--variant`, Hub `variant`, book and egdb headers);
//   kAliases       other names clients send, space-separated ("" for none);
//   kDescription   one line for help texts;
//   kPdnGameType   the PDN GameType tag number (the PDN standard's; 20, the board's, where a
//                  game has none of its own);
//   kEndgames      what the evaluation knows of its endgames (above);
//   Geometry, kFirstToMove, kStartRows, kMenCaptureBackward, kFlyingKings, kPriority, kCrown,
//   kDraws         the rules below.
// Traits every rule set shares unless it says otherwise. English and international draughts (the
// hot path) keep every default; the other rule sets (rule_sets.hpp) override what their rules
// need, each branch on them compiled away elsewhere.
struct RuleDefaults {
  static constexpr int kStartGap = 0;  // empty rows between a side's men and its back row
  // Italian 5.3: a man may not capture a king.
  static constexpr bool kMenCaptureKings = true;
  // Killer: a king whose last captured piece is a king halts right behind it.
  static constexpr bool kHaltBehindKing = false;
  // Breakthrough: the first side to make a king wins; a position with a king is final.
  static constexpr bool kFirstKingWins = false;
  // Antidraughts: the side to move that cannot move (no pieces, or all blocked) wins.
  static constexpr bool kNoMoveWins = false;
  // Frisian: a king may make at most this many non-capturing moves in a row (0: no limit).
  static constexpr int kKingMoveLimit = 0;
  // Italian and Spanish boards: a1 is a light square, so square 1 is a8 (notation only).
  static constexpr bool kLightA1 = false;
  // Rule sets whose moves are not all diagonal steps use the line generator (movegen_lines.hpp).
  static constexpr bool kLineMoves = false;
  // Algebraic names (notation only): false = a1 is White's bottom-left square (diagram
  // convention); true = a1 is the first player's near-left square when that player is Black.
  static constexpr bool kAlgebraicFromBlack = false;
  // Squares have no numbers (Turkish): FEN and moves name them algebraically.
  static constexpr bool kAlgebraicOnly = false;
};

// English / American checkers, WCDF rules (docs/rules.md "English / American checkers").
struct EnglishRules : RuleDefaults {
  static constexpr std::string_view kName = "english";
  static constexpr std::string_view kAliases = "american checkers";
  static constexpr std::string_view kDescription = "English/American checkers (WCDF)";
  static constexpr int kPdnGameType = 21;
  static constexpr bool kAlgebraicFromBlack = true;
  using Geometry = Board8;
  static constexpr Side kFirstToMove = Side::Black;   // Black moves first
  static constexpr int kStartRows = 3;                // 12 men each
  static constexpr bool kMenCaptureBackward = false;  // men capture forward only
  static constexpr bool kFlyingKings = false;         // kings move one square
  static constexpr CapturePriority kPriority = CapturePriority::FreeChoice;  // any capture
  // A man reaching the far row by capture is crowned and the move ends. Men capture forward
  // only, so no capture can continue from the far row anyway.
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  // 40 moves each without man move or capture; 400 moves (plies) in total.
  static constexpr DrawLimits kDraws{80, 400, false, EndgameRule::None, 3};
  static constexpr Endgames kEndgames = Endgames::ShortKings;
};

// International draughts, FMJD rules (docs/rules.md "International draughts").
struct InternationalRules : RuleDefaults {
  static constexpr std::string_view kName = "international";
  static constexpr std::string_view kAliases = "normal standard";
  static constexpr std::string_view kDescription = "International draughts (FMJD)";
  static constexpr int kPdnGameType = 20;
  using Geometry = Board10;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 4;               // 20 men each
  static constexpr bool kMenCaptureBackward = true;  // men capture forward and backward
  static constexpr bool kFlyingKings = true;         // kings fly (FMJD 3.9, 4.3)
  static constexpr CapturePriority kPriority = CapturePriority::Majority;  // FMJD 4.13
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;      // FMJD 4.15
  // 25 moves each with only kings moving; 16/5-move endgame limits (FMJD 6.1-6.3).
  static constexpr DrawLimits kDraws{50, 0, true, EndgameRule::None, 3};
  static constexpr Endgames kEndgames = Endgames::Flying10;
};

}  // namespace tsuru
