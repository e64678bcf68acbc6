"""What full garbage collections walk, and how often they come: the start-up heap and what a burst promotes.

After ``Memory(path, embeddings="hash")``, one add and one search it prints the tracked objects, the
modules loaded, and the thread-CPU time of a full ``gc.collect()`` (min / median of ``--repeats``),
then, with or without ``dmem.runtime.freeze_startup_heap()``. Then it runs ``--burst`` concurrent
``aadd`` and ``aask`` over the fake model (0.5 s a call) and counts the objects promoted to generation 2
(what decides when Python starts the next full collection: more than a quarter of the long-lived heap),
per run, with the types promoted most. Every person and sentence is invented.

Usage: python benchmarks/gc_heap.py [--repeats 15] [--burst 100] [--freeze]
(without --freeze it runs on an older tree too: ``PYTHONPATH=<tree> python <this file>``)
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.concurrency import SCRIPT, exchange, seed
from dmem.api import Memory
from dmem.testing import FakeChatModel


def start_up_heap(repeats: int, freeze: bool) -> None:
    """Tracked objects, modules and full-collection time after start-up, one add and one search."""
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "s", embeddings="hash") as mem:
        mem.add([{"role": "user", "content": "I play the cello on Sundays."},
                 {"role": "assistant", "content": "Lovely!"}], user_id="ivo")
        mem.search("cello", user_id="ivo")
        gc.collect()
        tracked = len(gc.get_objects())
        if freeze:
            from dmem.runtime import freeze_startup_heap  # here, so the script also runs on trees without it

            freeze_startup_heap()
        times = []
        for _ in range(repeats):
            started = time.thread_time()
            gc.collect()
            times.append((time.thread_time() - started) * 1000)
    snowball = sum(m.startswith("snowballstemmer") for m in sys.modules)
    print(f"start-up heap: {tracked} tracked objects, {len(sys.modules)} modules ({snowball} of snowballstemmer); "
          f"full gc.collect() {'after the freeze ' if freeze else ''}{min(times):.1f} ms min, "
          f"{statistics.median(times):.1f} ms median (thread CPU)", flush=True)


class Promotions:
    """Counts the objects each generation-1 collection moves into generation 2, by type."""

    def __init__(self) -> None:
        self.promoted = 0
        self.young = 0
        self.types: collections.Counter[str] = collections.Counter()
        self._before: set[int] = set()

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 1:
            return
        if phase == "start":
            self._before = {id(o) for o in gc.get_objects(2)}
            return
        new = [o for o in gc.get_objects(2) if id(o) not in self._before]
        self.promoted += len(new)
        self.young += 1
        self.types.update(f"{type(o).__module__.split('.')[0]}.{type(o).__qualname__}" for o in new)


def burst(kind: str, n: int) -> None:
    """``n`` concurrent ``aadd`` or ``aask`` after a warm-up run; objects promoted per run."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "s"
        if kind == "aask":
            seed(store, n)
        with Memory(store, llm=FakeChatModel(script=SCRIPT, delay=0.5), embeddings="hash",
                    endpoint_concurrency=20) as mem:

            def one(i: int) -> Any:
                if kind == "aadd":
                    return mem.aadd(exchange(i), user_id=f"u{i}")
                return mem.aask("What do I play?", user_id=f"u{i}", gate_policy="never")

            async def all_at_once() -> None:
                await asyncio.gather(*(one(i) for i in range(n)))

            asyncio.run(one(n))  # warm-up: first-use imports and caches are not counted
            gc.collect()
            heap = len(gc.get_objects(2))
            count = Promotions()
            gc.callbacks.append(count)
            try:
                asyncio.run(all_at_once())
            finally:
                gc.callbacks.remove(count)
    top = ", ".join(f"{name} {k}" for name, k in count.types.most_common(6))
    print(f"{n} concurrent {kind}: {count.young} generation-1 collections promoted {count.promoted} objects "
          f"({count.promoted / n:.0f} per run); a full collection starts past ~{heap // 4} "
          f"(a quarter of {heap}). Most promoted: {top}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--freeze", action="store_true", help="time the collection after freeze_startup_heap()")
    args = parser.parse_args()
    start_up_heap(args.repeats, args.freeze)
    if not args.freeze:  # a frozen heap would hide what the burst's collections do to the rest
        for kind in ("aadd", "aask"):
            burst(kind, args.burst)


if __name__ == "__main__":
    main()
