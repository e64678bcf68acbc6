"""Concurrent ``asearch`` on PostgreSQL: awaited on the loop's async pool against the sync pool from worker threads.

Starts a private PostgreSQL (pgserver), fills ``--users`` namespaces with ``--memories`` invented memories
each, then runs ``--levels`` concurrent searches (one per user, round robin) both ways, several rounds,
and prints wall time per round, the worst event-loop lag a 5 ms probe saw, and how many distinct threads
read through the sync pool. The threaded way is what ``asearch`` did before the async pool.

Usage: python benchmarks/pg_async_reads.py [--levels 20 100 400] [--users 20] [--memories 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.concurrency import LagProbe  # noqa: E402
from dmem.state.schemas import MemoryRecord  # noqa: E402
from dmem.store.postgres import PostgresStore, open_postgres_store  # noqa: E402
from dmem.store.postgres.db import PgDatabase  # noqa: E402
from tests.postgres_server import stoppable_postgres  # noqa: E402

DIM = 384
NOW = "2024-05-01T12:00:00+00:00"


def fill(store: PostgresStore, users: int, memories: int) -> None:
    rows = np.random.default_rng(0).normal(size=(users * memories, DIM)).astype(np.float32)
    with store.transaction():
        for i, row in enumerate(rows):
            ns = f"u{i % users}"
            store.vectors.add(MemoryRecord.model_validate({"id": f"m{i}", "namespace": ns, "created_at": NOW,
                                                           "updated_at": NOW, "text": f"note {i} of {ns}"}), row)


async def timed(n: int, rounds: int, one: Callable[[int], Awaitable[Any]]) -> tuple[list[float], float]:
    walls = []
    with LagProbe() as probe:
        for _ in range(rounds):
            started = time.perf_counter()
            await asyncio.gather(*(one(i) for i in range(n)))
            walls.append(time.perf_counter() - started)
    return walls, probe.worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[20, 100, 400])
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--memories", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with stoppable_postgres() as server:
        run(args, open_postgres_store(server.url, dim=DIM))


def run(args: argparse.Namespace, store: PostgresStore) -> None:
    """Fill the store, then each level both ways."""
    threads: set[str] = set()
    connection = PgDatabase._connection

    def counted(self: PgDatabase, doing: str) -> Any:
        threads.add(threading.current_thread().name)
        return connection(self, doing)

    PgDatabase._connection = counted  # type: ignore[method-assign]
    try:
        fill(store, args.users, args.memories)
        queries = np.random.default_rng(1).normal(size=(max(args.levels), DIM)).tolist()
        print(f"{args.users} namespaces x {args.memories} memories ({DIM}-d, exact ranking); pool_size 8 per pool")
        for n in args.levels:
            ways = {
                "async pool": lambda i: store.vectors.asearch([f"u{i % args.users}"], queries[i], 10),
                "threads": lambda i: asyncio.to_thread(store.vectors.search, [f"u{i % args.users}"], queries[i], 10),
            }
            for name, one in ways.items():
                threads.clear()
                walls, lag = asyncio.run(timed(n, args.rounds, one))
                print(f"{n:4} concurrent  {name:10}  wall median {statistics.median(walls) * 1000:6.0f} ms  "
                      f"worst loop lag {lag * 1000:4.0f} ms  sync-pool threads {len(threads):2}", flush=True)
    finally:
        PgDatabase._connection = connection  # type: ignore[method-assign]
        store.close()


if __name__ == "__main__":
    main()
