#!/usr/bin/env bash
# Configures and builds Tsuru: tools/build.sh [build-dir] [extra cmake options...]
# The engine binary ends up at <build-dir>/tsuru (default build/tsuru). Everything is built
# (engine and tests) unless TSURU_TARGETS names the targets to build (tools/run.sh: tsuru).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/setup.sh"
dir="${1:-$root/build}"
shift || true
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
targets=()
[ -n "${TSURU_TARGETS:-}" ] && targets=(--target ${TSURU_TARGETS})
cmake --build "$dir" -j "$(nproc)" "${targets[@]}"
