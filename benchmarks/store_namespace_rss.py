"""Resident memory of a process that opens a local store and searches one namespace.

Builds a store of N memories over U namespaces (random 384-dimensional unit vectors, seeded),
then runs a fresh probe process per figure: it opens the store as a writer, runs 20 top-30
searches of one namespace, and reports its resident memory. Each probe runs twice: "cold" (the
first open after the build or after another code version touched the snapshots) and "warm" (with
the snapshots the cold run saved). With ``--base-code DIR`` (a checkout of another dmem version)
the same probes run on that code too, for a before/after comparison on the same store. Last, on
this code, one probe per ``--vector-cache`` budget searches every namespace once, to show the
bound on loaded vectors.

Usage: python benchmarks/store_namespace_rss.py [--memories 200000] [--namespaces 200]
       [--base-code DIR] [--vector-cache 0,50000] [--dir STORE_DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DIM = 384
BATCH = 5000

PROBE = r"""
import json, resource, sys, time
import numpy as np

def rss_mb(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    return float("nan")

from dmem.store import open_store

before = rss_mb("VmRSS:")
t = time.perf_counter()
options = {} if sys.argv[3] == "-" else {"vector_cache": int(sys.argv[3])}
store = open_store(sys.argv[1], dim=384, **options)
opened = time.perf_counter() - t
namespaces = sys.argv[2].split(",")
rng = np.random.default_rng(7)
t = time.perf_counter()
for i in range(max(20, len(namespaces))):
    hits = store.vectors.search([namespaces[i % len(namespaces)]], rng.normal(size=384).tolist(), 30)
searched = time.perf_counter() - t
loaded = getattr(store._vectors, "loaded_namespaces", lambda: None)()
print(json.dumps({"rss_before_open_mb": round(before, 1), "rss_after_search_mb": round(rss_mb("VmRSS:"), 1),
                  "peak_rss_mb": round(rss_mb("VmHWM:"), 1), "open_s": round(opened, 3),
                  "searches_s": round(searched, 3), "hits": len(hits),
                  "loaded_namespaces": None if loaded is None else len(loaded)}))
store.close()
"""


def build(path: Path, memories: int, namespaces: int) -> None:
    """Fill a new store with ``memories`` seeded random unit vectors spread evenly over the namespaces."""
    from datetime import UTC, datetime

    from dmem.state.schemas import MemoryRecord
    from dmem.store import open_store

    rng = np.random.default_rng(0)
    now = datetime.now(UTC)
    with open_store(path, dim=DIM) as store:
        for start in range(0, memories, BATCH):
            vectors = rng.normal(size=(min(BATCH, memories - start), DIM)).astype(np.float32)
            with store.transaction():
                for j, vector in enumerate(vectors):
                    i = start + j
                    record = MemoryRecord(id=f"m{i}", namespace=f"user{i % namespaces}", text=f"fact number {i}",
                                          created_at=now, updated_at=now)
                    store.vectors.add(record, vector.tolist())


def probe(code: Path, path: Path, namespaces: list[str], vector_cache: int | None = None) -> dict[str, object]:
    """One fresh process on ``code``: open, search each namespace (20 searches at least), report memory, times."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DMEM_")}, "PYTHONPATH": str(code)}
    done = subprocess.run([sys.executable, "-c", PROBE, str(path), ",".join(namespaces),
                           "-" if vector_cache is None else str(vector_cache)], capture_output=True, text=True,
                          env=env, cwd=code, timeout=1800, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=200_000)
    parser.add_argument("--namespaces", type=int, default=200)
    parser.add_argument("--base-code", type=Path, help="another dmem checkout to measure on the same store")
    parser.add_argument("--vector-cache", type=lambda v: [int(x) for x in v.split(",")], default=[0, 50_000],
                        help="budgets for a probe that searches every namespace (comma-separated; 0: no bound)")
    parser.add_argument("--dir", type=Path, help="where to build the store (default: a temp directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dmem-rss-") as tmp:
        path = args.dir or Path(tmp) / "store"
        t = time.perf_counter()
        build(path, args.memories, args.namespaces)
        print(f"built {args.memories:,} memories over {args.namespaces} namespaces in "
              f"{time.perf_counter() - t:.1f} s ({path})")
        versions = [("this code", ROOT)] + ([("base code", args.base_code.resolve())] if args.base_code else [])
        for label, code in versions:
            for run in ("cold", "warm"):
                print(f"{label}, {run}, one namespace: {json.dumps(probe(code, path, ['user1']))}", flush=True)
        every = [f"user{i}" for i in range(args.namespaces)]
        for cache in args.vector_cache:
            figures = probe(ROOT, path, every, cache)
            print(f"this code, every namespace searched once, vector_cache={cache}: {json.dumps(figures)}", flush=True)


if __name__ == "__main__":
    main()
