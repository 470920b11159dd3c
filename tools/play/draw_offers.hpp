// Draw offers as the seeds' computer opponent handles them (seed 000): an offer travels with a
// move; the opponent accepts it, or refuses it by playing on. After a refusal the side whose
// offer was refused may not offer again until, after the refusal, a man moves or a piece is
// captured. The move that would carry a new offer is judged before it is played, so even a man
// move cannot carry one: a re-offer needs a move without an offer in between.
#pragma once

#include <array>
#include <optional>

#include "engine/rules/types.hpp"

namespace tsuru::play {

class DrawOffers {
 public:
  bool may_offer(Side s) const { return !barred_[static_cast<std::size_t>(index(s))]; }
  // The side whose offer stands: the opponent of the side to move may accept it.
  std::optional<Side> pending() const { return pending_; }

  // A move by `mover`; `resets` = it moved a man or captured; `offer` = it carries an offer
  // (the caller has checked may_offer). A pending offer of the other side is thereby refused.
  void on_move(Side mover, bool resets, bool offer) {
    const bool refuses = pending_ && *pending_ != mover;
    if (resets) barred_ = {false, false};
    // The refusing move itself does not lift the bar it creates.
    if (refuses) barred_[static_cast<std::size_t>(index(opponent(mover)))] = true;
    pending_ = offer ? std::optional<Side>(mover) : std::nullopt;
  }

 private:
  std::array<bool, 2> barred_{false, false};
  std::optional<Side> pending_;
};

}  // namespace tsuru::play
