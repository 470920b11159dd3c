#include "protocol/dxp/message.hpp"

#include <algorithm>
#include <cstdio>

namespace tsuru::dxp {
namespace {

using Result = Expected<Message, ParseError>;

Result malformed(std::string text) {
  return Result::failure({ParseError::Kind::Malformed, std::move(text)});
}

// Reads fixed-width fields from left to right; the first failure is kept and reported.
class Fields {
 public:
  explicit Fields(std::string_view s) : s_(s) {}

  // A right-aligned, zero-padded decimal of exactly `width` digits.
  int number(std::size_t width, std::string_view what) {
    const std::string_view f = take(width, what);
    int value = 0;
    for (char c : f) {
      if (c < '0' || c > '9') {
        fail(std::string(what) + " '" + printable(f) + "' is not a " + std::to_string(width) +
             "-digit number");
        return 0;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
  std::string name(std::string_view what) {
    std::string_view f = take(kNameWidth, what);
    while (!f.empty() && f.back() == ' ') f.remove_suffix(1);
    return std::string(f);
  }
  Side side(std::string_view what) {
    const std::string_view f = take(1, what);
    if (f == "W") return Side::White;
    if (f == "Z") return Side::Black;
    if (!f.empty()) fail(std::string(what) + " '" + printable(f) + "' is not W or Z");
    return Side::White;
  }
  // One character among `allowed`.
  char code(std::string_view allowed, std::string_view what) {
    const std::string_view f = take(1, what);
    if (!f.empty() && allowed.find(f[0]) == std::string_view::npos)
      fail(std::string(what) + " '" + printable(f) + "' is not one of " + std::string(allowed));
    return f.empty() ? allowed[0] : f[0];
  }
  std::string_view rest() {
    const std::string_view r = s_.substr(pos_);
    pos_ = s_.size();
    return r;
  }
  std::size_t left() const { return s_.size() - pos_; }
  // Fails unless every byte was read.
  void end(std::string_view message_name) {
    if (!error_.empty() || pos_ == s_.size()) return;
    fail(std::string(message_name) + " has " + std::to_string(s_.size() - pos_) +
         " bytes too many (" + std::to_string(s_.size()) + " in all)");
  }
  void fail(std::string text) {
    if (error_.empty()) error_ = std::move(text);
  }
  const std::string& error() const { return error_; }

 private:
  std::string_view take(std::size_t width, std::string_view what) {
    if (!error_.empty()) return {};
    if (s_.size() - pos_ < width) {
      fail("message ends before its " + std::string(what) + " (" + std::to_string(s_.size()) +
           " bytes)");
      return {};
    }
    const std::string_view f = s_.substr(pos_, width);
    pos_ += width;
    return f;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::string error_;
};

template <class T>
Result finish(Fields& f, T value, std::string_view message_name) {
  f.end(message_name);
  if (!f.error().empty()) return malformed(std::string(message_name) + ": " + f.error());
  return Message(std::move(value));
}

Result parse_request(Fields& f) {
  GameRequest r;
  r.version = f.number(2, "version");
  if (f.error().empty() && r.version > kVersion) {
    f.rest();  // a later version's layout is unknown: only its number matters
    return Message(r);
  }
  r.name = f.name("initiator name");
  r.follower_side = f.side("follower colour");
  r.minutes = f.number(3, "minutes");
  r.moves = f.number(3, "moves");
  r.setup = f.code("AB", "start code") == 'B';
  if (r.setup) {
    r.to_move = f.side("side to move");
    const std::string_view pos = f.rest();
    if (f.error().empty()) {
      if (pos.size() != 32 && pos.size() != 50 && pos.size() != 64)
        f.fail("position has " + std::to_string(pos.size()) + " squares, not 32, 50 or 64");
      else if (const auto bad = pos.find_first_not_of("ewzWZ"); bad != std::string_view::npos)
        f.fail("position character '" + printable(pos.substr(bad, 1)) + "' at square " +
               std::to_string(bad + 1) + " is not one of e w z W Z");
      r.position = std::string(pos);
    }
  }
  return finish(f, std::move(r), "GAMEREQ");
}

Result parse_move(Fields& f) {
  MoveMessage m;
  m.seconds = f.number(4, "time");
  m.from = f.number(2, "from square");
  m.to = f.number(2, "to square");
  const int count = f.number(2, "capture count");
  if (f.error().empty() && f.left() != static_cast<std::size_t>(count) * 2)
    f.fail("capture count " + std::to_string(count) + " needs " + std::to_string(count * 2) +
           " more digits, the message has " + std::to_string(f.left()));
  for (int i = 0; i < count && f.error().empty(); ++i)
    m.captured.push_back(f.number(2, "captured square"));
  if (f.error().empty()) {
    auto zero = [](int sq) { return sq == 0; };
    if (zero(m.from) || zero(m.to) || std::any_of(m.captured.begin(), m.captured.end(), zero))
      f.fail("square 00 does not exist");
  }
  return finish(f, std::move(m), "MOVE");
}

void append_number(std::string& out, int value, int width) {
  int limit = 1;
  for (int i = 0; i < width; ++i) limit *= 10;
  value = std::clamp(value, 0, limit - 1);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*d", width, value);
  out += buf;
}

// Keeps bytes 1..127 (what the framing carries), replaces the rest with '?', cuts to `width`.
std::string clean(std::string_view s, std::size_t width) {
  std::string out(s.substr(0, std::min(s.size(), width)));
  for (char& c : out)
    if (c == '\0' || static_cast<unsigned char>(c) > 127) c = '?';
  return out;
}

void append_name(std::string& out, std::string_view name) {
  std::string n = clean(name, kNameWidth);
  n.resize(kNameWidth, ' ');
  out += n;
}

struct Formatter {
  std::string out;
  void operator()(const GameRequest& r) {
    out = "R";
    append_number(out, r.version, 2);
    append_name(out, r.name);
    out += side_char(r.follower_side);
    append_number(out, r.minutes, 3);
    append_number(out, r.moves, 3);
    out += r.setup ? 'B' : 'A';
    if (r.setup) {
      out += side_char(r.to_move);
      out += r.position;
    }
  }
  void operator()(const GameAccept& a) {
    out = "A";
    append_name(out, a.name);
    out += static_cast<char>(a.code);
  }
  void operator()(const MoveMessage& m) {
    out = "M";
    append_number(out, m.seconds, 4);
    append_number(out, m.from, 2);
    append_number(out, m.to, 2);
    // 11 + 2n bytes must stay within the payload limit.
    const std::size_t n = std::min(m.captured.size(), (kMaxPayload - 11) / 2);
    append_number(out, static_cast<int>(n), 2);
    for (std::size_t i = 0; i < n; ++i) append_number(out, m.captured[i], 2);
  }
  void operator()(const GameEnd& e) {
    out = "E";
    out += static_cast<char>(e.reason);
    out += e.stop ? '1' : '0';
  }
  void operator()(const Chat& c) {
    out = "C";
    out += c.text.empty() ? std::string(" ") : clean(c.text, kMaxChat);
  }
  void operator()(const BackRequest& b) {
    out = "B";
    append_number(out, b.move_number, 3);
    out += side_char(b.to_move);
  }
  void operator()(const BackAccept& k) {
    out = "K";
    out += static_cast<char>(k.code);
  }
};

}  // namespace

char side_char(Side s) {
  return s == Side::White ? 'W' : 'Z';
}

std::string printable(std::string_view payload, std::size_t max) {
  std::string out;
  for (char c : payload) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u >= 32 && u < 127) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  return out;
}

Expected<Message, ParseError> parse(std::string_view payload) {
  if (payload.empty()) return malformed("empty message");
  if (payload.size() > kMaxPayload)
    return malformed("message of " + std::to_string(payload.size()) + " bytes (at most 127)");
  for (char c : payload)
    if (c == '\0' || static_cast<unsigned char>(c) > 127)
      return malformed("byte outside ASCII 1-127 in '" + printable(payload) + "'");
  Fields f(payload.substr(1));
  switch (payload[0]) {
    case 'R':
      return parse_request(f);
    case 'A': {
      GameAccept a;
      a.name = f.name("follower name");
      a.code = static_cast<AcceptCode>(f.code("0123", "acceptance code"));
      return finish(f, std::move(a), "GAMEACC");
    }
    case 'M':
      return parse_move(f);
    case 'E': {
      GameEnd e;
      e.reason = static_cast<EndReason>(f.code("0123", "reason"));
      e.stop = f.code("01", "stop code") == '1';
      return finish(f, e, "GAMEEND");
    }
    case 'C': {
      const std::string_view text = f.rest();
      if (text.empty()) return malformed("CHAT: no text");
      return Message(Chat{std::string(text)});
    }
    case 'B': {
      BackRequest b;
      b.move_number = f.number(3, "move number");
      b.to_move = f.side("side to move");
      if (f.error().empty() && b.move_number == 0) f.fail("move number 000 does not exist");
      return finish(f, b, "BACKREQ");
    }
    case 'K': {
      BackAccept k;
      k.code = static_cast<BackCode>(f.code("012", "acceptance code"));
      return finish(f, k, "BACKACC");
    }
    default:
      break;
  }
  return Result::failure({ParseError::Kind::UnknownType,
                          "unknown message type '" + printable(payload.substr(0, 1)) + "'"});
}

std::string format(const Message& m) {
  Formatter f;
  std::visit(f, m);
  return f.out;
}

}  // namespace tsuru::dxp
