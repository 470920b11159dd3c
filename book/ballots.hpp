// Opening ballots: positions tournaments start games from (the book builder grows from them,
// `tsuru match` starts games from them).
#pragma once

#include <string_view>
#include <vector>

namespace tsuru::book {

struct Ballot {
  std::string_view id;     // "001" ... "174"
  std::string_view moves;  // the three opening moves, e.g. "09-13 21-17 05-09"
  std::string_view fen;    // the position after them (PDN FEN, English numbering)
  bool standard;           // in tournament use; false = barred as a known loss
};

const std::vector<Ballot>& english_ballots();

}  // namespace tsuru::book
