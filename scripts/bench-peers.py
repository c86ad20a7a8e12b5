"""Durable import of N objects x 10 properties with Loro and pycrdt: what scripts/bench-peers.sh
compares the engine's import with. Prints one JSON object.

Each peer library: a source document holds N maps of 10 properties, written in batches of 2,500
objects (as the engine's bench writes logs of 2,500 items); its updates are exported. A new
document imports them and is made durable: its snapshot written to a file and fsync'd, as the
engine's import commits to SQLite. Timed: import + snapshot + write + fsync.
"""
import json, os, shutil, sys, tempfile, time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
batch = 2_500
props = 10
out = {"objects": n, "properties": props}


def durable(path, data):
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def values(i):
    return {"name": f"Item {i}", "quantity": float(i % 7 + 1), "listed": i % 3 == 0, "collected": False,
            "modified": 1_800_000_000.0 + i, "unit": None, "locationAtHome": None, "locationAtShop": None,
            "photo": None, "note": None}


def best(runs, fn):
    return min(fn() for _ in range(runs))


folder = tempfile.mkdtemp(prefix="bench-peers-")

try:
    import loro
    source = loro.LoroDoc()
    items = source.get_map("items")
    updates = []
    for start in range(0, n, batch):
        before = source.oplog_vv
        for i in range(start, min(n, start + batch)):
            m = items.insert_container(f"{i:08x}-0000-4000-8000-000000000000", loro.LoroMap())
            for key, value in values(i).items():
                m.insert(key, value)
        source.commit()
        updates.append(source.export(loro.ExportMode.Updates(before)))

    def loro_import():
        started = time.perf_counter()
        target = loro.LoroDoc()
        target.import_batch(updates)
        durable(os.path.join(folder, "loro.snapshot"), target.export(loro.ExportMode.Snapshot()))
        return time.perf_counter() - started

    seconds = best(3, loro_import)
    out["loro"] = {"version": loro.__version__ if hasattr(loro, "__version__") else "", "changes_per_s": round(n * props / seconds)}
except ImportError:
    out["loro"] = None

try:
    import pycrdt
    source = pycrdt.Doc()
    items = source.get("items", type=pycrdt.Map)
    updates = []
    for start in range(0, n, batch):
        state = source.get_state()
        with source.transaction():
            for i in range(start, min(n, start + batch)):
                items[f"{i:08x}-0000-4000-8000-000000000000"] = pycrdt.Map(values(i))
        updates.append(source.get_update(state))

    def pycrdt_import():
        started = time.perf_counter()
        target = pycrdt.Doc()
        target.get("items", type=pycrdt.Map)
        for update in updates:
            target.apply_update(update)
        durable(os.path.join(folder, "pycrdt.update"), target.get_update())
        return time.perf_counter() - started

    seconds = best(3, pycrdt_import)
    out["pycrdt"] = {"changes_per_s": round(n * props / seconds)}
except ImportError:
    out["pycrdt"] = None

shutil.rmtree(folder, ignore_errors=True)  # the peers' durable files: tens of MB a run
print(json.dumps(out))
