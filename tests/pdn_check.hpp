// A PDN reader for the tests, independent of the writer (protocol/pdn.cpp): it splits a file
// into games and replays each with the rules core, so a test can say that a file a match left
// behind (killed engines, a full disk) holds whole, sound games only.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/rules/variant.hpp"

namespace tsuru::test {

struct PdnGame {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::string> tokens;  // the movetext, split at blanks
  std::string tag(const std::string& name) const;
};

struct PdnFile {
  std::vector<PdnGame> games;
  std::string error;  // empty when every game is whole
};

// Reads a PDN text: tag pairs, a blank line, movetext ending with a result, a blank line. A
// game cut short (no result, no closing blank line, a broken tag) is an error.
PdnFile read_pdn(const std::string& text);

// Replays a game of rule set v from its FEN tag (or the start position): every move must be
// legal, the movetext must end with the Result tag's result, and a game the rules ended (no
// legal move, a draw rule) must carry the rules' result unless its Termination says the game was
// forfeited or resigned. Empty when the game is sound, else why not.
std::string check_pdn_game(Variant v, const PdnGame& game);

// Both: every game of the file sound; the error, or empty.
std::string check_pdn_file(Variant v, const std::string& text, std::size_t* games = nullptr);

}  // namespace tsuru::test
