// DXP framing: messages of 1-127 ASCII bytes, each followed by a NUL. TCP delivers bytes in
// arbitrary pieces, so the framer keeps what it has seen of an unfinished message and cuts at
// every NUL: one read may hold part of a message or several. Its memory is bounded: a message
// that grows past 127 bytes is reported once and skipped up to the next NUL.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace tsuru::dxp {

struct Frame {
  std::string payload;  // the message (valid or, with an error, what was kept of it)
  std::string error;    // empty for a well-formed frame
  bool ok() const { return error.empty(); }
};

class Framer {
 public:
  // Adds bytes as they arrive.
  void feed(std::string_view bytes);
  // The next complete frame or framing error, in arrival order.
  std::optional<Frame> next();
  // Bytes of an unfinished message waiting for their NUL.
  std::size_t pending() const { return buffer_.size(); }

 private:
  std::string buffer_;
  bool non_ascii_ = false;
  bool skipping_ = false;  // inside an over-long message, up to its NUL
  std::deque<Frame> ready_;
};

}  // namespace tsuru::dxp
