#!/usr/bin/env bash
# Builds Tsuru and runs it; arguments go to the engine (e.g. `tools/run.sh hub`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/build.sh" "$root/build" >&2
exec "$root/build/tsuru" "$@"
