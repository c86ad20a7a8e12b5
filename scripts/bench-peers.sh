#!/usr/bin/env bash
# Durable import of N objects × 10 properties: the engine (grocery-dude-bench import) next to
# Loro and pycrdt (installed from PyPI into a virtual environment), in one run, as ratios.
# Usage: scripts/bench-peers.sh [objects=50000] [runs=3]   (BENCH=path/to/grocery-dude-bench skips
#        the release build, e.g. the static one of .build-release-static)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
objects=${1:-50000}
runs=${2:-3}
venv=.build/bench-peers-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || { echo "python3 -m venv failed (Debian: apt-get install -y python3-venv)" >&2; exit 1; }
fi
"$venv/bin/pip" install -q loro pycrdt
if [ -z "${BENCH:-}" ]; then
  build_log=$(mktemp)
  swift build -c release --product grocery-dude-bench >"$build_log" 2>&1 || { cat "$build_log" >&2; exit 1; }
  rm -f "$build_log"
  BENCH=.build/release/grocery-dude-bench
fi
bench=$BENCH
results=$(mktemp)
trap 'rm -f "$results"' EXIT
# Taking turns, so that a busy machine slows all three alike. Each figure is the fastest of three
# imports in one process: the peers' (bench-peers.py) and ours (--rounds 3).
for ((r = 1; r <= runs; r++)); do
  echo "ours $("$bench" import --changes $((objects * 10)) --rounds 3 --json | tr -d '\n')" >>"$results"
  echo "peers $("$venv/bin/python" scripts/bench-peers.py "$objects")" >>"$results"
done
"$venv/bin/python" - "$results" "$objects" <<'PY'
import json, statistics, sys
ours, peers = [], []
for line in open(sys.argv[1]):
    kind, text = line.split(" ", 1)
    (ours if kind == "ours" else peers).append(json.loads(text))
def spread(values):
    return f"{min(values):,.0f}/{statistics.median(values):,.0f}/{max(values):,.0f}"
engine = [o["import"]["changes_per_s"] for o in ours]
raw = [o["import"]["raw_insert_per_s"] for o in ours]
floor = [o["import"]["floor_insert_per_s"] for o in ours]
print(f"durable import of {sys.argv[2]} objects x 10 properties, changes/s min/median/max over {len(ours)} runs")
print(f"  ours (grocery-dude-bench import)   {spread(engine)}")
print(f"  raw batched SQLite insert          {spread(raw)}   ours/raw per run: "
      + ", ".join(f"{e / r:.2f}" for e, r in zip(engine, raw)))
print(f"  the rows with their clocks alone   {spread(floor)}   ours/floor per run: "
      + ", ".join(f"{e / f:.2f}" for e, f in zip(engine, floor))
      + "   (the same rows into the model's indexed tables: what any store of them pays)")
for name in ("loro", "pycrdt"):
    theirs = [p[name]["changes_per_s"] for p in peers if p.get(name)]
    if not theirs:
        print(f"  {name}: not installed"); continue
    ratios = ", ".join(f"{e / t:.2f}" for e, t in zip(engine, theirs))
    print(f"  {name:<34} {spread(theirs)}   ours/{name} per run: {ratios}   (goal ≥ 1.3)")
PY
