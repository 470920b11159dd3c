// The fuzz targets' assertion: a broken invariant aborts, which libFuzzer reports as a crash
// with the input that caused it (assert would vanish from a release build).
#pragma once

#include <cstdlib>

namespace tsuru::fuzz {

inline void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace tsuru::fuzz
