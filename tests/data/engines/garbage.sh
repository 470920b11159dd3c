#!/bin/sh
# A fake Hub engine for the match runner's tests: it answers every search with text that is no move.
while read -r line; do
  case "$line" in
    hub) echo "id name=Fake-garbage version=1"; echo "wait" ;;
    init) echo "ready" ;;
    go*) echo "done move=hello" ;;
    quit) exit 0 ;;
  esac
done
