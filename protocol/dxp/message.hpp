// DXP (DamExchange Protocol) messages: one struct per message type and a parse/format pair.
// The payload is the text between two NUL bytes (framer.hpp cuts it out of the TCP stream).
//
//   R GAMEREQ   R vv name(32) colour(W|Z) minutes(3) moves(3) A|B [side(W|Z) position(32|50|64)]
//   A GAMEACC   A name(32) code(0-3)
//   M MOVE      M seconds(4) from(2) to(2) count(2) captured(2 each)
//   E GAMEEND   E reason(0-3) stop(0|1)
//   C CHAT      C text(1-126)
//   B BACKREQ   B move-number(3) side(W|Z)
//   K BACKACC   K code(0-2)
//
// Parsing is strict: every field has its exact width and alphabet, and the length must match.
// A request with a version above 1 is returned with only its version: later versions may lay out
// the rest differently, and the only right answer to them is "wrong version". Squares and
// positions are checked against a board by the game handler (board.hpp), which knows the rule
// set; here a square is any number 01-99 and a position 32, 50 or 64 (Turkish) characters of
// e w z W Z.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/rules/expected.hpp"
#include "engine/rules/types.hpp"

namespace tsuru::dxp {

inline constexpr std::size_t kMaxPayload = 127;  // bytes between two NULs
inline constexpr std::size_t kNameWidth = 32;
inline constexpr std::size_t kMaxChat = 126;
inline constexpr int kVersion = 1;
inline constexpr int kDefaultPort = 27531;

struct GameRequest {
  int version = kVersion;
  std::string name;  // the initiator's name, trailing spaces removed
  Side follower_side = Side::Black;
  int minutes = 0;     // thinking time per player, 0..999
  int moves = 0;       // the game's move limit, 0..999; 0 = none
  bool setup = false;  // false: 'A', the normal start; true: 'B', the position below
  Side to_move = Side::White;
  std::string position;  // with setup: one of e w z W Z per square, 32, 50 or 64 squares
  friend bool operator==(const GameRequest&, const GameRequest&) = default;
};

enum class AcceptCode : char { Accept = '0', WrongVersion = '1', NotThisGame = '2', NoGames = '3' };

struct GameAccept {
  std::string name;  // the follower's name, trailing spaces removed
  AcceptCode code = AcceptCode::Accept;
  friend bool operator==(const GameAccept&, const GameAccept&) = default;
};

struct MoveMessage {
  int seconds = 0;  // time the move took, informational
  int from = 0;
  int to = 0;
  std::vector<int> captured;  // any order
  friend bool operator==(const MoveMessage&, const MoveMessage&) = default;
};

// The reason is the sender's view: Lose = "I lose", Win = "I win".
enum class EndReason : char { Unknown = '0', Lose = '1', Draw = '2', Win = '3' };

struct GameEnd {
  EndReason reason = EndReason::Unknown;
  bool stop = false;  // true: end the session after this game
  friend bool operator==(const GameEnd&, const GameEnd&) = default;
};

struct Chat {
  std::string text;
  friend bool operator==(const Chat&, const Chat&) = default;
};

struct BackRequest {
  int move_number = 1;  // full-move number of the position to return to
  Side to_move = Side::White;
  friend bool operator==(const BackRequest&, const BackRequest&) = default;
};

enum class BackCode : char { Accept = '0', NotSupported = '1', Decline = '2' };

struct BackAccept {
  BackCode code = BackCode::Accept;
  friend bool operator==(const BackAccept&, const BackAccept&) = default;
};

using Message =
    std::variant<GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept>;

struct ParseError {
  enum class Kind { UnknownType, Malformed } kind;
  std::string message;
};

Expected<Message, ParseError> parse(std::string_view payload);

// The payload of m, without the NUL. Always a valid payload: names are cut to 32 characters,
// chat to 126, numbers limited to their width; bytes the framing forbids become '?'.
std::string format(const Message& m);

char side_char(Side s);  // 'W' or 'Z'
// A payload as printable ASCII (other bytes as \xNN), cut after `max` characters with "...".
std::string printable(std::string_view payload, std::size_t max = 60);

}  // namespace tsuru::dxp
