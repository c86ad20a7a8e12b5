#!/usr/bin/env bash
# Prints how long one command takes on a store of N items (the goal at 10k items: `item ls` and
# `item ls --json` ≤ 20 ms, `item list` ≤ 10 ms, `--help` ≤ 5 ms), min/median/max of wall time and
# the median CPU time, then the floor of a static Swift binary on this machine (docs/decisions/0168),
# next to taskwarrior's nearest commands on as many tasks when `task` is installed.
# Usage: scripts/bench-cli.sh [items=10000] [runs=20]   (builds a static release binary first;
#        BIN=path/to/grocery-dude skips the build; NO_FLOOR=1 skips the floor)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
items=${1:-10000}
runs=${2:-20}
if [ -z "${BIN:-}" ]; then
  # Statically linked and linked as `make install` links it (the Makefile's INSTALL_BUILD): the
  # Swift runtime inside halves process start-up.
  swift build -c release --product grocery-dude --static-swift-stdlib --scratch-path .build-release-static \
    $(scripts/release-link-flags.sh .build-release-static) >/dev/null
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

# The floor: what a static Swift binary pays on this machine before any work of ours. Five
# programs built once into .build-floor (a package of their own, the GRDB the project resolved):
# one that prints a line, one that also loads Foundation, one that links GRDB (and with it the
# whole of Foundation and ICU, as every program built on GRDB does) and prints a line — the floor
# of `--help` —, one that opens the same store with GRDB and writes out the item columns
# `item ls` reads, in its order, and one that lists one item by its name as `item list` does (see
# their sources below).
floor_dir=.build-floor
floor_bins=$floor_dir/.build/release
if [ -z "${NO_FLOOR:-}" ]; then
  grdb_version=$(awk '/"grdb.swift"/ { found = 1 } found && /"version"/ { gsub(/[",]/, "", $3); print $3; exit }' Package.resolved)
  mkdir -p "$floor_dir/Sources/FloorPrint" "$floor_dir/Sources/FloorFoundation" "$floor_dir/Sources/FloorGRDBStart" \
    "$floor_dir/Sources/FloorList" "$floor_dir/Sources/FloorListOne"
  cat >"$floor_dir/Package.swift.new" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
// Linked as grocery-dude is: its symbols out of the dynamic symbol table (docs/decisions/0174),
// and with scripts/release-link-flags.sh's flags, given on the build's command line.
let linked: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]
let package = Package(
    name: "Floor",
    dependencies: [.package(url: "https://github.com/groue/GRDB.swift", exact: "${grdb_version:-7.10.0}")],
    targets: [
        .executableTarget(name: "FloorPrint", linkerSettings: linked),
        .executableTarget(name: "FloorFoundation", linkerSettings: linked),
        .executableTarget(
            name: "FloorGRDBStart", dependencies: [.product(name: "GRDB", package: "GRDB.swift")], linkerSettings: linked),
        .executableTarget(
            name: "FloorList",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ], linkerSettings: linked),
        .executableTarget(
            name: "FloorListOne", dependencies: [.product(name: "GRDB", package: "GRDB.swift")], linkerSettings: linked),
    ]
)
SWIFT
  cmp -s "$floor_dir/Package.swift.new" "$floor_dir/Package.swift" || mv "$floor_dir/Package.swift.new" "$floor_dir/Package.swift"
  rm -f "$floor_dir/Package.swift.new"
  echo 'print("grocery-dude")' >"$floor_dir/Sources/FloorPrint/main.swift"
  printf '%s\n' 'import Foundation' 'print(URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent)' \
    >"$floor_dir/Sources/FloorFoundation/main.swift"
  cat >"$floor_dir/Sources/FloorGRDBStart/main.swift" <<'SWIFT'
import GRDB

// What a program built on GRDB pays to start and print a line: GRDB is linked (a path given as
// an argument is opened, so the linker keeps it, and with it Foundation and ICU, whose
// relocations and page faults every start pays), nothing is opened without one. `--help` does
// no more than this plus parsing its arguments and writing its text (docs/decisions/0174).
if CommandLine.arguments.count > 1 {
    let queue = try DatabaseQueue(path: CommandLine.arguments[1])
    try queue.read { db in print(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0) }
} else {
    print("grocery-dude")
}
SWIFT
  cat >"$floor_dir/Sources/FloorList/main.swift" <<'SWIFT'
import GRDB
import GRDBSQLite
import Glibc

// The least `item ls` could do: open the store with GRDB (one connection, the file mapped), step
// through every item's columns that `item ls` reads, in the list's order, and write each row as
// tab-separated text into one buffer, written at once. Links stay IDs: no names looked up;
// numbers are written as integers. The rows are stepped with SQLite's own calls on GRDB's
// statement, and the buffer is a local one with its room reserved: a global buffer mutated in a
// closure paid Swift's run-time exclusivity check on every append, and a cursor of GRDB rows a
// call through its row type for each row (a fifth of the floor's time, docs/decisions/0171).
var configuration = Configuration()
configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
let queue = try DatabaseQueue(path: CommandLine.arguments[1], configuration: configuration)
let output: [UInt8] = try queue.read { db in
    let statement = try db.makeStatement(
        sql: """
            SELECT id, name, quantity, listed, collected, unit, locationAtHome, locationAtShop
            FROM item ORDER BY name COLLATE NOCASE, id
            """)
    let sqlite = statement.sqliteStatement
    var output: [UInt8] = []
    output.reserveCapacity(1 << 20)
    var step = sqlite3_step(sqlite)
    while step == SQLITE_ROW {
        for column in Int32(0)..<8 {
            if column > 0 { output.append(9) }
            switch sqlite3_column_type(sqlite, column) {
            case SQLITE_TEXT:
                let text = sqlite3_column_text(sqlite, column)!
                output.append(contentsOf: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqlite, column))))
            case SQLITE_INTEGER, SQLITE_FLOAT:
                // SQLite's own text of a number is made by its printf: a third of the time.
                output.append(contentsOf: String(sqlite3_column_int64(sqlite, column)).utf8)
            default: break
            }
        }
        output.append(10)
        step = sqlite3_step(sqlite)
    }
    guard step == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: step)) }
    return output
}
output.withUnsafeBytes { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
SWIFT
  cat >"$floor_dir/Sources/FloorListOne/main.swift" <<'SWIFT'
import GRDB

// The least `item list NAME` could do: open the store with GRDB (one connection, the file
// mapped, every commit synced as the store's are), and in one write transaction find the item
// by its name through the list's index and mark it listed (and not collected) when it is not; an item listed
// already changes no row, so its commit writes and syncs nothing, as the command's save then
// records nothing. No history, no clocks, no outbox, no export.
var configuration = Configuration()
configuration.prepareDatabase { db in
    try db.execute(sql: "PRAGMA mmap_size = 1073741824")
    try db.execute(sql: "PRAGMA synchronous = FULL")
}
let queue = try DatabaseQueue(path: CommandLine.arguments[1], configuration: configuration)
let name = CommandLine.arguments[2]
let changed = try queue.write { db in
    try db.execute(
        sql: "UPDATE item SET listed = 1, collected = 0 WHERE name = ? COLLATE NOCASE AND (listed = 0 OR collected = 1)", arguments: [name])
    return db.changesCount
}
print(changed > 0 ? "Listed \(name)." : "\(name) is listed already.")
SWIFT
  # Linked as grocery-dude is (scripts/release-link-flags.sh): the floor is what the same link pays.
  floor_link=$(scripts/release-link-flags.sh "$floor_dir/.build")
  (cd "$floor_dir" && swift build -c release --static-swift-stdlib $floor_link >build.log) || { cat "$floor_dir/build.log"; exit 1; }
fi

counter=0
add() { counter=$((counter + 1)); gd item add "Bench $RANDOM-$counter" --unit kg; }
measure "--help (start-up)" "$bin" --help
measure "item add" add
measure "item ls" gd item ls
measure "item ls --json" gd item ls --json
measure "item list (by name)" gd item list "Item $((items / 2))"
if [ -z "${NO_FLOOR:-}" ]; then
  store=$(find "$dir/devices/bench" -name '*.sqlite' -path '*local*' | head -1)
  # A store laid out elsewhere would leave the floor nothing to read: said, not timed as a crash.
  [ -n "$store" ] || { echo "bench-cli.sh: no local store under $dir/devices/bench for the floor" >&2; exit 1; }
  echo "the floor, static Swift binaries built on this machine (.build-floor):"
  measure "print a line" "$floor_bins/FloorPrint"
  measure "Foundation, print a line" "$floor_bins/FloorFoundation"
  measure "GRDB linked, print a line" "$floor_bins/FloorGRDBStart"
  measure "GRDB, list the items" "$floor_bins/FloorList" "$store"
  measure "GRDB, list one by name" "$floor_bins/FloorListOne" "$store" "Item $((items / 2))"
fi

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
