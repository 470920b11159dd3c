// PDN (Portable Draughts Notation) game records: tag pairs and movetext.
// Results are written from White's point of view: "2-0" / "1-1" / "0-2" on 10x10 boards (FMJD
// usage), "1-0" / "1/2-1/2" / "0-1" on 8x8 boards.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/rules/game.hpp"

namespace tsuru::pdn {

struct Tags {
  std::string event = "?";
  std::string site = "?";
  std::string date;  // YYYY.MM.DD; empty = today
  std::string round = "?";
  std::string white = "?";
  std::string black = "?";
  Outcome result = Outcome::Ongoing;
  std::string time_control;  // written when not empty
  std::vector<std::pair<std::string, std::string>> extra;
};

std::string result_text(Variant v, Outcome o);
// The whole game record, ending with a blank line.
std::string write(const Game& game, const Tags& tags);

}  // namespace tsuru::pdn
