// The Hub line codec: one message per line, `command name=value name="a value" flag ...`.
//
// Grammar (docs/hub.md, "Line syntax"): a name is a run of characters that are not control
// characters, white space, `=` or `"`; a value is a name-like token or a double-quoted string
// without escapes (possibly empty, possibly holding spaces and `=`); an argument without a value
// is a flag. Names are case-sensitive and the last repeat of a name wins.
//
// Parsing never throws: a malformed line yields one of these messages, which the session sends
// back as `error message="..."`:
//   missing command   empty or blank line, or a line that starts with an argument (`a=b`, `=b`)
//   unclosed quote    a quoted value without its closing quote
//   missing value     `name=` followed by white space or the end of the line
//   bad argument      `=value` without a name, a quote or `=` inside a name or an unquoted value,
//                     a quoted string not introduced by `name=`, text glued to a closing quote
//   bad character     a control character other than tab, or bytes that are not UTF-8
//   line too long     more than kMaxLineLength bytes
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/expected.hpp"

namespace tsuru::hub {

// Long enough for a pydraughts `moves=` list of a 400-ply game with long captures (~30 KB);
// far below what would hurt. Longer lines are refused with "line too long".
inline constexpr std::size_t kMaxLineLength = 256 * 1024;

struct Argument {
  std::string name;
  std::optional<std::string> value;  // nullopt for a flag
  friend bool operator==(const Argument&, const Argument&) = default;
};

class Message {
 public:
  Message() = default;
  explicit Message(std::string command) : command_(std::move(command)) {}

  const std::string& command() const { return command_; }
  const std::vector<Argument>& arguments() const { return arguments_; }

  // Builders; arguments are written in the order they were added (the canonical order).
  Message& add(std::string name, std::string value);
  Message& add_flag(std::string name);

  // Whether the name occurs, as a flag or with a value.
  bool has(std::string_view name) const;
  // The value of the last argument with this name; nullptr when absent or when that last
  // repeat is a flag.
  const std::string* value(std::string_view name) const;

  friend bool operator==(const Message&, const Message&) = default;

 private:
  std::string command_;
  std::vector<Argument> arguments_;
};

// Parses one line (a trailing "\r" or "\n" is ignored).
Expected<Message> parse_line(std::string_view line);

// Writes a message without its newline. Values are written bare when name-like and quoted
// otherwise; a value cannot hold `"` or control characters other than tab (Hub has no escapes),
// so those are replaced by `'` and a space.
std::string format_line(const Message& message);

// Whether text can be written without quotes: non-empty, no white space, control character,
// `=` or `"`.
bool is_name(std::string_view text);

// The words of a value (a list of moves): separated by spaces or tabs, empty ones dropped.
std::vector<std::string_view> split_words(std::string_view s);

}  // namespace tsuru::hub
