"""What a served process keeps per run: the served graphs in-process, with growing data, then with steady data.

Runs dmem's served graphs (``dmem.graphs.served``: offline engine, hash embeddings, no LangGraph server)
in a loop of one ingestion run and one query run, as ``benchmarks/soak.py``'s clients send them. For
``--grow`` rounds each ingestion sends a new invented exchange; after that it resends earlier ones
with their idempotency keys (recorded once, nothing new), so the stored data stops growing while the
runs go on. Printed every ``--every`` rounds: process RSS and the sizes of the caches a run fills.
RSS that keeps growing in the steady phase is kept per run; growth in the first phase follows the data.

``--peak 100,300,600`` measures instead one question's passing peak (tracemalloc) against the size of
the asked user's transcript: for each size, the user gets that many turns, one more exchange moves
its data on, and the next question is traced, with the peak of each step that reads or indexes
the user's data (nested steps are counted inside their callers too).

Usage:
    python benchmarks/memory_growth.py --backend local --rounds 1300 --grow 300
    python benchmarks/memory_growth.py --backend postgres --rounds 1300 --grow 300
    python benchmarks/memory_growth.py --backend local --peak 100,300,600
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ctypes.util
import functools
import gc
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _soak_text import exchange  # noqa: E402

from dmem.allocator import AllocatorTrim, glibc_trim  # noqa: E402
from dmem.state.sources import MALLOC_TRIM_ENV  # noqa: E402


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def malloc_in_use() -> float | None:
    """MB the C allocator has handed out and not got back (glibc's mallinfo2; None elsewhere).

    Python objects over 512 bytes, NumPy arrays, SQLite's page cache and FAISS's vectors are all in it;
    RSS above it is the allocator's free pages, pymalloc's arenas and the loaded libraries.
    """
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
    except (OSError, AttributeError):
        return None
    return float(info.uordblks + info.hblkhd) / 2**20


def native_probe() -> str:
    """Threads, SQLite's own heap (``sqlite3_memory_used``) and anonymous memory from smaps_rollup."""
    parts = [f"threads {len(os.listdir('/proc/self/task')) if os.path.isdir('/proc/self/task') else 0:3d}"]
    if os.path.isdir("/proc/self/fd"):
        links = []
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):
                links.append(os.readlink(f"/proc/self/fd/{fd}"))
        parts.append(f"sqlite files open {sum(link.endswith('.sqlite') for link in links)}")
    with contextlib.suppress(OSError, AttributeError):
        lib = ctypes.CDLL("libsqlite3.so.0")
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        parts.append(f"sqlite {lib.sqlite3_memory_used() / 2**20:5.2f} MB")
    with contextlib.suppress(OSError):
        rollup = Path("/proc/self/smaps_rollup").read_text()
        anon = re.search(r"^Anonymous:\s+(\d+) kB", rollup, re.M)
        if anon:
            parts.append(f"anon {int(anon.group(1)) / 2**10:6.1f} MB")
    return "  " + "  ".join(parts)


def memray_tracker(path: str) -> Any:
    """A memray tracker with native stacks writing aggregated allocations (leaks and peaks) to ``path``.

    memray is a measuring tool, not a dependency: install it apart (``pip install --target DIR memray``) and
    put DIR on PYTHONPATH for this run only. ``benchmarks/native_owners.py`` reads the file.
    """
    import memray

    Path(path).unlink(missing_ok=True)
    return memray.Tracker(path, native_traces=True, file_format=memray.FileFormat.AGGREGATED_ALLOCATIONS)


class LoopLag:
    """The event loop's longest lateness of a 5 ms sleep since the last ``take``: what blocked the loop."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._since = 0.0

    async def tick(self) -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(0.005)
            if began >= self._since:  # a sleep spanning the probe's own collection and printing is not counted
                self.worst = max(self.worst, time.perf_counter() - began - 0.005)

    def take(self) -> float:
        """The worst lateness since the last call; sleeps begun before this call are not counted."""
        worst, self.worst, self._since = self.worst, 0.0, time.perf_counter()
        return worst


def trim_malloc() -> None:
    """Return the C allocator's free pages to the system (glibc ``malloc_trim(0)``; nothing elsewhere)."""
    if (trim := _glibc_trim()) is not None:
        trim(0)


@functools.cache
def _glibc_trim() -> Callable[[int], int] | None:
    """``dmem.allocator.glibc_trim`` looked up once (it reads the C library's version from the executable)."""
    return glibc_trim()


async def rounds(args: argparse.Namespace, served: object, users: list[str]) -> None:
    from dmem.graphs.served import ServedGraphs
    from dmem.text.lexical import stem_cache_size

    assert isinstance(served, ServedGraphs)
    ingestion, query = served.graph("ingestion"), served.graph("query")
    proc, started = psutil.Process(), time.perf_counter()
    base: tracemalloc.Snapshot | None = None
    profiling = contextlib.ExitStack()
    lag = LoopLag()
    ticker = asyncio.create_task(lag.tick())
    trims = AllocatorTrim()
    if args.trim_every is not None:  # the served entry's trimming thread (0: started nowhere)
        trims.once({MALLOC_TRIM_ENV: str(args.trim_every)})
    for n in range(1, args.rounds + 1):
        if args.memray and n == args.memray_from + 1:
            profiling.enter_context(memray_tracker(args.memray))
        m = n if n <= args.grow else n % args.grow + 1
        key = f"send-{m}"
        said, reply = exchange(args.text, m, "ing", key)
        send = {"messages": [{"role": "user", "content": said}, {"role": "assistant", "content": reply}],
                "user_id": users[m % len(users)], "idempotency_key": key}
        await ingestion.ainvoke(send, config={"configurable": {"thread_id": str(uuid.uuid4())}})
        asked = users[(n * 3 + 4) % len(users)]
        await query.ainvoke({"question": f"What did {asked} talk about lately?", "namespaces": [asked]},
                            config={"configurable": {"thread_id": str(uuid.uuid4())}})
        if args.trim:
            trim_malloc()
        if n % args.every == 0:
            gc.collect()
            resources = served.resources
            cache = resources.embeddings_for(resources.settings)
            phase = "growing" if n <= args.grow else "steady"
            heap = f"  Python heap {tracemalloc.get_traced_memory()[0] / 2**20:6.1f} MB" if args.trace else ""
            heap += f"  malloc {used:6.1f} MB" if (used := malloc_in_use()) is not None else ""
            docs = sum(i.documents for i in resources._indexes.values())
            heap += f"  stemmed words {stem_cache_size():6d}"
            if args.trim_every is not None:
                heap += f"  loop lag max {lag.take() * 1000:5.1f} ms  trims {trims.trims}"
                heap += f" longest {trims.longest * 1000:.2f} ms"
            print(f"round {n:5d} ({phase:7s})  RSS {proc.memory_info().rss / 2**20:6.1f} MB{heap}  "
                  f"embedding cache {len(cache._cache):5d}/{cache.max_items}  index documents {docs:6d}  "
                  f"{time.perf_counter() - started:5.0f} s{native_probe() if args.probe else ''}", flush=True)
            if args.trace and base is None:
                base = tracemalloc.take_snapshot()
    ticker.cancel()
    trims.stop()
    gc.collect()
    profiling.close()
    if args.trace and base is not None:
        diff = tracemalloc.take_snapshot().compare_to(base, "traceback")
        print(f"\nPython heap growth since round {args.every}, by allocation site (top {args.top}):")
        for stat in diff[:args.top]:
            print(f"{stat.size_diff / 2**10:+10.1f} KB {stat.count_diff:+7d} blocks")
            for line in stat.traceback.format(limit=args.trace)[-2 * min(args.trace, 4):]:
                print(f"      {line.strip()}")


PEAK_STEPS = [
    ("dmem.store.transcript", "Transcript", "messages"), ("dmem.store.transcript", "Transcript", "amessages"),
    ("dmem.evidence.indexes", "EvidenceIndexes", "memories"), ("dmem.evidence.indexes", "EvidenceIndexes", "turns"),
    ("dmem.evidence.indexes", "EvidenceIndexes", "transcript"), ("dmem.evidence.hybrid", None, "memory_query"),
    ("dmem.evidence.hybrid", None, "fused_memories"), ("dmem.evidence.hybrid", None, "source_ranking"),
    ("dmem.nodes.deliberation", None, "plan_for"), ("dmem.nodes.deliberation", None, "focus_seeds"),
    ("dmem.nodes.deliberation", None, "told_turns"), ("dmem.nodes.deliberation", None, "reading_plan"),
    ("dmem.evidence.hybrid", None, "turns")]
"""The steps of a question whose passing peak ``--peak`` reports: (module, class or None, function)."""


class PeakSteps:
    """Wraps the question's reading and indexing steps to record each call's tracemalloc peak above its start."""

    def __init__(self) -> None:
        self.peaks: dict[str, list[float]] = {}
        self._stack: list[list[float]] = []  # per open call: [start, highest peak seen]
        self._lock = threading.Lock()

    def install(self) -> None:
        import importlib

        for module_name, cls_name, name in PEAK_STEPS:
            module = importlib.import_module(module_name)
            owner = getattr(module, cls_name) if cls_name else module
            if not hasattr(owner, name):
                continue  # a step this version of dmem does not have
            label = f"{cls_name or module_name.rsplit('.', 1)[1]}.{name}"
            setattr(owner, name, self._wrap(label, getattr(owner, name)))

    def _wrap(self, label: str, fn: Any) -> Any:
        if asyncio.iscoroutinefunction(fn):
            async def awrapped(*args: Any, **kwargs: Any) -> Any:
                self._enter()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    self._leave(label)
            return awrapped

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            self._enter()
            try:
                return fn(*args, **kwargs)
            finally:
                self._leave(label)
        return wrapped

    def _enter(self) -> None:
        with self._lock:
            current, peak = tracemalloc.get_traced_memory()
            for frame in self._stack:
                frame[1] = max(frame[1], peak)
            tracemalloc.reset_peak()
            self._stack.append([current, current])

    def _leave(self, label: str) -> None:
        with self._lock:
            start, highest = self._stack.pop()
            peak = max(highest, tracemalloc.get_traced_memory()[1])
            for frame in self._stack:
                frame[1] = max(frame[1], peak)
            self.peaks.setdefault(label, []).append((peak - start) / 2**10)


async def peaks(args: argparse.Namespace, served: object) -> None:
    """One question's passing peak (tracemalloc, whole query run and per step) against the user's transcript size."""
    from dmem.graphs.served import ServedGraphs

    assert isinstance(served, ServedGraphs)
    ingestion, query = served.graph("ingestion"), served.graph("query")
    steps = PeakSteps()
    steps.install()
    user, sent = "peak-user", 0

    async def send(n: int) -> None:
        said, reply = exchange(args.text, n, "peak", f"peak-{n}")
        body = {"messages": [{"role": "user", "content": said}, {"role": "assistant", "content": reply}],
                "user_id": user, "idempotency_key": f"peak-{n}"}
        await ingestion.ainvoke(body, config={"configurable": {"thread_id": str(uuid.uuid4())}})

    print(f"{'turns':>6} {'run peak':>10}  median question  route  steps (KB above each call's start: last, calls)")
    for size in [int(s) for s in args.peak.split(",")]:
        while 2 * sent < size:
            await send(sent)
            sent += 1
        await query.ainvoke({"question": f"What did {user} talk about lately?", "namespaces": [user]},
                            config={"configurable": {"thread_id": str(uuid.uuid4())}})  # indexes built
        await send(sent)  # the data moves on: the next question finds its indexes stale
        sent += 1
        steps.peaks.clear()
        gc.collect()
        steps._enter()  # the run is the outermost step: the steps' peaks count in it
        try:
            out = await query.ainvoke({"question": f"What did {user} talk about lately?", "namespaces": [user]},
                                      config={"configurable": {"thread_id": str(uuid.uuid4())}})
        finally:
            steps._leave("run")
        run_peak, traced_at = steps.peaks.pop("run")[-1], 2 * sent
        detail = "  ".join(f"{label} {values[-1]:.0f} ({len(values)})" for label, values in sorted(steps.peaks.items()))
        tracemalloc.stop()  # timed without tracing: each question after a new exchange, so its indexes are stale
        took = []
        for _ in range(args.timed):
            await send(sent)
            sent += 1
            began = time.perf_counter()
            await query.ainvoke({"question": f"What did {user} talk about lately?", "namespaces": [user]},
                                config={"configurable": {"thread_id": str(uuid.uuid4())}})
            took.append(time.perf_counter() - began)
        tracemalloc.start(1)
        timing = f"{statistics.median(took) * 1000:5.0f} ms" if took else "    - ms"
        print(f"{traced_at:6d} {run_peak:8.0f} KB  {timing}  route {out.get('route')}  {detail}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", choices=["local", "postgres"], default="local")
    p.add_argument("--rounds", type=int, default=1300)
    p.add_argument("--grow", type=int, default=300, help="rounds that send new exchanges; later rounds resend")
    p.add_argument("--every", type=int, default=100)
    p.add_argument("--users", type=int, default=6)
    p.add_argument("--text", choices=["chat", "unique"], default="chat",
                   help="the soak's texts (_soak_text.py): chat over a fixed vocabulary (default), or unique: a "
                        "never-repeated word and the idempotency key in every exchange (used until 2026-12-02)")
    p.add_argument("--trace", type=int, default=0,
                   help="frames per allocation site: trace the Python heap (tracemalloc) and print its growth by site")
    p.add_argument("--top", type=int, default=12, help="allocation sites printed with --trace")
    p.add_argument("--trim", action="store_true",
                   help="hand the C allocator's free pages back after every round (glibc malloc_trim): "
                        "RSS growth that goes away with it is pages kept after passing peaks, not data")
    p.add_argument("--trim-every", type=float, default=None, metavar="SECONDS",
                   help="start the served entry's trimming thread (dmem.allocator, DMEM_MALLOC_TRIM) at this interval "
                        "(0: not started) and print the loop's longest lateness, the trims and the longest trim")
    p.add_argument("--probe", action="store_true",
                   help="also print the thread count, SQLite's own heap (sqlite3_memory_used) and anonymous memory")
    p.add_argument("--memray", default="", metavar="FILE",
                   help="track the C and Python allocations (memray, native stacks) from round --memray-from to the "
                        "end into FILE; what is still allocated at the end grew in those rounds (native_owners.py)")
    p.add_argument("--memray-from", type=int, default=500, help="with --memray: the rounds before it are warm-up")
    p.add_argument("--peak", default="",
                   help="comma-separated transcript sizes: measure one question's passing peak at each instead")
    p.add_argument("--timed", type=int, default=7,
                   help="with --peak: questions timed (untraced) at each size, each after a new exchange (median)")
    args = p.parse_args()
    if args.peak:
        tracemalloc.start(1)
    elif args.trace:
        tracemalloc.start(args.trace)
    tmp = Path(tempfile.mkdtemp(prefix="dmem-growth-"))
    pg = None
    os.environ["DMEM_EMBEDDING_MODEL"] = "hash"
    if args.backend == "postgres":
        from tests.postgres_server import StoppablePostgres

        pg = StoppablePostgres(str(tmp / "pg"))
        os.environ["DMEM_STORE_URL"] = pg.url
    else:
        os.environ["DMEM_STORE_DIR"] = str(tmp / "store")
    from dmem.graphs.served import ServedGraphs

    served = ServedGraphs()
    try:
        if args.peak:
            asyncio.run(peaks(args, served))
        else:
            asyncio.run(rounds(args, served, [f"soak-user-{i}" for i in range(args.users)]))
    finally:
        served.resources.close()
        if pg is not None:
            pg.server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
