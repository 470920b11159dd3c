#!/usr/bin/env bash
# Installs the Debian packages Tsuru needs when any is missing (Debian 12). Safe to re-run.
set -euo pipefail
packages=(g++ cmake ninja-build pkg-config libboost-program-options-dev libboost-dev
          libspdlog-dev catch2 clang clang-format libclang-rt-14-dev ccache
          dpkg-dev)  # dpkg-dev: dpkg-shlibdeps, for the Depends of `cpack -G DEB`
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
