#!/usr/bin/env bash
# Where one command's instructions go, counted by callgrind: the dynamic loader, the argument
# parser (its parse, and the help or error text it writes), the store's open, and — across them —
# the Swift runtime's conformance walks (each first question "does this type conform to that
# protocol?" reads every conformance record of the binary; docs/decisions/0175).
# Instructions, not time: the same build gives the same counts on a busy machine, to about 0.1 %
# (Swift seeds its hashing anew in every process).
# Usage: scripts/command-cost.sh [--json] ARGS...   (runs `grocery-dude ARGS...`; BIN=path picks
#        the binary, the static release build by default; valgrind must be installed)
# Example: scripts/command-cost.sh --data-dir /tmp/d --device bench item ls
set -euo pipefail
cd "$(dirname "$0")/.."
json=0
if [ "${1:-}" = "--json" ]; then json=1; shift; fi
bin=${BIN:-.build-release-static/release/grocery-dude}
[ -x "$bin" ] || { echo "command-cost.sh: no binary at $bin (build it, or set BIN)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "command-cost.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out" "$out.inclusive" "$out.callers"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" >/dev/null 2>&1 || true
callgrind_annotate --inclusive=yes --threshold=100 "$out" >"$out.inclusive" 2>/dev/null
callgrind_annotate --tree=caller --threshold=100 "$out" >"$out.callers" 2>/dev/null
# The conformance records: the section's size over 4 bytes a record.
size=$(readelf -S -W "$bin" | awk '$2 == "swift5_protocol_conformances" { print $6 }')
records=$(( ${size:+0x$size} / 4 ))
python3 - "$out.inclusive" "$out.callers" "${records:-0}" "$json" "$*" <<'PYTHON'
import json, re, sys

inclusive_path, callers_path, records, as_json, arguments = sys.argv[1:6]
records = int(records)

def count(text):
    return int(text.replace(",", ""))

# The largest inclusive count of the functions a pattern names (a function and its
# specializations appear once each; the outermost is the largest).
inclusive = open(inclusive_path).read().splitlines()
def largest(pattern):
    best = 0
    for line in inclusive:
        match = re.match(r"\s*([\d,]+) \(", line)
        if match and re.search(pattern, line) and "=>" not in line:
            best = max(best, count(match.group(1)))
    return best

total = largest(r"PROGRAM TOTALS")
# The per-record step of a walk (not its recursive copy, '2, which it contains).
step = r"InstantiateSuperclasses.*ConformanceSection const&\) const::\{lambda\(swift::TargetProtocolConformanceDescriptor<swift::InProcess> const&\)#1\}::operator\(\)\(swift::TargetProtocolConformanceDescriptor<swift::InProcess> const&\) const \["
parts = [
    ("dynamic loader", largest(r"rtld\.c:_dl_start \[")),
    ("argument parser: parse", largest(r"ParsableCommandPAAE11parseAsRoot")),
    ("argument parser: help or error text", largest(r"ParsableArgumentsPAAE4exit9withError")),
    ("store open", largest(r"GlobalOptionsV10openDevice")),
]
# How many records the walks read: the calls of the per-record step, from every caller.
steps = 0
lines = open(callers_path).read().splitlines()
for index, line in enumerate(lines):
    if "*  " in line and re.search(step, line):
        back = index - 1
        while back >= 0 and lines[back].strip().startswith(tuple("0123456789")) and "<" in lines[back]:
            calls = re.search(r"\(([\d,]+)x\)", lines[back])
            if calls:
                steps += count(calls.group(1))
            back -= 1
walks = largest(step)
report = {
    "command": arguments, "instructions": total,
    "parts": {name: value for name, value in parts},
    "conformance_walks": round(steps / records, 1) if records else None,
    "conformance_records": records, "conformance_walk_instructions": walks,
}
if as_json == "1":
    print(json.dumps(report))
else:
    def share(value):
        return f"{value / 1e6:7.1f} M  {100 * value / total:5.1f} %" if total else "-"
    print(f"grocery-dude {arguments}: {total / 1e6:.1f} M instructions")
    for name, value in parts:
        print(f"  {name:38} {share(value)}")
    rest = total - sum(value for _, value in parts)
    print(f"  {'the rest (the command, output, exit)':38} {share(rest)}")
    print(
        f"  across them, the runtime's conformance walks: {report['conformance_walks']} walks of "
        f"{records} records, {share(walks).strip()}")
PYTHON
