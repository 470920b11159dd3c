#include "protocol/dxp/framer.hpp"

#include "protocol/dxp/message.hpp"

namespace tsuru::dxp {

void Framer::feed(std::string_view bytes) {
  for (char c : bytes) {
    if (c == '\0') {
      if (skipping_) {
        skipping_ = false;
      } else if (buffer_.empty()) {
        ready_.push_back({"", "empty message (a NUL with nothing before it)"});
      } else if (non_ascii_) {
        ready_.push_back({buffer_, "non-ASCII byte in '" + printable(buffer_) + "'"});
      } else {
        ready_.push_back({buffer_, ""});
      }
      buffer_.clear();
      non_ascii_ = false;
      continue;
    }
    if (skipping_) continue;
    buffer_ += c;
    if (static_cast<unsigned char>(c) > 127) non_ascii_ = true;
    if (buffer_.size() > kMaxPayload) {
      ready_.push_back(
          {buffer_.substr(0, 16), "message longer than 127 bytes without a NUL, starting '" +
                                      printable(buffer_.substr(0, 16)) + "'"});
      buffer_.clear();
      non_ascii_ = false;
      skipping_ = true;
    }
  }
}

std::optional<Frame> Framer::next() {
  if (ready_.empty()) return std::nullopt;
  Frame f = std::move(ready_.front());
  ready_.pop_front();
  return f;
}

}  // namespace tsuru::dxp
