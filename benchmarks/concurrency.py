"""Concurrent ``aask`` / ``aadd`` (async path) against ``ask`` / ``add`` from threads (sync path), and served queries.

A fake chat model takes ``--delay`` seconds per call (default 0.5). For each concurrency level (20 and
100) it prints, side by side for the sync and the async path: wall time, most model calls in flight at
once, model calls that went through the model's async API (``ainvoke``, recorded by the fake), and the worst
event-loop lag seen by a probe that wakes every 5 ms (async path only), with the most CPU the loop
thread spent between two wakes ("loop busy": the lag the work on the loop causes, without the time a
loaded machine gives other processes; it includes up to the 5 ms the probe sleeps), the longest full
garbage collection on the loop thread, and the loop thread's CPU per call. Then it starts a real
``langgraph dev`` (without --allow-blocking) and reports p50/p95 of ``--served`` concurrent queries,
and whether the served entry froze its start-up heap (``dmem.runtime``, from the server's log).
Every person and sentence is invented.

Usage: python benchmarks/concurrency.py [--levels 20 100] [--delay 0.5] [--endpoint-concurrency 20]
                                        [--served 50] [--no-served] [--served-no-freeze] [--paths sync async]
                                        [--freeze-gc]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from dmem.api import Memory
from dmem.runtime import freeze_startup_heap
from dmem.state.schemas import Message
from dmem.testing import FakeChatModel

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASS = {"reason": "ok", "passed": True}
SCRIPT: dict[str, Any] = {
    "AdmissionVerdicts": lambda messages: {"verdicts": []},  # aadd: one model call per exchange
    "AnswerDraft": [{"reasoning": "memory 1", "answer": "the cello"}],
    "QualityGateVerdict": [{"relevance": PASS, "faithfulness": PASS, "completeness": PASS}],
}


class LagProbe:
    """Wakes every 5 ms on the loop; keeps the worst lateness, and the most CPU the loop's thread spent between wakes.

    On a loaded machine the lateness also counts time the OS gave other processes; the CPU the loop
    thread spent while the probe waited (less the 5 ms) is the part the work on the loop caused. Full
    (generation 2) garbage collections on the loop's thread are timed apart: they stop the loop
    whatever library's objects they walk.
    """

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_cpu = 0.0
        self.cpu = 0.0
        self.gc_worst = 0.0
        self._gc_started = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            start, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.005)
            self.worst = max(self.worst, time.perf_counter() - start - 0.005)
            self.worst_cpu = max(self.worst_cpu, time.thread_time() - cpu)

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if threading.get_ident() != self._thread or info["generation"] != 2:
            return
        if phase == "start":  # the collection runs on this thread, inside whatever callback allocated
            self._gc_started = time.thread_time()
        else:
            self.gc_worst = max(self.gc_worst, time.thread_time() - self._gc_started)

    def __enter__(self) -> LagProbe:
        self._thread = threading.get_ident()
        self._cpu0 = time.thread_time()
        gc.callbacks.append(self._gc)
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        gc.callbacks.remove(self._gc)
        self.cpu = time.thread_time() - self._cpu0


def seed(store: Path, users: int) -> None:
    """One memory per user, formed by the offline engine (no fake-model calls before timing)."""
    with Memory(store, embeddings="hash") as mem:
        for i in range(users):
            mem.add([{"role": "user", "content": "I play the cello on Sundays."},
                     {"role": "assistant", "content": "Lovely!"}], user_id=f"u{i}")


def exchange(i: int) -> list[Message]:
    return [Message(conversation_id=f"c{i}", turn_id=f"c{i}-{k}", speaker=("Ivo", "Lena")[k],
                    text=f"note {i}.{k} about the weekend") for k in range(2)]


def measure_sync(n: int, call: Callable[[int], Any]) -> float:
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=n) as pool:
        list(pool.map(call, range(n)))
    return time.perf_counter() - started


async def measure_async(n: int, call: Callable[[int], Awaitable[Any]]) -> tuple[float, LagProbe]:
    with LagProbe() as probe:
        started = time.perf_counter()
        await asyncio.gather(*(call(i) for i in range(n)))
        wall = time.perf_counter() - started
    return wall, probe


def row(kind: str, n: int, path: str, wall: float, model: FakeChatModel, probe: LagProbe | None) -> str:
    calls = len(model.calls)
    via_async = sum(c.via == "async" for c in model.calls)
    text = (f"{kind:5} {n:4} {path:5} wall {wall:6.2f} s  in flight {model.max_in_flight():3}  "
            f"async model calls {via_async:4}/{calls:<4}")
    if probe is None:
        return text
    return (f"{text}  loop lag {probe.worst * 1000:4.0f} ms  loop busy {probe.worst_cpu * 1000:3.0f} ms  "
            f"full gc {probe.gc_worst * 1000:3.0f} ms  loop CPU/call {probe.cpu / n * 1000:4.1f} ms")


def one_level(kind: str, n: int, path: str, delay: float, endpoint_concurrency: int) -> str:
    """Run ``n`` concurrent asks or adds on one path over a fresh store; the row of figures."""
    model = FakeChatModel(script=SCRIPT, delay=delay)
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store"
        if kind == "aask":
            seed(store, n)
        with Memory(store, llm=model, embeddings="hash", endpoint_concurrency=endpoint_concurrency) as mem:
            mem.store  # noqa: B018  (opened before timing)
            lag: LagProbe | None = None
            if kind == "aask":
                never = {"gate_policy": "never"}  # one model call per question: the answer
                if path == "sync":
                    wall = measure_sync(n, lambda i: mem.ask("What do I play?", user_id=f"u{i}", **never))
                else:
                    wall, lag = asyncio.run(measure_async(
                        n, lambda i: mem.aask("What do I play?", user_id=f"u{i}", **never)))
            elif path == "sync":
                wall = measure_sync(n, lambda i: mem.add(exchange(i), user_id=f"u{i}"))
            else:
                wall, lag = asyncio.run(measure_async(n, lambda i: mem.aadd(exchange(i), user_id=f"u{i}")))
            return row(kind, n, path, wall, model, lag)


def in_process(levels: list[int], delay: float, endpoint_concurrency: int, paths: list[str]) -> None:
    for n in levels:
        for kind in ("aask", "aadd"):
            for path in paths:
                print(one_level(kind, n, path, delay, endpoint_concurrency), flush=True)


def served(n: int, freeze: bool = True) -> None:
    from langgraph_sdk import get_sync_client

    from tests.test_langgraph_server import langgraph_dev, server_env

    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "store", "http://127.0.0.1:9")
        if not freeze:
            env["DMEM_FREEZE_HEAP"] = "false"
        with langgraph_dev(Path(tmp), env, jobs=10) as (url, log):
            client = get_sync_client(url=url)
            chat = [{"role": "user", "content": "I play the cello on Sundays."},
                    {"role": "assistant", "content": "Lovely!"}]
            client.runs.wait(None, "ingestion", input={"messages": chat, "user_id": "ivo"})
            question = {"question": "What do I play?", "namespaces": ["ivo"]}
            client.runs.wait(None, "query", input=question)  # warm: the first run opens the store

            def one(_: int) -> float:
                started = time.perf_counter()
                client.runs.wait(None, "query", input=question, context={"gate_policy": "never"})
                return time.perf_counter() - started

            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=n) as pool:
                seconds = sorted(pool.map(one, range(n)))
            wall = time.perf_counter() - started
            p50, p95 = statistics.median(seconds), seconds[int(0.95 * (len(seconds) - 1))]
            text = log.read_text(errors="replace")
            blocking = "BlockingError" in text
            froze = re.search(r"froze (\d+) start-up objects", text)
            print(f"served {n} concurrent queries (offline engine, gate never): wall {wall:.2f} s  "
                  f"p50 {p50:.2f} s  p95 {p95:.2f} s  BlockingError in log: {blocking}  "
                  f"start-up heap frozen: {froze.group(1) + ' objects' if froze else 'no'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="*", default=[20, 100], help="none: served queries only")
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--endpoint-concurrency", type=int, default=20)
    parser.add_argument("--served", type=int, default=50)
    parser.add_argument("--no-served", action="store_true")
    parser.add_argument("--served-no-freeze", action="store_true",
                        help="start the server with DMEM_FREEZE_HEAP=false (its collector untouched)")
    parser.add_argument("--paths", nargs="+", choices=["sync", "async"], default=["sync", "async"])
    parser.add_argument("--freeze-gc", action="store_true",
                        help="dmem.runtime.freeze_startup_heap() after start-up, as the served entry does: "
                             "full collections skip what was loaded")
    args = parser.parse_args()
    print(f"fake model: {args.delay} s per call; endpoint_concurrency={args.endpoint_concurrency}; "
          f"asyncio default thread pool: {min(32, (os.cpu_count() or 1) + 4)} threads")
    gc.collect()
    print(f"start-up heap: {len(gc.get_objects())} tracked objects, {len(sys.modules)} modules", flush=True)
    if args.freeze_gc:
        freeze_startup_heap()
    in_process(args.levels, args.delay, args.endpoint_concurrency, args.paths)
    if not args.no_served:
        served(args.served, freeze=not args.served_no_freeze)


if __name__ == "__main__":
    main()
