"""Store speed and memory at scale, local and PostgreSQL side by side: insert, search, writers, RSS.

N memories spread over 1,000 users plus one large user (100,000 memories by default), as
384-dimensional unit vectors (the MiniLM size) of one kind (``--vectors``, see _scale_vectors.py):
``clustered`` (default; fitted to MiniLM statistics), ``minilm`` (the large user really embedded)
or ``random`` (HNSW's worst case). Prints, per backend: single-writer insert throughput, top-30
search p50/p95 for a typical user (200 searches over random users, run twice: the first pass is
each user's first search in the process, which loads its vectors in a local store; the figure is
the second) and for the large one (with recall@30 of the large user's search
against exact ranking, at each ``--ef-search``), 4 concurrent writer processes, and peak RSS.

Usage: python benchmarks/store_scale.py [N ...] [--backend local|postgres|both] [--large 100000]
       [--users 1000] [--url postgresql://...] [--vectors clustered|minilm|random]
       [--m 16] [--ef-construction 64] [--ef-search 40,100]
       (default: N=100000, both; PostgreSQL from pgserver; HNSW settings: dmem's defaults)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, cast

import numpy as np
from _scale_load import batches, concurrent_writers, fill
from _scale_vectors import DIM, KINDS, VectorSource

from dmem.store import MemoryStore, is_postgres_url, open_any_store

QUERIES = 200
WRITERS = 4
ONLINE = 1000


def rss_mb() -> float:
    """Peak resident memory of this process, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def latencies(store: MemoryStore, names: list[str], seed: int, source: VectorSource) -> list[float]:
    """Milliseconds of QUERIES top-30 searches, each of one of ``names``."""
    rng = np.random.default_rng(seed)
    out = []
    for q in source.queries(QUERIES, seed, large=names == ["large"]):
        ns = names[int(rng.integers(len(names)))]
        t = time.perf_counter()
        store.vectors.search([ns], q, 30)
        out.append((time.perf_counter() - t) * 1000)
    return out


def members(plan: list[tuple[str, int]], ns: str, seed: int, source: VectorSource) -> np.ndarray:
    """The vectors the plan inserts into ``ns``, in insertion order."""
    rows = [vecs[[j for j, (name, _) in enumerate(chunk) if name == ns]] for chunk, vecs in batches(plan, seed, source)]
    return np.vstack(rows)


def recall(store: MemoryStore, matrix: np.ndarray, ns: str, source: VectorSource, n_queries: int = 50) -> float:
    """Mean share of the store's top-30 that is in the exact top-30 over ``matrix`` (the vectors of ``ns``).

    Ties at the 30th place count as found (near-duplicate facts make exact ties common).
    """
    found = 0
    for q in source.queries(n_queries, 99, large=True):
        cut = np.partition(matrix @ q, -30)[-30] - 1e-5
        found += sum(1 for h in store.vectors.search([ns], q, 30) if h.score >= cut)
    return found / (30 * n_queries)


@dataclass(frozen=True)
class Options:
    """What one run measures beyond the sizes: the vectors and the PostgreSQL HNSW settings."""

    vectors: str = "clustered"
    cache: str = os.path.join(tempfile.gettempdir(), "dmem-bench-vectors")
    m: int | None = None
    ef_construction: int | None = None
    ef_search: tuple[int, ...] = ()
    """Values to measure the large user's search at (empty: dmem's default only)."""
    writers: int = WRITERS

    def source(self, large: int) -> VectorSource:
        return VectorSource(self.vectors, large + ONLINE, Path(self.cache))

    def hnsw(self) -> Any:
        from dmem.store.postgres import HnswSettings

        given = {"m": self.m, "ef_construction": self.ef_construction}
        # A bulk load builds the large user's HNSW index once, after the load (timed).
        return replace(HnswSettings(), threshold=10**9, **{k: v for k, v in given.items() if v is not None})


def large_user(store: MemoryStore, plan: list[tuple[str, int]], source: VectorSource,
               ef_search: tuple[int, ...]) -> dict[str, Any]:
    """The large user's search p50/p95 and recall@30, at each ef_search (PostgreSQL) or once (local)."""
    index = getattr(store, "index", None)
    matrix = members(plan, "large", 1, source)
    out: dict[str, Any] = {}
    for ef in ef_search if index is not None and ef_search else (0,):
        if ef:
            index.hnsw = replace(index.hnsw, ef_search=ef)
        big = latencies(store, ["large"], 3, source)
        out[str(ef or "default")] = {"p50": float(np.percentile(big, 50)), "p95": float(np.percentile(big, 95)),
                                     "recall30": recall(store, matrix, "large", source)}
    return out


def measure(location: str, n: int, users: int, large: int, opts: Options) -> dict[str, Any]:
    """Every figure for one backend at one size."""
    postgres = is_postgres_url(location)
    source = opts.source(large)
    store = open_any_store(location, dim=DIM, lock_timeout=120, **({"hnsw": opts.hnsw()} if postgres else {}))
    typical = [f"user{u}" for u in range(users)]
    plan = [(ns, n // users) for ns in typical] + [("large", large)]
    figures: dict[str, Any] = {"memories": n + large, "vectors": opts.vectors,
                               "insert_per_s": (n + large) / fill(store, plan, 1, source)}
    if postgres:
        t = time.perf_counter()
        cast(Any, store).index.build_index("large")
        figures["hnsw_build_s"] = time.perf_counter() - t
        figures["hnsw"] = {"m": store.index.hnsw.m, "ef_construction": store.index.hnsw.ef_construction}
        figures["plan"] = store.index.explain("large", source.queries(1, 5, large=True)[0])
    # First searches of each user in this process (local: its vectors load from SQLite), then the
    # same searches again (local: loaded, within the default vector_cache).
    cold = latencies(store, typical, 2, source)
    typ = latencies(store, typical, 2, source)
    figures |= {"typical_p50": float(np.percentile(typ, 50)), "typical_p95": float(np.percentile(typ, 95)),
                "typical_first_p50": float(np.percentile(cold, 50)),
                "typical_first_p95": float(np.percentile(cold, 95))}
    figures["large"] = large_user(store, plan, source, opts.ef_search)
    figures["peak_rss_mb"] = rss_mb()  # includes the recall check's copy of the large user's vectors
    # Online inserts into the large user (through its HNSW index on PostgreSQL), after the rest.
    figures["large_insert_per_s"] = ONLINE / fill(store, [("large", ONLINE)], 7, source, first=large)
    store.close()
    figures["writers"] = opts.writers
    figures["writers_per_s"] = concurrent_writers(location, opts.vectors, opts.writers)
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


def run_one(backend: str, n: int, users: int, large: int, url: str | None, opts: Options) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        if backend == "local":
            return measure(os.path.join(d, "store"), n, users, large, opts)
        location, server = postgres_location(url, os.path.join(d, "pg"))
        try:
            figures = measure(location, n, users, large, opts)
            figures["server_uss_mb"] = server_rss_mb(server)
            return figures
        finally:
            if server is not None:
                server.cleanup()


def show(backend: str, f: dict[str, Any]) -> None:
    server = f" (+ server {f['server_uss_mb']:.0f} MB USS)" if f.get("server_uss_mb") else ""
    build = (f" (then HNSW build {f['hnsw_build_s']:.0f} s, m={f['hnsw']['m']} "
             f"ef_construction={f['hnsw']['ef_construction']})" if "hnsw_build_s" in f else "")
    large = "; ".join(f"{'' if ef == 'default' else f'ef_search {ef}: '}p50 {g['p50']:.2f} ms p95 {g['p95']:.2f} ms "
                      f"recall@30 {g['recall30']:.3f}" for ef, g in f["large"].items())
    w = f["writers_per_s"]
    writers = f"{f.get('writers', WRITERS)} writers " + (f"{w:.0f}/s" if isinstance(w, float) else f"failed: {w}")
    print(f"{backend:>8} {f['memories']:>8} {f['vectors']} vectors: insert {f['insert_per_s']:>6.0f}/s{build}, "
          f"large-user online insert {f['large_insert_per_s']:.0f}/s, typical user top-30 p50 "
          f"{f['typical_p50']:.2f} ms p95 {f['typical_p95']:.2f} ms (a user's first search in the process "
          f"{f['typical_first_p50']:.2f} / {f['typical_first_p95']:.2f} ms), large user {large}, {writers}, "
          f"peak RSS {f['peak_rss_mb']:.0f} MB{server}", flush=True)
    if f.get("plan"):  # without the query vector
        lines = [re.sub(r"'\[[^]]*\]'", "q", line.strip()) for line in f["plan"].splitlines()]
        print("  large-user plan: " + " | ".join(lines), flush=True)


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("sizes", nargs="*", type=int, default=[100_000])
    p.add_argument("--backend", choices=["local", "postgres", "both"], default="both")
    p.add_argument("--users", type=int, default=1000)
    p.add_argument("--large", type=int, default=100_000)
    p.add_argument("--url", default=os.environ.get("DMEM_BENCH_POSTGRES_URL"))
    p.add_argument("--vectors", choices=KINDS, default="clustered")
    p.add_argument("--cache", default=Options.cache, help="where MiniLM embeddings are kept between runs")
    p.add_argument("--m", type=int, help="HNSW m (default: dmem's)")
    p.add_argument("--ef-construction", type=int, help="HNSW ef_construction (default: dmem's)")
    p.add_argument("--ef-search", default="", help="comma-separated hnsw.ef_search values for the large user")
    p.add_argument("--writers", type=int, default=WRITERS, help="concurrent writer processes")
    p.add_argument("--json", action="store_true", help="print one JSON line per run (used for --backend both)")
    return p.parse_args()


def main() -> None:
    args = arguments()
    opts = Options(args.vectors, args.cache, args.m, args.ef_construction,
                   tuple(int(x) for x in args.ef_search.split(",") if x), args.writers)
    backends = ["local", "postgres"] if args.backend == "both" else [args.backend]
    if args.vectors == "minilm":
        opts.source(args.large)  # embed (and cache) once, before the per-backend processes
    for n in args.sizes:
        for backend in backends:
            if args.backend == "both":  # a process per backend, so peak RSS is each one's own
                given = {k.replace("_", "-"): v for k, v in asdict(opts).items() if v not in (None, ())}
                given["ef-search"] = args.ef_search
                cmd = [sys.executable, __file__, str(n), "--backend", backend, "--users", str(args.users),
                       "--large", str(args.large), "--json", *(["--url", args.url] if args.url else []),
                       *[a for k, v in given.items() if v != "" for a in (f"--{k}", str(v))]]
                figures = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True)
                                     .stdout.strip().splitlines()[-1])
            else:
                figures = run_one(backend, n, args.users, args.large, args.url, opts)
            if args.json:
                print(json.dumps(figures))
            else:
                show(backend, figures)


if __name__ == "__main__":
    main()
