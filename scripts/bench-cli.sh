#!/usr/bin/env bash
# Prints how long one command takes on a store of N items (the target: ≤ 30 ms at 10k items).
# Usage: scripts/bench-cli.sh [items=10000] [runs=20]   (builds a static release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
items=${1:-10000}
runs=${2:-20}
# Statically linked, as a user's installed binary would be: it halves process start-up.
swift build -c release --product grocery-dude --static-swift-stdlib --scratch-path .build-release-static >/dev/null
bin=.build-release-static/release/grocery-dude
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gd() { "$bin" --data-dir "$dir" --device bench "$@"; }

{
  echo "kind,name,quantity,unit,homeLocation,shopLocation,listed"
  for ((i = 1; i <= items; i++)); do
    echo "item,Item $i,$((i % 7 + 1)),unit $((i % 12)),home $((i % 20)),aisle $((i % 15)),$((i % 3 == 0))"
  done
} >"$dir/items.csv"
start=$(date +%s%N)
gd --no-default-data import "$dir/items.csv" >/dev/null
echo "import of $items items: $(( ($(date +%s%N) - start) / 1000000 )) ms"

measure() {
  local label=$1; shift
  local times=()
  for ((r = 1; r <= runs; r++)); do
    local t0=$(date +%s%N)
    "$@" >/dev/null
    times+=($(( ($(date +%s%N) - t0) / 100000 )))
  done
  local sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  local median=${sorted[$((runs / 2))]}
  local p90=${sorted[$((runs * 9 / 10))]}
  printf '%-28s median %d.%d ms   p90 %d.%d ms   (%d runs, %d items)\n' "$label" \
    $((median / 10)) $((median % 10)) $((p90 / 10)) $((p90 % 10)) "$runs" "$items"
}

counter=0
add() { counter=$((counter + 1)); gd item add "Bench $RANDOM-$counter" --unit kg; }
measure "item add" add
measure "item ls --json" gd item ls --json
measure "item list (by name)" gd item list "Item 5000"
