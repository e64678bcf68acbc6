"""Native memory a served process keeps stays bounded by the number of stores, not of threads or of data.

SQLite keeps a page cache (2 MB by default) per connection, filling as the database grows. A served
process runs store work on the event loop's executor threads (up to 32); one connection per thread
would multiply that cache by the threads. The local store keeps one connection per open store, shared
by every thread (docs/operations.md counts on it: "SQLite's own page cache of 2 MB per store").
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from dmem.graphs.served import ServedGraphs
from dmem.services import Resources
from dmem.state.context import build_context
from dmem.state.schemas import Message
from dmem.store import open_store
from dmem.store.local.sqlite import DB_FILE
from dmem.store.namespaces import Routing
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


def test_a_lookup_by_a_list_of_ids_is_one_statement_whatever_the_list_length(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite keeps each distinct statement text prepared (128 at most, per connection): a text per list
    length kept ever longer statements as the lists named more of a growing namespace's turns."""
    with open_store(tmp_path / "store", dim=8) as store:
        turns = [Message(conversation_id="c1", turn_id=f"t{i}", speaker="Ilsa", text=f"I rowed {i} km on the fjord")
                 for i in range(30)]
        store.transcript.append(Routing.of("ana"), turns)
        texts: list[str] = []
        db = store._core.db  # type: ignore[attr-defined]
        query = db.query

        def recording(sql: str, params: Sequence[Any] = ()) -> Any:
            texts.append(sql)
            return query(sql, params)

        monkeypatch.setattr(db, "query", recording)
        for n in range(1, 31):
            found = store.transcript.with_ids("ana", [f"t{i}" for i in range(0, 2 * n, 2)])
            assert sorted(m.turn_id for m in found) == sorted(f"t{i}" for i in range(0, min(2 * n, 30), 2))
        assert len(set(texts)) == 1
