"""Store speed and memory at scale: insert, search latency, reopen time and resident memory.

Random 384-dimensional unit vectors (the MiniLM size) in one namespace plus a decoy namespace.
Usage: python benchmarks/store_scale.py [N ...]   (default: 1000 10000 50000)
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime

import numpy as np

from dmem.state.schemas import MemoryRecord
from dmem.store import open_store


def rss_mb() -> float:
    """Peak resident memory of this process, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def record(ns: str, i: int) -> MemoryRecord:
    now = datetime.now(UTC)
    return MemoryRecord(id=str(uuid.uuid4()), namespace=ns, text=f"memory number {i} about topic {i % 97}",
                        created_at=now, updated_at=now)


def run(n: int) -> None:
    rng = np.random.default_rng(0)
    vecs = rng.standard_normal((n, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with tempfile.TemporaryDirectory() as d:
        store = open_store(d)
        started = time.perf_counter()
        batch = 500
        for lo in range(0, n, batch):
            with store.transaction():
                for i in range(lo, min(n, lo + batch)):
                    store.vectors.add(record("user" if i % 10 else "decoy", i), vecs[i])
        insert_s = time.perf_counter() - started
        queries = vecs[rng.choice(n, 200)]
        lat = []
        for q in queries:
            t = time.perf_counter()
            store.vectors.search(["user"], q, 30)
            lat.append(time.perf_counter() - t)
        store.close()
        t = time.perf_counter()
        store = open_store(d)
        reopen_s = time.perf_counter() - t
        store.close()
    p50, p95 = np.percentile(lat, [50, 95]) * 1000
    print(f"{n:>7} records: insert {n / insert_s:>8.0f}/s (batches of {batch}), search top-30 p50 {p50:.2f} ms "
          f"p95 {p95:.2f} ms, reopen {reopen_s:.2f} s, peak RSS {rss_mb():.0f} MB")


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000, 50000]
    for n in sizes:
        run(n)


if __name__ == "__main__":
    main()
