#!/usr/bin/env bash
# Builds the engine (the tsuru target and its books only, not the test suite) and runs it;
# arguments go to the engine (e.g. `tools/run.sh hub`), none starts a game in the terminal.
#
# The small endgame databases (English and international up to 4 pieces: about 20 s of CPU the
# first time, 57 MB; later runs only check them) are built into the data directory's egdb/
# folder ($TSURU_DATA, else $XDG_DATA_HOME/tsuru, default ~/.local/share/tsuru), where every
# front end (play, hub, dxp, match's engines, bench) finds them with no option (README.md, "The
# data directory").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TSURU_TARGETS=tsuru "$root/tools/build.sh" "$root/build" >&2
tsuru="$root/build/tsuru"

for variant in english international; do
  if ! "$tsuru" egdb info --variant "$variant" 2>/dev/null | grep -Eq "complete up to ([4-9]|1[0-9]) pieces"; then
    echo "tools/run.sh: building the $variant endgame databases (up to 4 pieces, once)" >&2
    "$tsuru" egdb build --variant "$variant" --pieces 4 --threads 2 --quiet >/dev/null
  fi
done

[ $# -gt 0 ] || set -- play
exec "$tsuru" "$@"
