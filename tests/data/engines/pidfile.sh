#!/bin/sh
# A wrapper for the match runner's fault tests: records the engine's process id as DIR/PID.pid
# (written whole, then renamed), then becomes the engine: sh pidfile.sh DIR PROGRAM ARGS...
dir="$1"
shift
echo $$ > "$dir/$$.tmp" && mv "$dir/$$.tmp" "$dir/$$.pid"
exec "$@"
