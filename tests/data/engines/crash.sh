#!/bin/sh
# A fake Hub engine for the match runner's tests: it completes the Hub handshake,
# then dies at its first search.
while read -r line; do
  case "$line" in
    hub) echo "id name=Fake-crash version=1"; echo "wait" ;;
    init) echo "ready" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
