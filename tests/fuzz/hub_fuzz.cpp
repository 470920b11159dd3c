// libFuzzer target (clang, -DTSURU_FUZZ=ON): the Hub line codec, Hub positions and moves, and
// the session's pos and level commands. Checks, beyond "no crash, no sanitizer report":
//   - a parsed line formats and parses back to the same message;
//   - a Hub position string that parses formats back to itself, and its legal moves
//     round-trip through Hub move notation.
// Run: build-fuzz/tsuru_fuzz_hub -max_total_time=60 CORPUS_DIR tests/fuzz/hub_corpus
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/engine.hpp"
#include "engine/rules/legal.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/notation.hpp"
#include "protocol/hub/session.hpp"
#include "tests/fuzz/check.hpp"

using tsuru::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tsuru;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // The codec.
  const auto message = hub::parse_line(text);
  if (message.ok()) {
    const auto again = hub::parse_line(hub::format_line(*message));
    check(again.ok() && *again == *message);
  }

  // Positions and moves, for every rule set.
  for (Variant v : all_variants()) {
    const auto pos = hub::parse_position(v, text);
    if (pos.ok()) {
      if (text.find(':') == std::string_view::npos) check(hub::format_position(v, *pos) == text);
      for (const Move& m : legal_moves(v, *pos)) {
        for (const auto n : {hub::MoveNumbers::Pydraughts, hub::MoveNumbers::Tsuru}) {
          const auto back = hub::parse_move(v, *pos, hub::format_move(v, m, n), n);
          check(back.ok() && *back == m);
        }
      }
    }
    (void)hub::parse_move(v, start_position(v), text, hub::MoveNumbers::Pydraughts);
    (void)hub::parse_move(v, start_position(v), text, hub::MoveNumbers::Tsuru);
  }

  // The session's position and level commands (no search is started).
  static Engine engine;
  static hub::Session session(engine, [](const std::string&) {});
  const std::string line(text);
  session.handle("pos " + line);
  session.handle("pos pos=" + line);
  session.handle("pos moves=\"" + line + "\"");
  session.handle("level " + line);
  session.handle("set-param name=variant value=" + std::string(size % 2 ? "english" : "normal"));
  return 0;
}
