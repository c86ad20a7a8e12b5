#!/usr/bin/env bash
# Installs what building, running and testing Grocery Dude needs on Debian or Ubuntu, when it
# is missing: ncursesw and SQLite headers, tmux (end-to-end tests), faketime (devices whose
# clocks are wrong, in tests), a UTF-8 locale, syncthing and curl (two machines sharing the cloud
# folder, in tests: scripts/syncthing-pair.sh), strace (that a save is synced before a command says
# so, in tests), binutils (strip and readelf: `make install` strips the binary), man-db (the
# install test renders the manual), zsh and fish (the install test checks their completions).
# Swift itself is not a Debian package: it must be on PATH or at /opt/swift.
set -euo pipefail

packages=(libncursesw5-dev libsqlite3-dev tmux faketime pkg-config locales syncthing curl strace binutils man-db zsh
          fish)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]} ..."
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
  echo "Swift 6.1 or later is needed: install it from swift.org (to /opt/swift or on PATH)." >&2
  exit 1
fi
