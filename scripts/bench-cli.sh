#!/usr/bin/env bash
# Prints how long one command takes on a store of N items (the target: ≤ 30 ms at 10k items;
# start-up, `--help`: ≤ 8 ms), min/median/max of wall time and the median CPU time, next to
# taskwarrior's nearest commands on as many tasks when `task` is installed.
# Usage: scripts/bench-cli.sh [items=10000] [runs=20]   (builds a static release binary first;
#        BIN=path/to/grocery-dude skips the build)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
items=${1:-10000}
runs=${2:-20}
if [ -z "${BIN:-}" ]; then
  # Statically linked, as a user's installed binary would be: it halves process start-up.
  swift build -c release --product grocery-dude --static-swift-stdlib --scratch-path .build-release-static >/dev/null
  BIN=.build-release-static/release/grocery-dude
fi
bin=$BIN
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

# ms with one decimal from tenths of a millisecond
ms() { printf '%d.%d' $(($1 / 10)) $(($1 % 10)); }
measure() {
  local label=$1; shift
  local walls=() cpus=()
  for ((r = 1; r <= runs; r++)); do
    # Bash's own clock (microseconds): starting `date` for each reading added ~1 ms to every
    # figure, ours and taskwarrior's alike.
    local t0=${EPOCHREALTIME/./}
    "$@" >/dev/null
    local t1=${EPOCHREALTIME/./}
    walls+=($(( (t1 - t0) / 100 )))
    # CPU time (user + system) of the same command, as the subshell that ran it sees its
    # children (`times`, to the millisecond: /proc's clock ticks were 10 ms): a busy machine
    # stretches wall time more than CPU time.
    cpus+=($( ( "$@" >/dev/null; times ) | tail -1 |
      awk '{ total = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); total += t[1] * 60 + t[2] } printf "%d", total * 10000 + 0.5 }'))
  done
  local w=($(printf '%s\n' "${walls[@]}" | sort -n)) c=($(printf '%s\n' "${cpus[@]}" | sort -n))
  printf '%-28s wall min %s, median %s, max %s ms; CPU median %s ms   (%d runs, %d items)\n' "$label" \
    "$(ms ${w[0]})" "$(ms ${w[$((runs / 2))]})" "$(ms ${w[$((runs - 1))]})" "$(ms ${c[$((runs / 2))]})" "$runs" "$items"
}

counter=0
add() { counter=$((counter + 1)); gd item add "Bench $RANDOM-$counter" --unit kg; }
measure "--help (start-up)" "$bin" --help
measure "item add" add
measure "item ls" gd item ls
measure "item ls --json" gd item ls --json
measure "item list (by name)" gd item list "Item $((items / 2))"

if command -v task >/dev/null; then
  export TASKDATA="$dir/task" TASKRC="$dir/taskrc"
  mkdir -p "$TASKDATA"
  printf 'data.location=%s\nconfirmation=off\nverbose=nothing\nhooks=off\n' "$TASKDATA" >"$TASKRC"
  # As many tasks as items, imported at once.
  {
    echo "["
    for ((i = 1; i <= items; i++)); do
      printf '{"description":"Item %d","status":"pending","entry":"20261123T000000Z","uuid":"%08x-0000-4000-8000-000000000000"}%s\n' \
        "$i" "$i" "$([ $i -lt $items ] && echo ,)"
    done
    echo "]"
  } >"$dir/tasks.json"
  task import "$dir/tasks.json" >/dev/null 2>&1
  tcounter=0
  tadd() { tcounter=$((tcounter + 1)); task add "Bench $RANDOM-$tcounter"; }
  echo "taskwarrior $(task --version), $items tasks:"
  measure "task --version (start-up)" task --version
  measure "task add" tadd
  measure "task list" task list
  measure "task export" task export
fi
