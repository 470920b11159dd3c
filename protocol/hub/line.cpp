#include "protocol/hub/line.hpp"

namespace tsuru::hub {
namespace {

bool is_space(unsigned char c) {
  return c == ' ' || c == '\t';
}
bool is_control(unsigned char c) {
  return c < 0x20 || c == 0x7f;
}
bool is_name_char(unsigned char c) {
  return !is_control(c) && !is_space(c) && c != '=' && c != '"';
}

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
bool is_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned lo = 0x80, hi = 0xbf;  // allowed range of the second byte
    if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      if (c == 0xe0) lo = 0xa0;
      if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      if (c == 0xf0) lo = 0x90;
      if (c == 0xf4) hi = 0x8f;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    const auto second = static_cast<unsigned char>(s[i + 1]);
    if (second < lo || second > hi) return false;
    for (std::size_t k = 2; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (b < 0x80 || b > 0xbf) return false;
    }
    i += len;
  }
  return true;
}

std::string sanitize(std::string_view value) {
  std::string out(value);
  for (char& c : out) {
    if (c == '"')
      c = '\'';
    else if (is_control(static_cast<unsigned char>(c)) && c != '\t')
      c = ' ';
  }
  return out;
}

}  // namespace

Message& Message::add(std::string name, std::string value) {
  arguments_.push_back({std::move(name), std::move(value)});
  return *this;
}

Message& Message::add_flag(std::string name) {
  arguments_.push_back({std::move(name), std::nullopt});
  return *this;
}

bool Message::has(std::string_view name) const {
  for (const Argument& a : arguments_)
    if (a.name == name) return true;
  return false;
}

const std::string* Message::value(std::string_view name) const {
  for (auto it = arguments_.rbegin(); it != arguments_.rend(); ++it)
    if (it->name == name) return it->value ? &*it->value : nullptr;
  return nullptr;
}

bool is_name(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!is_name_char(static_cast<unsigned char>(c))) return false;
  return true;
}

Expected<Message> parse_line(std::string_view line) {
  using E = Expected<Message>;
  if (line.size() > kMaxLineLength) return E::failure("line too long");
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if (is_control(u) && u != '\t') return E::failure("bad character");
  }
  if (!is_utf8(line)) return E::failure("bad character");

  Message message;
  bool have_command = false;
  std::size_t i = 0;
  const std::size_t n = line.size();
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(line[k]); };
  auto token_end = [&](std::size_t k) { return k == n || is_space(at(k)); };
  while (true) {
    while (i < n && is_space(at(i))) ++i;
    if (i == n) break;
    const std::size_t name_start = i;
    while (i < n && is_name_char(at(i))) ++i;
    const std::string_view name = line.substr(name_start, i - name_start);
    if (name.empty()) {
      if (!have_command) return E::failure("missing command");
      return E::failure("bad argument");  // `=value` or a bare quoted string
    }
    if (token_end(i)) {
      if (!have_command) {
        message = Message(std::string(name));
        have_command = true;
      } else {
        message.add_flag(std::string(name));
      }
      continue;
    }
    if (line[i] == '"' || !have_command) {
      // A quote glued to a name, or a first token that is not a bare command.
      return E::failure(have_command ? "bad argument" : "missing command");
    }
    ++i;  // '='
    if (token_end(i)) return E::failure("missing value");
    std::string value;
    if (line[i] == '"') {
      const std::size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) return E::failure("unclosed quote");
      value = line.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const std::size_t value_start = i;
      while (i < n && is_name_char(at(i))) ++i;
      value = line.substr(value_start, i - value_start);
    }
    if (!token_end(i)) return E::failure("bad argument");
    message.add(std::string(name), std::move(value));
  }
  if (!have_command) return E::failure("missing command");
  return message;
}

std::string format_line(const Message& message) {
  std::string out = message.command();
  for (const Argument& a : message.arguments()) {
    out += ' ';
    out += a.name;
    if (!a.value) continue;
    out += '=';
    if (is_name(*a.value)) {
      out += *a.value;
    } else {
      out += '"';
      out += sanitize(*a.value);
      out += '"';
    }
  }
  return out;
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

}  // namespace tsuru::hub
