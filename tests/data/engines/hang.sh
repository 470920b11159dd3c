#!/bin/sh
# A fake Hub engine for the match runner's tests: it never answers a search.
while read -r line; do
  case "$line" in
    hub) echo "id name=Fake-hang version=1"; echo "wait" ;;
    init) echo "ready" ;;
    go*) : ;;
    quit) exit 0 ;;
  esac
done
