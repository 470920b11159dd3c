// The rule sets beyond English and international draughts, as traits (see rules.hpp for the
// meaning of each field). Each trait cites the rule text it encodes; where sources disagree
// (docs/rules.md, "Readings chosen") the comment says which reading was chosen and why.
// The draw rules' sources are quoted next to each kDraws.
#pragma once

#include <array>
#include <initializer_list>

#include "engine/rules/geometry_lines.hpp"
#include "engine/rules/rules.hpp"

namespace tsuru {

// Brazilian draughts: the FMJD international rules on the 8x8 board (docs/rules.md; dctl
// `brazilian = international`): men capture backwards, flying kings, majority capture, crowned
// only where the move ends.
struct BrazilianRules : RuleDefaults {
  static constexpr std::string_view kName = "brazilian";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Brazilian draughts (FMJD rules on 8x8)";
  static constexpr int kPdnGameType = 26;
  using Geometry = Board8;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 3;
  static constexpr bool kMenCaptureBackward = true;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::Majority;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  // FMJD-64 rules 7.2.3-7.2.8, the ones lidraughts applies to Brazilian and Russian alike
  // (draw_rules.hpp): 15 moves each with only kings moving; lone-king limits.
  static constexpr DrawLimits kDraws{30, 0, false, EndgameRule::Fmjd64, 3};
  static constexpr Endgames kEndgames = Endgames::Flying8;
};

// Russian draughts (shashki), Kodeks 2004 / FMJD-64: men capture backwards (1.5.3), flying
// kings (1.4.5), free choice of capture (1.5.5), and a man crowned during a capture goes on
// capturing as a king (1.5.15).
struct RussianRules : RuleDefaults {
  static constexpr std::string_view kName = "russian";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Russian draughts (shashki)";
  static constexpr int kPdnGameType = 25;
  using Geometry = Board8;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 3;
  static constexpr bool kMenCaptureBackward = true;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::FreeChoice;
  static constexpr CrownInCapture kCrown = CrownInCapture::ContinueAsKing;
  static constexpr DrawLimits kDraws{30, 0, false, EndgameRule::Fmjd64, 3};
  static constexpr Endgames kEndgames = Endgames::Flying8;
};

// American pool checkers, APCA tournament rules: Black moves first (rule 7) from squares 1-12
// (rule 5); men capture backwards (14); flying kings (15); free choice (20); a man is crowned
// only if its move ends on the far row (16, 22, 23); pieces removed after the move (19).
struct PoolRules : RuleDefaults {
  static constexpr std::string_view kName = "pool";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "American pool checkers (APCA)";
  static constexpr int kPdnGameType = 23;
  static constexpr bool kAlgebraicFromBlack = true;
  using Geometry = Board8;
  static constexpr Side kFirstToMove = Side::Black;
  static constexpr int kStartRows = 3;
  static constexpr bool kMenCaptureBackward = true;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::FreeChoice;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  // APCA 26 (as dctl's pool trait reads it): 15 moves each without a man move or capture;
  // three kings against one king: won within 13 moves or drawn (Black & Waters 1947, rule 31;
  // APCA playing rules).
  static constexpr DrawLimits kDraws{30, 0, false, EndgameRule::Pool, 3};
  static constexpr Endgames kEndgames = Endgames::Flying8;
};

// Czech draughts, Czech Draughts Federation rules (damweb.cz/pravidla/cdfull.html): men move and
// capture forward only (4.1), flying kings (3.9), and when a king can capture a king must
// capture (4.14); otherwise free choice.
struct CzechRules : RuleDefaults {
  static constexpr std::string_view kName = "czech";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Czech draughts";
  static constexpr int kPdnGameType = 29;
  using Geometry = Board8;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 3;
  static constexpr bool kMenCaptureBackward = false;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::KingFirst;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  // The federation's rules name no move counter (a game is drawn when no further capture is
  // possible with correct play, which is for the players to agree): threefold repetition only.
  static constexpr DrawLimits kDraws{0, 0, false, EndgameRule::None, 3};
  static constexpr Endgames kEndgames = Endgames::Flying8;
};

// Spanish (and Portuguese classic) draughts, FPD "Regras Damas Clássicas": the light-a1 board
// (square 1 = a8), men move and capture forward only, flying kings, most pieces and then most
// kings must be captured.
struct SpanishRules : RuleDefaults {
  static constexpr std::string_view kName = "spanish";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Spanish draughts";
  static constexpr int kPdnGameType = 24;
  using Geometry = Board8;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 3;
  static constexpr bool kMenCaptureBackward = false;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::MajorityThenKings;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  static constexpr bool kLightA1 = true;
  // FPD rules 14: threefold repetition; the limited-move law for three kings against one:
  // 12 moves (as Spanish and Portuguese players apply it; playstrategy.org rules discussion).
  static constexpr DrawLimits kDraws{0, 0, false, EndgameRule::Spanish, 3};
  static constexpr Endgames kEndgames = Endgames::Flying8;
};

// Italian draughts, FID Regolamento Tecnico 2008, Capo I: light-a1 board (2.3), men move and
// capture forward only (5.3a) and may not capture a king (5.3b), kings move one square (4.7);
// captures: most pieces (6.6), then with a king (6.7), then most kings (6.8), then the one that
// meets a king first (6.9). With two or more kings captured, 6.9 is read as comparing the order
// of every captured king (earlier is better), as dctl and refgen do; pydraughts compares only
// the first king (docs/rules.md). The readings differ only on ties the published perft never
// reaches.
struct ItalianRules : RuleDefaults {
  static constexpr std::string_view kName = "italian";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Italian draughts (FID)";
  static constexpr int kPdnGameType = 22;
  using Geometry = Board8;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 3;
  static constexpr bool kMenCaptureBackward = false;
  static constexpr bool kFlyingKings = false;
  static constexpr CapturePriority kPriority = CapturePriority::Italian;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  static constexpr bool kMenCaptureKings = false;
  static constexpr bool kLightA1 = true;
  // FID 9.3(b1): the fourth occurrence of a position; 10.4: 40 moves each without a man move
  // or a capture (both as encoded in dctl's italian trait).
  static constexpr DrawLimits kDraws{80, 0, false, EndgameRule::None, 4};
  static constexpr Endgames kEndgames = Endgames::ShortKings;
};

// Killer draughts (mindsports.nl): international rules, except that a king whose last captured
// piece is a king must stop on the square right behind it. Only the final landing is restricted
// (dctl `is_halt_behind_king`); "Killer Light" restricts it in multi-captures only and is a
// different game.
struct KillerRules : InternationalRules {
  static constexpr std::string_view kName = "killer";  // PDN: no GameType of its own
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Killer draughts";
  static constexpr int kPdnGameType = 20;
  static constexpr bool kHaltBehindKing = true;
  static constexpr Endgames kEndgames = Endgames::OnePieceDraws;
};

// Breakthrough (lidraughts variant/Breakthrough.scala): international rules; the first side to
// make a king wins.
struct BreakthroughRules : InternationalRules {
  static constexpr std::string_view kName = "breakthrough";
  static constexpr std::string_view kAliases = "bt";
  static constexpr std::string_view kDescription = "Breakthrough draughts (first king wins)";
  static constexpr int kPdnGameType = 96;  // lidraughts' number
  static constexpr bool kFirstKingWins = true;
  // No king ever stays on the board, so only repetition can draw (men always move forward).
  static constexpr DrawLimits kDraws{0, 0, false, EndgameRule::None, 3};
};

// Antidraughts (losing draughts; docs/rules.md; lidraughts variant/Antidraughts.scala,
// Scan's `losing`): the FMJD international moves and captures unchanged (majority capture,
// flying kings, crowned only where the move ends), but the side to move that cannot move - no
// pieces left, or every piece blocked - wins. Draw rules: threefold repetition and the FMJD
// 25-move rule (25 moves each with only kings moving, FMJD 6.1), which needs no assumption
// about who is winning; the FMJD 16/5-move endgame limits (6.2, 6.3) are left out, as they
// measure whether material can force a win in the normal game.
struct AntidraughtsRules : InternationalRules {
  // `losing` is Scan's Hub name; PDN: no GameType of its own.
  static constexpr std::string_view kName = "antidraughts";
  static constexpr std::string_view kAliases = "losing";
  static constexpr std::string_view kDescription =
      "Antidraughts (FMJD moves; whoever cannot move wins)";
  static constexpr int kPdnGameType = 20;
  static constexpr bool kNoMoveWins = true;
  static constexpr DrawLimits kDraws{50, 0, false, EndgameRule::None, 3};
  static constexpr Endgames kEndgames = Endgames::Losing;
};

// English giveaway checkers (also suicide checkers, anti-checkers; docs/rules.md): English
// moves and captures unchanged (short kings, men move and capture forward only, capture
// compulsory with free choice), but the side to move that cannot move - no pieces left, or
// every piece blocked - wins, as in antidraughts. Draw rules: English's (40 moves each without a
// man move or capture, 400 plies in total, threefold repetition), which assume nothing about
// who is winning. PDN: no GameType of its own, the English board's 21.
struct GiveawayRules : EnglishRules {
  static constexpr std::string_view kName = "giveaway";
  static constexpr std::string_view kAliases = "english-giveaway suicide-checkers anti-checkers";
  static constexpr std::string_view kDescription =
      "English giveaway checkers (English moves; whoever cannot move wins)";
  static constexpr bool kNoMoveWins = true;
  static constexpr Endgames kEndgames = Endgames::Losing;
};

// The rule sets of the line generator: directions are LineGeometry numbers, sets are bit masks.
constexpr unsigned direction_set(std::initializer_list<int> ds) {
  unsigned m = 0;
  for (int d : ds) m |= 1U << d;
  return m;
}

// Thai draughts (mak-hot; mindsports.nl Thai page, checkers.fandom Mak-hot, coldmoon.io): 8 men
// each on two rows, men move and capture forward only, a man crowned by a capture ends the
// move, kings move any distance but capture only by landing right behind the captured piece,
// which is removed at once; free choice. A king may turn back (180 degrees) between captures:
// fandom and coldmoon say so and dctl allows it; mindsports' "same or perpendicular direction"
// is the minority reading (docs/rules.md). Who moves first varies by source; White here.
struct ThaiRules : RuleDefaults {
  static constexpr std::string_view kName = "thai";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Thai draughts (mak-hot)";
  static constexpr int kPdnGameType = 31;
  using Geometry = Board8;
  using Lines = Diagonal8Lines;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 2;
  static constexpr bool kMenCaptureBackward = false;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::FreeChoice;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  static constexpr bool kLineMoves = true;
  static constexpr std::array<unsigned, 2> kManMoves = {
      direction_set({line_dir::kUpLeft, line_dir::kUpRight}),
      direction_set({line_dir::kDownLeft, line_dir::kDownRight})};
  static constexpr std::array<unsigned, 2> kManCaptures = kManMoves;
  static constexpr unsigned kKingMoves = 0xF;
  static constexpr unsigned kKingCaptures = 0xF;
  static constexpr bool kKingLandsBehind = true;
  static constexpr bool kRemoveAtOnce = true;
  static constexpr bool kKingMayReverse = true;
  static constexpr std::array<Direction, 2> forward(Side s) {
    return s == Side::White ? std::array<Direction, 2>{Direction::UpLeft, Direction::UpRight}
                            : std::array<Direction, 2>{Direction::DownLeft, Direction::DownRight};
  }
  // No move-count rule in the sources: threefold repetition only.
  static constexpr DrawLimits kDraws{0, 0, false, EndgameRule::None, 3};
  static constexpr Endgames kEndgames = Endgames::OnePieceDraws;
};

// Frisian draughts (friesdammen.nl, as dctl's frisian trait; mindsports Frisian page): men move
// one square diagonally forward; men and kings capture in eight directions (diagonal and
// orthogonal, the orthogonal neighbour being two files or ranks away); kings move diagonally
// only; captured pieces stay until the move ends; crowned only where the move ends. Priority:
// the highest value, where n kings are worth more than 2n-1 and less than 2n men (dctl and
// lidraughts: man 100, king 199; Wikipedia's "a man and a half" is the minority reading,
// docs/rules.md), then a capture with a king. A king may make at most three non-capturing
// moves in a row while its side still has men; moving another king, a man, or any capture
// starts the count again (mindsports; lidraughts Frisian.scala).
struct FrisianRules : RuleDefaults {
  static constexpr std::string_view kName = "frisian";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Frisian draughts";
  static constexpr int kPdnGameType = 40;
  using Geometry = Board10;
  using Lines = FrisianLines;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 4;
  static constexpr bool kMenCaptureBackward = true;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::FrisianValue;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  static constexpr int kKingMoveLimit = 3;
  static constexpr bool kLineMoves = true;
  static constexpr std::array<unsigned, 2> kManMoves = {
      direction_set({line_dir::kUpLeft, line_dir::kUpRight}),
      direction_set({line_dir::kDownLeft, line_dir::kDownRight})};
  static constexpr std::array<unsigned, 2> kManCaptures = {0xFF, 0xFF};
  static constexpr unsigned kKingMoves = 0xF;
  static constexpr unsigned kKingCaptures = 0xFF;
  static constexpr bool kKingLandsBehind = false;
  static constexpr bool kRemoveAtOnce = false;
  static constexpr bool kKingMayReverse = false;
  static constexpr std::array<Direction, 2> forward(Side s) { return ThaiRules::forward(s); }
  // Two kings against one king: 7 moves each; one king each: 2 moves each (lidraughts, whose
  // reading of "drawn at once unless a king can be won by force" is kept; see draw_rules.hpp).
  static constexpr DrawLimits kDraws{0, 0, false, EndgameRule::Frisian, 3};
  static constexpr Endgames kEndgames = Endgames::OnePieceDraws;
};

// Turkish draughts (dama): all 64 squares, 16 men each on the second and third ranks, White
// first; men move and capture one square forward or sideways, never back; kings move and
// capture like rooks, landing anywhere beyond; captured pieces are removed at once, and a
// capturing piece may not turn 180 degrees between two captures; the maximum number of pieces
// must be captured (Wikipedia; iggamecenter; mindsports; damaturk.com citing Örnek 1974).
// A man that reaches the back rank during a capture goes on capturing as a man and is crowned
// only where the move ends (docs/rules.md; Wikipedia's older text, iggamecenter, pydraughts;
// damaturk.com: the majority obligation holds "even for a piece that has reached the king
// row", which rules out the move simply ending there).
struct TurkishRules : RuleDefaults {
  static constexpr std::string_view kName = "turkish";
  static constexpr std::string_view kAliases = "";
  static constexpr std::string_view kDescription = "Turkish draughts (dama)";
  static constexpr int kPdnGameType = 30;
  static constexpr bool kAlgebraicOnly = true;
  using Geometry = SquareBoard8;
  using Lines = OrthogonalLines;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 2;
  static constexpr int kStartGap = 1;
  static constexpr bool kMenCaptureBackward = false;
  static constexpr bool kFlyingKings = true;
  static constexpr CapturePriority kPriority = CapturePriority::Majority;
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;
  static constexpr bool kLineMoves = true;
  static constexpr std::array<unsigned, 2> kManMoves = {
      direction_set({line_dir::kUp, line_dir::kLeft, line_dir::kRight}),
      direction_set({line_dir::kDown, line_dir::kLeft, line_dir::kRight})};
  static constexpr std::array<unsigned, 2> kManCaptures = kManMoves;
  static constexpr unsigned kKingMoves = 0xF;
  static constexpr unsigned kKingCaptures = 0xF;
  static constexpr bool kKingLandsBehind = false;
  static constexpr bool kRemoveAtOnce = true;
  static constexpr bool kKingMayReverse = false;
  static constexpr std::array<int, 3> forward(Side s) {
    return s == Side::White
               ? std::array<int, 3>{line_dir::kUp, line_dir::kLeft, line_dir::kRight}
               : std::array<int, 3>{line_dir::kDown, line_dir::kLeft, line_dir::kRight};
  }
  // One piece each (even if one is a king): a draw (damaakademisi.com, Türk daması kuralları
  // 19b).
  static constexpr DrawLimits kDraws{0, 0, false, EndgameRule::Turkish, 3};
  static constexpr Endgames kEndgames = Endgames::Turkish;
};

}  // namespace tsuru
