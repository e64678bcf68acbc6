"""HNSW settings for a large user on PostgreSQL: build time, top-30 latency and recall@30 per setting.

Loads one user of ``--large`` memories (``--vectors`` as in store_scale.py) into a fresh pgserver
(or ``--url``), then for each ``m:ef_construction`` pair builds the user's index (timed) and
measures 200 top-30 searches and recall@30 against exact ranking at each ``hnsw.ef_search``.

Usage: python benchmarks/hnsw_tuning.py [--large 100000] [--vectors clustered|minilm|random]
       [--builds 16:64,16:128] [--ef-search 20,40,60,100]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from dataclasses import replace
from typing import Any

import numpy as np
from _scale_load import fill
from store_scale import DIM, Options, latencies, members, postgres_location, recall

from dmem.store.postgres import HnswSettings, open_postgres_store


def drop_index(store: Any, namespace: str) -> None:
    """Forget the namespace's HNSW index, so the next build makes a new one."""
    with store._db.connect() as conn:
        conn.execute(f"DROP INDEX IF EXISTS {store.index.index_name(namespace)}")
        conn.execute("DELETE FROM namespace_indexes WHERE namespace = %s", (namespace,))
    store.index._indexed.discard(namespace)


def sweep(url: str, large: int, opts: Options, builds: list[tuple[int, int]], efs: list[int]) -> None:
    """Load the large user once, then build and measure each setting in turn."""
    store = open_postgres_store(url, dim=DIM, hnsw=HnswSettings(threshold=10**9))
    source = opts.source(large)
    plan = [("large", large)]
    print(f"loaded {large} {opts.vectors} vectors at {large / fill(store, plan, 1, source):.0f}/s; "
          f"shared_buffers {store._db.scalar('SHOW shared_buffers')}", flush=True)
    matrix = members(plan, "large", 1, source)
    for m, efc in builds:
        drop_index(store, "large")
        store.index.hnsw = replace(store.index.hnsw, m=m, ef_construction=efc)
        t = time.perf_counter()
        store.index.build_index("large")
        print(f"m={m} ef_construction={efc}: build {time.perf_counter() - t:.0f} s", flush=True)
        for ef in efs:
            store.index.hnsw = replace(store.index.hnsw, ef_search=ef)
            ms = latencies(store, ["large"], 3, source)
            print(f"  ef_search {ef:>4}: p50 {np.percentile(ms, 50):6.2f} ms p95 {np.percentile(ms, 95):6.2f} ms "
                  f"recall@30 {recall(store, matrix, 'large', source):.3f}", flush=True)
    store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--large", type=int, default=100_000)
    p.add_argument("--vectors", default="clustered")
    p.add_argument("--builds", default="16:64")
    p.add_argument("--ef-search", default="20,40,60,100")
    p.add_argument("--url", default=os.environ.get("DMEM_BENCH_POSTGRES_URL"))
    args = p.parse_args()
    builds = [(int(a), int(b)) for a, b in (x.split(":") for x in args.builds.split(","))]
    efs = [int(x) for x in args.ef_search.split(",")]
    with tempfile.TemporaryDirectory() as d:
        url, server = postgres_location(args.url, os.path.join(d, "pg"))
        try:
            sweep(url, args.large, Options(vectors=args.vectors), builds, efs)
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    main()
