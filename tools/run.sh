#!/usr/bin/env bash
# Builds the engine (the tsuru target and its books only, not the test suite) and runs it;
# arguments go to the engine (e.g. `tools/run.sh hub`), none starts a game in the terminal.
#
# The small endgame databases (English and international up to 4 pieces: about 20 s of CPU the
# first time, 57 MB, in build/egdb; later runs only check them) are built too, and `play` and
# `dxp` in those two rule sets get `--egdb-dir build/egdb` unless the arguments name a
# directory. Hub clients set the Hub parameter egdb-dir themselves (docs/egdb.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TSURU_TARGETS=tsuru "$root/tools/build.sh" "$root/build" >&2
tsuru="$root/build/tsuru"
egdb="$root/build/egdb"

for variant in english international; do
  if ! "$tsuru" egdb info --variant "$variant" --dir "$egdb" 2>/dev/null |
    grep -q "complete up to 4 pieces"; then
    echo "tools/run.sh: building the $variant endgame databases (up to 4 pieces, once)" >&2
    "$tsuru" egdb build --variant "$variant" --pieces 4 --threads 2 --dir "$egdb" --quiet >/dev/null
  fi
done

[ $# -gt 0 ] || set -- play
case "$1" in
  play | dxp)
    variant="" has_dir=no previous=""
    for arg in "$@"; do
      case "$arg" in
        --egdb-dir | --egdb-dir=*) has_dir=yes ;;
        --variant=*) variant="${arg#--variant=}" ;;
      esac
      [ "$previous" != "--variant" ] || variant="$arg"
      previous="$arg"
    done
    case "$variant" in
      "" | english | international)
        [ "$has_dir" = yes ] || set -- "$1" --egdb-dir "$egdb" "${@:2}"
        ;;
    esac
    ;;
esac
exec "$tsuru" "$@"
