#!/bin/bash
# What `cloud watch` costs idle while it follows every list (the list follower): CPU time a
# second of a watcher on a device with N lists, against the same watcher with none (the floor),
# measured in the same run.
#
#   scripts/bench-follow.sh [--json] [N] [BINARY]     (N: 100; BINARY: .build/debug/grocery-dude)
set -euo pipefail
json=0
if [[ "${1:-}" == "--json" ]]; then json=1; shift; fi
lists=${1:-100}
binary=${2:-.build/debug/grocery-dude}
[[ -x "$binary" ]] || { echo "bench-follow: no binary at $binary (swift build first)" >&2; exit 1; }
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

# CPU milliseconds a second of an idle watcher on device x of a fresh folder where device y made $1 lists.
idle_cpu() {
  local data pid t0 t1
  data=$(mktemp -d)
  run() { "$binary" --data-dir "$data" --no-default-data "$@" >/dev/null 2>&1; }
  run --device x cloud enable
  run --device y cloud enable
  for i in $(seq 1 "$1"); do run --device y lists new "List $i"; done
  "$binary" --data-dir "$data" --no-default-data --device x cloud watch >/dev/null 2>&1 &
  pid=$!
  sleep 25  # the first visits: every list set up and imported once
  t0=$(awk '{print $14+$15}' "/proc/$pid/stat")
  sleep 30
  t1=$(awk '{print $14+$15}' "/proc/$pid/stat")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$data"
  echo $(( (t1 - t0) * 1000 / $(getconf CLK_TCK) / 30 ))
}

floor=$(idle_cpu 0)
many=$(idle_cpu "$lists")
if (( json )); then
  printf '{"lists": %d, "idle_cpu_ms_per_s": %d, "floor_idle_cpu_ms_per_s": %d}\n' "$lists" "$many" "$floor"
else
  echo "idle watcher, CPU ms a second: $many with $lists lists, $floor with none (floor), in the same run"
fi
