"""Concurrent ``aadd`` on PostgreSQL: store writes awaited on the loop's async pool, against ``add`` in threads.

Starts a private PostgreSQL (pgserver) and, for each ``--levels`` count, runs that many concurrent ``aadd``
(one exchange of two invented turns per user, formed by a fake model taking ``--delay`` s a call: admit,
split, scope, lifecycle, so every exchange records, claims, writes memories with history rows and marks
its turns formed). It prints wall time, the worst event-loop lag a 5 ms probe saw (and the most CPU the
loop thread spent between two wakes), checkouts of the sync pool and of the loops' async pools, and how
many threads took a sync-pool connection. The ``threads`` row runs the sync ``add`` in asyncio's worker
threads for reference. Run it on an older tree to see the threaded store steps (sync-pool checkouts > 0).

Usage: python benchmarks/pg_async_writes.py [--levels 20 100] [--delay 0.5] [--endpoint-concurrency 100]
                                           [--ways async threads]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.concurrency import LagProbe  # noqa: E402
from dmem.api import Memory  # noqa: E402
from dmem.state.schemas import Message  # noqa: E402
from dmem.store.postgres.aio import AsyncPools  # noqa: E402
from dmem.store.postgres.db import PgDatabase  # noqa: E402
from dmem.testing import FakeChatModel  # noqa: E402
from tests.conftest import default_script  # noqa: E402
from tests.postgres_server import stoppable_postgres  # noqa: E402


class Checkouts:
    """Counts connections taken from the sync pool (and by which threads) and from the async pools."""

    def __init__(self) -> None:
        self.sync = 0
        self.loop = 0
        self.threads: set[str] = set()
        self._connection, self._aconnection = PgDatabase._connection, AsyncPools._connection

    def __enter__(self) -> Checkouts:
        def counted(db: PgDatabase, doing: str) -> Any:
            self.sync += 1
            self.threads.add(threading.current_thread().name)
            return self._connection(db, doing)

        def acounted(pools: AsyncPools, pool: Any) -> Any:
            self.loop += 1
            return self._aconnection(pools, pool)

        PgDatabase._connection = counted  # type: ignore[method-assign]
        AsyncPools._connection = acounted  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        PgDatabase._connection = self._connection  # type: ignore[method-assign]
        AsyncPools._connection = self._aconnection  # type: ignore[method-assign]


def exchange(i: int) -> list[Message]:
    return [Message(conversation_id=f"c{i}", turn_id=f"c{i}-0", speaker="Ines", text=f"I repaired bicycle {i}."),
            Message(conversation_id=f"c{i}", turn_id=f"c{i}-1", speaker="Bo", text="Well done!")]


async def timed(n: int, one: Callable[[int], Awaitable[Any]]) -> tuple[float, LagProbe, list[Any]]:
    with LagProbe() as probe:
        started = time.perf_counter()
        results = await asyncio.gather(*(one(i) for i in range(n)))
        wall = time.perf_counter() - started
    return wall, probe, results


def level(url: str, n: int, way: str, delay: float, endpoint_concurrency: int) -> str:
    """``n`` concurrent adds one way over the store at ``url``, for users of their own; the row of figures."""
    model = FakeChatModel(script=default_script(), delay=delay)
    with Memory(store_url=url, llm=model, embeddings="hash", endpoint_concurrency=endpoint_concurrency) as mem:
        prefix = f"{way}{n}-"
        if way == "async":
            def one(i: int) -> Awaitable[Any]:
                return mem.aadd(exchange(i), user_id=f"{prefix}{i}")
        else:
            def one(i: int) -> Awaitable[Any]:
                return asyncio.to_thread(mem.add, exchange(i), user_id=f"{prefix}{i}")
        with Checkouts() as counts:
            wall, probe, results = asyncio.run(timed(n, one))
        formed = sum(e.status == "formed" for r in results for e in r.exchanges)
        stored = sum(mem.store.index.count(f"{prefix}{i}") for i in range(n))
    return (f"{n:4} concurrent  {way:7}  wall {wall:6.2f} s  loop lag {probe.worst * 1000:4.0f} ms  "
            f"loop busy {probe.worst_cpu * 1000:3.0f} ms  full gc {probe.gc_worst * 1000:3.0f} ms  "
            f"loop CPU {probe.cpu:5.2f} s  sync-pool checkouts {counts.sync:5} "
            f"({len(counts.threads):2} threads)  async-pool checkouts {counts.loop:5}  "
            f"formed {formed}/{n}  memories {stored}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--endpoint-concurrency", type=int, default=100)
    parser.add_argument("--ways", nargs="+", default=["async", "threads"], choices=["async", "threads"])
    args = parser.parse_args()
    with stoppable_postgres() as server:
        print(f"fake model {args.delay} s a call, endpoint_concurrency {args.endpoint_concurrency}, pool_size 8 "
              "per pool, store 'hash' embeddings", flush=True)
        for n in args.levels:
            for way in args.ways:
                print(level(server.url, n, way, args.delay, args.endpoint_concurrency), flush=True)


if __name__ == "__main__":
    main()
