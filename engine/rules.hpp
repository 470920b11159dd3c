// Rule sets as traits. Move generation, draw rules and search are templates over one of these;
// the rule set is chosen once, at the boundary (see variant.hpp). Each trait cites the rule it
// encodes (RULES.md / reference/VARIANTS.md in the shared rule book).
#pragma once

#include "engine/geometry.hpp"

namespace tsuru {

enum class CapturePriority : std::uint8_t {
  FreeChoice,  // any capture may be chosen; the chosen sequence must be completed
  Majority,    // the sequence capturing the most pieces (kings and men count one each)
};

// What happens when a man reaches the promotion row in the middle of a capture.
enum class CrownInCapture : std::uint8_t {
  AtEndOnly,       // it stays a man and goes on capturing; crowned only if the move ends there
  ContinueAsKing,  // crowned at once and continues capturing as a king (Russian)
};

// Draw-rule parameters; a value of 0 disables the rule.
struct DrawLimits {
  int reversible_plies;  // plies in a row with no man move and no capture
  int total_plies;       // plies since the game started
  bool endgame_limits;   // FMJD 16/5-move endgame limits (see draw_rules.hpp)
};

// English / American checkers, WCDF rules (RULES.md "English / American checkers").
struct EnglishRules {
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
  static constexpr DrawLimits kDraws{80, 400, false};
};

// International draughts, FMJD rules (RULES.md "International draughts").
struct InternationalRules {
  using Geometry = Board10;
  static constexpr Side kFirstToMove = Side::White;
  static constexpr int kStartRows = 4;               // 20 men each
  static constexpr bool kMenCaptureBackward = true;  // men capture forward and backward
  static constexpr bool kFlyingKings = true;         // kings fly (FMJD 3.9, 4.3)
  static constexpr CapturePriority kPriority = CapturePriority::Majority;  // FMJD 4.13
  static constexpr CrownInCapture kCrown = CrownInCapture::AtEndOnly;      // FMJD 4.15
  // 25 moves each with only kings moving; 16/5-move endgame limits (FMJD 6.1-6.3).
  static constexpr DrawLimits kDraws{50, 0, true};
};

}  // namespace tsuru
