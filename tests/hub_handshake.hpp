// The reply to `hub`: the engine's id, every parameter with its default, then `wait`. The
// in-process session test and the transcript test of the real binary both expect exactly this.
#pragma once

#include <string>
#include <vector>

#include "engine/rules/variant.hpp"

namespace tsuru::test {

inline std::vector<std::string> hub_handshake() {
  return {
      // The test runner's data directory is empty (tests/main.cpp): no databases.
      "id name=Tsuru version=0.1.0 author=\"Tsuru team\" egdb=none",
      // The list grows with the rule sets: it is variant_names(), then the aliases the
      // clients send.
      "param name=variant value=international type=enum values=\"" + std::string(variant_names()) +
          " " + std::string(variant_alias_names()) + " frysk frysk!\"",
      "param name=notation value=pydraughts type=enum values=\"pydraughts tsuru\"",
      "param name=level value=none type=enum values=\"none beginner medium hard\"",
      "param name=book value=true type=bool", "param name=book-ply value=40 type=int min=0 max=200",
      "param name=book-margin value=0 type=int min=0 max=1000",
      "param name=book-file value=\"\" type=string",
      "param name=eval-file value=default type=string",
      "param name=egdb-dir value=default type=string", "param name=ponder value=false type=bool",
      "param name=threads value=1 type=int min=1 max=256",
      "param name=tt-size value=22 type=int min=10 max=26",
      "param name=seed value=1 type=int min=0 max=2147483647",
      "param name=multi-pv value=1 type=int min=1 max=64", "wait"};
}

}  // namespace tsuru::test
