// Scores in centi-men (a man is worth 100) from the side to move's point of view. A forced win
// in n plies scores kWin - n, a forced loss -(kWin - n); Hub prints these as 100.00 - n/100.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace tsuru {

using Score = int;

constexpr Score kWin = 10000;
constexpr Score kInfinity = 10001;
constexpr Score kDraw = 0;
constexpr int kMaxPly = 128;
// Scores beyond this are forced wins or losses.
constexpr Score kWinThreshold = kWin - 2 * kMaxPly;

constexpr bool is_win_score(Score s) {
  return s >= kWinThreshold || s <= -kWinThreshold;
}
// Plies to the end of a forced win or loss.
constexpr int plies_to_end(Score s) {
  return kWin - (s < 0 ? -s : s);
}

constexpr Score win_in(int ply) {
  return kWin - ply;
}
constexpr Score loss_in(int ply) {
  return -kWin + ply;
}

}  // namespace tsuru
