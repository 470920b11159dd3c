// The weights files compiled into the binary: CMake (cmake/embed_weights.cmake) turns every
// eval/data/<rule set>.weights into a byte array of a generated source file, listed here and
// ended by an entry with a null name.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tsuru::eval {

struct EmbeddedWeights {
  const char* name;  // rule-set name (the file's stem); null ends the list
  const std::uint8_t* data;
  std::size_t size;
};

extern const EmbeddedWeights kEmbeddedWeights[];

}  // namespace tsuru::eval
