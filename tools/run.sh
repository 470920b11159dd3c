#!/usr/bin/env bash
# Builds the engine (the tsuru target and its books only, not the test suite) and runs it;
# arguments go to the engine (e.g. `tools/run.sh hub`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TSURU_TARGETS=tsuru "$root/tools/build.sh" "$root/build" >&2
exec "$root/build/tsuru" "$@"
