#!/usr/bin/env bash
# Builds Tsuru with warnings as errors and runs the whole test suite:
#   1. a Release build and every default test (ctest);
#   2. an AddressSanitizer + UndefinedBehaviorSanitizer build and the same tests.
# tools/test.sh --quick runs step 1 only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"

echo "== Release build, warnings as errors"
"$root/tools/build.sh" "$root/build" -DTSURU_WERROR=ON
echo "== Tests (Release)"
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

if [ "${1:-}" != "--quick" ]; then
  echo "== AddressSanitizer + UBSan build"
  # Built with clang: a second compiler checking the warnings, and the sanitizer runtime the
  # fuzz targets share.
  "$root/tools/build.sh" "$root/build-asan" -DTSURU_WERROR=ON -DTSURU_SANITIZE=ON \
    -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
  echo "== Tests (sanitizers)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$root/build-asan" --output-on-failure -j "$jobs"
fi
echo "== All tests passed"
