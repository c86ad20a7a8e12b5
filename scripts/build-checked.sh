#!/usr/bin/env bash
# Builds the package and its tests (what `make test` runs first), then keeps two rules a review
# would otherwise keep by hand:
#   - no compiler warning from the project's own files (Sources/, Tests/): a warning from a
#     dependency is the dependency's; one from our code fails the build here;
#   - the code is formatted: `swift format lint --strict` with the project's .swift-format
#     (120 columns, 4 spaces) prints nothing.
# The compiler reports a file's warnings when it compiles the file, so the first rule is kept by
# a build from scratch (CI's); an incremental build checks what it recompiled.
# Usage: scripts/build-checked.sh [SWIFT]   (SWIFT defaults to `swift`)
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${1:-swift}
project=$(pwd)
log=$(mktemp "${TMPDIR:-/tmp}/grocery-dude-build.XXXXXX")
trap 'rm -f "$log"' EXIT

status=0
$swift build --build-tests 2>&1 | tee "$log" || status=$?
[ "$status" -eq 0 ] || exit "$status"

# A diagnostic line starts with the file's path: `/…/Sources/X.swift:12:5: warning: …`.
own=$(grep -E "^$project/(Sources|Tests|Resources|Package\.swift)[^:]*:[0-9]+:[0-9]+: warning:" "$log" | sort -u || true)
if [ -n "$own" ]; then
  echo "build-checked: the project's own files have compiler warnings:" >&2
  echo "$own" >&2
  exit 1
fi

lint=$($swift format lint --strict --recursive --parallel Sources Tests Package.swift Resources/GroceryResources.swift 2>&1 || true)
if [ -n "$lint" ]; then
  echo "$lint" >&2
  echo "build-checked: swift format lint --strict found the above (fix with: swift format format -i -r Sources Tests Package.swift)" >&2
  exit 1
fi
echo "build-checked: no warnings from the project's files; swift format lint --strict is clean"
