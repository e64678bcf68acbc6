"""Store speed and memory at scale, local and PostgreSQL side by side: insert, search, writers, RSS.

N memories spread over 1,000 users plus one large user (100,000 memories by default), random
384-dimensional unit vectors (the MiniLM size). Prints, per backend: single-writer insert
throughput, top-30 search p50/p95 for a typical user and for the large one (with recall@30 of the
large user's search against exact ranking), 4 concurrent writer processes, and peak RSS.

Usage: python benchmarks/store_scale.py [N ...] [--backend local|postgres|both] [--large 100000]
       [--users 1000] [--url postgresql://...]   (default: N=100000, both; PostgreSQL from pgserver)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, cast

import numpy as np

from dmem.state.schemas import MemoryRecord
from dmem.store import MemoryStore, is_postgres_url, open_any_store

DIM = 384
BATCH = 500
QUERIES = 200
WRITERS = 4
PER_WRITER = 2000
ONLINE = 1000


def rss_mb() -> float:
    """Peak resident memory of this process, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def units(n: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def record(ns: str, i: int) -> MemoryRecord:
    now = datetime.now(UTC)
    return MemoryRecord(id=f"{ns}-{i}", namespace=ns, text=f"memory number {i} about topic {i % 97}",
                        created_at=now, updated_at=now)


def batches(plan: list[tuple[str, int]], seed: int,
            first: int = 0) -> Iterator[tuple[list[tuple[str, int]], np.ndarray]]:
    """The plan's (namespace, index) pairs in batches of BATCH, with their (reproducible) vectors."""
    pending: list[tuple[str, int]] = [(ns, first + i) for ns, count in plan for i in range(count)]
    for lo in range(0, len(pending), BATCH):
        chunk = pending[lo:lo + BATCH]
        yield chunk, units(len(chunk), seed + lo)


def fill(store: MemoryStore, plan: list[tuple[str, int]], seed: int, first: int = 0) -> float:
    """Insert ``count`` memories per (namespace, count) in transactions of BATCH; returns seconds."""
    started = time.perf_counter()
    for chunk, vecs in batches(plan, seed, first):
        with store.transaction():
            for (ns, i), vec in zip(chunk, vecs, strict=True):
                store.vectors.add(record(ns, i), vec)
    return time.perf_counter() - started


def latencies(store: MemoryStore, names: list[str], seed: int) -> list[float]:
    rng = np.random.default_rng(seed)
    out = []
    for q in units(QUERIES, seed):
        ns = names[int(rng.integers(len(names)))]
        t = time.perf_counter()
        store.vectors.search([ns], q, 30)
        out.append((time.perf_counter() - t) * 1000)
    return out


def recall(store: MemoryStore, plan: list[tuple[str, int]], ns: str, seed: int, n_queries: int = 50) -> float:
    """Mean overlap of the store's top-30 with the exact top-30 over the vectors inserted into ``ns``."""
    ids: list[str] = []
    rows: list[np.ndarray] = []
    for chunk, vecs in batches(plan, seed):
        keep = [j for j, (name, _) in enumerate(chunk) if name == ns]
        ids.extend(f"{ns}-{chunk[j][1]}" for j in keep)
        rows.append(vecs[keep])
    matrix = np.vstack(rows)
    found = 0
    for q in units(n_queries, 99):
        exact = {ids[j] for j in np.argsort(-(matrix @ q))[:30]}
        found += len(exact & {h.record.id for h in store.vectors.search([ns], q, 30)})
    return found / (30 * n_queries)


def writer(location: str, ns: str, seed: int, start: Any, out: Any) -> None:
    store = open_any_store(location, dim=DIM, lock_timeout=120)
    start.wait()
    out.put(fill(store, [(ns, PER_WRITER)], seed=seed))
    store.close()


def concurrent_writers(location: str) -> float:
    """Memories per second written by WRITERS processes at once, each into its own new user."""
    ctx = mp.get_context("spawn")
    start, out = ctx.Barrier(WRITERS + 1), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(location, f"writer{w}", 10_000 * w, start, out)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    start.wait()
    t = time.perf_counter()
    for _ in procs:
        out.get()
    elapsed = time.perf_counter() - t
    for p in procs:
        p.join()
    return WRITERS * PER_WRITER / elapsed


def measure(location: str, n: int, users: int, large: int) -> dict[str, Any]:
    """Every figure for one backend at one size."""
    postgres = is_postgres_url(location)
    # A bulk load into PostgreSQL builds the large user's HNSW index once, after the load (timed).
    store = open_any_store(location, dim=DIM, lock_timeout=120, **({"hnsw_threshold": 10**9} if postgres else {}))
    typical = [f"user{u}" for u in range(users)]
    plan = [(ns, n // users) for ns in typical] + [("large", large)]
    figures: dict[str, Any] = {"memories": n + large, "insert_per_s": (n + large) / fill(store, plan, seed=1)}
    if postgres:
        t = time.perf_counter()
        cast(Any, store).index.build_index("large")
        figures["hnsw_build_s"] = time.perf_counter() - t
    typ = latencies(store, typical, seed=2)
    big = latencies(store, ["large"], seed=3)
    figures |= {
        "typical_p50": float(np.percentile(typ, 50)), "typical_p95": float(np.percentile(typ, 95)),
        "large_p50": float(np.percentile(big, 50)), "large_p95": float(np.percentile(big, 95)),
        "peak_rss_mb": rss_mb(),  # before the recall check, which holds the large user's vectors
    }
    figures["large_recall30"] = recall(store, plan, "large", seed=1)
    # Online inserts into the large user (through its HNSW index on PostgreSQL), after the rest.
    figures["large_insert_per_s"] = ONLINE / fill(store, [("large", ONLINE)], seed=7, first=large)
    store.close()
    figures["writers_per_s"] = concurrent_writers(location)
    return figures


def postgres_location(url: str | None, workdir: str) -> tuple[str, Any]:
    """The URL to use and the pgserver to stop afterwards (None for a given server)."""
    if url:
        return url, None
    import pgserver

    server = pgserver.get_server(workdir, cleanup_mode="stop")
    server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
    return server.get_uri(), server


def server_rss_mb(server: Any) -> float | None:
    """Resident memory of every PostgreSQL process of a pgserver we started (shared memory counted once)."""
    try:
        import psutil
    except ImportError:
        return None
    procs = [p for p in psutil.process_iter(["name", "cmdline"]) if p.info["name"] == "postgres"
             and server is not None and str(server.pgdata) in " ".join(p.info["cmdline"] or [])]
    main = [p for p in procs if "-D" in (p.info["cmdline"] or [])]
    pids = {p.pid for p in main} | {c.pid for p in main for c in p.children()}
    return sum(psutil.Process(pid).memory_full_info().uss for pid in pids) / 2**20 if pids else None


def run_one(backend: str, n: int, users: int, large: int, url: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        if backend == "local":
            return measure(os.path.join(d, "store"), n, users, large)
        location, server = postgres_location(url, os.path.join(d, "pg"))
        try:
            figures = measure(location, n, users, large)
            figures["server_uss_mb"] = server_rss_mb(server)
            return figures
        finally:
            if server is not None:
                server.cleanup()


def show(backend: str, f: dict[str, Any]) -> None:
    server = f" (+ server {f['server_uss_mb']:.0f} MB USS)" if f.get("server_uss_mb") else ""
    build = f" (then HNSW build {f['hnsw_build_s']:.0f} s)" if "hnsw_build_s" in f else ""
    print(f"{backend:>8} {f['memories']:>8}: insert {f['insert_per_s']:>6.0f}/s{build}, large-user online insert "
          f"{f['large_insert_per_s']:.0f}/s, typical user top-30 p50 "
          f"{f['typical_p50']:.2f} ms p95 {f['typical_p95']:.2f} ms, large user p50 {f['large_p50']:.2f} ms "
          f"p95 {f['large_p95']:.2f} ms (recall@30 {f['large_recall30']:.3f}), {WRITERS} writers "
          f"{f['writers_per_s']:.0f}/s, peak RSS {f['peak_rss_mb']:.0f} MB{server}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("sizes", nargs="*", type=int, default=[100_000])
    p.add_argument("--backend", choices=["local", "postgres", "both"], default="both")
    p.add_argument("--users", type=int, default=1000)
    p.add_argument("--large", type=int, default=100_000)
    p.add_argument("--url", default=os.environ.get("DMEM_BENCH_POSTGRES_URL"))
    p.add_argument("--json", action="store_true", help="print one JSON line per run (used for --backend both)")
    args = p.parse_args()
    backends = ["local", "postgres"] if args.backend == "both" else [args.backend]
    for n in args.sizes:
        for backend in backends:
            if args.backend == "both":  # a process per backend, so peak RSS is each one's own
                cmd = [sys.executable, __file__, str(n), "--backend", backend, "--users", str(args.users),
                       "--large", str(args.large), "--json", *(["--url", args.url] if args.url else [])]
                figures = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True)
                                     .stdout.strip().splitlines()[-1])
            else:
                figures = run_one(backend, n, args.users, args.large, args.url)
            if args.json:
                print(json.dumps(figures))
            else:
                show(backend, figures)


if __name__ == "__main__":
    main()
