"""Native memory a served process keeps stays bounded by the number of stores, not of threads.

SQLite keeps a page cache (2 MB by default) per connection, filling as the database grows. A served
process runs store work on the event loop's executor threads (up to 32); one connection per thread
would multiply that cache by the threads. The local store keeps one connection per open store, shared
by every thread (docs/operations.md counts on it: "SQLite's own page cache of 2 MB per store").
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from dmem.graphs.served import ServedGraphs
from dmem.services import Resources
from dmem.state.context import build_context
from dmem.store.local.sqlite import DB_FILE
from tests.test_bounded_caches import exchange_and_question


def open_database_files(name: str) -> int:
    """How many of this process's file descriptors are open on a file called ``name``."""
    found = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            found += Path(os.readlink(f"/proc/self/fd/{fd}")).name == name
        except OSError:  # the descriptor listdir itself used, already closed
            continue
    return found


class Recording(ThreadPoolExecutor):
    """A thread pool that records which threads ran its work."""

    def __init__(self, workers: int) -> None:
        super().__init__(max_workers=workers)
        self.threads: set[int] = set()

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        def recorded(*a, **k):  # type: ignore[no-untyped-def]
            self.threads.add(threading.get_ident())
            return fn(*a, **k)
        return super().submit(recorded, *args, **kwargs)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors through Linux's /proc")
def test_served_runs_on_many_threads_keep_one_sqlite_connection_per_store(tmp_path: Path) -> None:
    settings = build_context(store_dir=str(tmp_path / "store"), embedding_model="hash")
    served = ServedGraphs(Resources(settings))
    executor = Recording(8)
    users = [f"user-{i}" for i in range(4)]

    async def runs() -> int:
        asyncio.get_running_loop().set_default_executor(executor)
        await asyncio.gather(*(exchange_and_question(served, n, users[n % len(users)]) for n in range(16)))
        return open_database_files(DB_FILE)

    try:
        during = asyncio.run(runs())
        assert len(executor.threads) > 1  # the store work ran on several threads...
        assert during == 1  # ...through one connection (one page cache) for the one store
    finally:
        served.resources.close()
        executor.shutdown()
    assert open_database_files(DB_FILE) == 0
