"""Loading the store benchmark's memories: in transactions of BATCH, and by concurrent writer processes."""

from __future__ import annotations

import multiprocessing as mp
import queue
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from _scale_vectors import DIM, VectorSource

from dmem.state.schemas import MemoryRecord
from dmem.store import MemoryStore, open_any_store

BATCH = 500
PER_WRITER = 2000


def record(ns: str, i: int) -> MemoryRecord:
    now = datetime.now(UTC)
    return MemoryRecord(id=f"{ns}-{i}", namespace=ns, text=f"memory number {i} about topic {i % 97}",
                        created_at=now, updated_at=now)


def batches(plan: list[tuple[str, int]], seed: int, source: VectorSource,
            first: int = 0) -> Iterator[tuple[list[tuple[str, int]], np.ndarray]]:
    """The plan's (namespace, index) pairs in batches of BATCH, with their (reproducible) vectors."""
    pending: list[tuple[str, int]] = [(ns, first + i) for ns, count in plan for i in range(count)]
    for lo in range(0, len(pending), BATCH):
        chunk = pending[lo:lo + BATCH]
        yield chunk, source.memories(chunk, seed + lo)


def fill(store: MemoryStore, plan: list[tuple[str, int]], seed: int, source: VectorSource, first: int = 0) -> float:
    """Insert ``count`` memories per (namespace, count) in transactions of BATCH; returns seconds."""
    started = time.perf_counter()
    for chunk, vecs in batches(plan, seed, source, first):
        with store.transaction():
            for (ns, i), vec in zip(chunk, vecs, strict=True):
                store.vectors.add(record(ns, i), vec)
    return time.perf_counter() - started


def writer(location: str, ns: str, seed: int, kind: str, start: Any, out: Any) -> None:
    store = open_any_store(location, dim=DIM, lock_timeout=120)
    source = VectorSource(kind, 0, Path(tempfile.gettempdir()))
    out.put("ready")
    start.wait()
    began = time.time()  # wall clock, comparable across processes
    fill(store, [(ns, PER_WRITER)], seed, source)
    out.put((began, time.time()))
    store.close()


def collect(out: Any, procs: list[Any]) -> list[Any]:
    """One message from each writer; raises RuntimeError when a writer died first (e.g. out of memory)."""
    got: list[Any] = []
    while len(got) < len(procs):
        try:
            got.append(out.get(timeout=2))
        except queue.Empty:
            dead = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"a writer process died (exit code {dead[0]})") from None
    return got


def concurrent_writers(location: str, kind: str, writers: int) -> float | str:
    """Memories per second written by ``writers`` processes at once, each into its own new user."""
    ctx = mp.get_context("spawn")
    start, out = ctx.Event(), ctx.Queue()
    kind = "random" if kind == "random" else "clustered"  # new users: not worth embedding for real
    procs = [ctx.Process(target=writer, args=(location, f"writer{w}", 10_000 * w, kind, start, out))
             for w in range(writers)]
    for p in procs:
        p.start()
    try:
        collect(out, procs)  # every writer has opened the store
        start.set()
        spans = collect(out, procs)  # from the first writer's start to the last one's end
        return writers * PER_WRITER / (max(end for _, end in spans) - min(began for began, _ in spans))
    except RuntimeError as exc:
        return str(exc)
    finally:
        for p in procs:
            if p.exitcode is None and not start.is_set():
                p.kill()
            p.join()
