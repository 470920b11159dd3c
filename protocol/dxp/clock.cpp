#include "protocol/dxp/clock.hpp"

#include <algorithm>

namespace tsuru::dxp {

GameClock::GameClock(int minutes, int moves)
    : initial_(minutes * 60.0), moves_(moves), left_{initial_, initial_} {}

double GameClock::remaining(Side s, Clock::time_point now) const {
  double left = left_[index(s)];
  if (running_ && turn_ == s) left -= elapsed(now);
  return left;
}

int GameClock::moves_to_go(Side s) const {
  if (moves_ <= 0) return 0;
  return std::max(1, moves_ - made_[index(s)]);
}

void GameClock::start_turn(Side s, Clock::time_point now) {
  turn_ = s;
  started_ = now;
  running_ = true;
}

double GameClock::end_turn(Clock::time_point now) {
  if (!running_) return 0;
  const double used = elapsed(now);
  left_[index(turn_)] -= used;
  ++made_[index(turn_)];
  running_ = false;
  return used;
}

void GameClock::restart_turn(Side s, Clock::time_point now) {
  if (running_) left_[index(turn_)] -= elapsed(now);
  start_turn(s, now);
}

double GameClock::elapsed(Clock::time_point now) const {
  if (!running_) return 0;
  return std::max(0.0, std::chrono::duration<double>(now - started_).count());
}

}  // namespace tsuru::dxp
