// libFuzzer target for the DXP codec (CMake option TSURU_FUZZ, clang only). The input is a byte
// stream as TCP would deliver it: the framer cuts it, the codec parses each frame, and every
// message that parses must format back to exactly its payload and parse again to itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/dxp/framer.hpp"
#include "protocol/dxp/message.hpp"
#include "tests/fuzz/check.hpp"

using namespace tsuru::dxp;
using tsuru::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Framer framer;
  // Feed in two pieces to exercise the split-frame path too.
  const std::size_t cut = size > 0 ? data[0] % (size + 1) : 0;
  framer.feed(bytes.substr(0, cut));
  framer.feed(bytes.substr(cut));
  check(framer.pending() <= kMaxPayload);
  while (auto frame = framer.next()) {
    // parse() must also cope with what the framer rejects.
    const auto message = parse(frame->payload);
    if (!frame->ok() || !message) continue;
    check(frame->payload.size() >= 1 && frame->payload.size() <= kMaxPayload);
    if (const auto* r = std::get_if<GameRequest>(&*message); r && r->version > kVersion)
      continue;  // only the version of a later protocol is kept
    const std::string again = format(*message);
    check(again == frame->payload);
    const auto reparsed = parse(again);
    check(reparsed.ok() && *reparsed == *message);
  }
  return 0;
}
