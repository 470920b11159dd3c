#!/bin/sh
# A fake Hub engine for the match runner's tests: it answers every search with a move that is never legal.
while read -r line; do
  case "$line" in
    hub) echo "id name=Fake-illegal version=1"; echo "wait" ;;
    init) echo "ready" ;;
    go*) echo "done move=1-2" ;;
    quit) exit 0 ;;
  esac
done
