"""The async write path on PostgreSQL: aadd, aretry_pending and the edits await the loop's async pool (issue 23).

Each runs the sync path's store code (the same SQL, transactions, advisory locks and claims) with
every query awaited on the caller's loop (``dmem.store.postgres.bridge``); the tests count checkouts
of the sync pool, which must stay at zero, and compare the stored rows with the sync path's.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.store.postgres.aio import AsyncPools
from dmem.store.postgres.db import PgDatabase
from tests.conftest import conversation
from tests.loop_guard import server_loop_guard

pytestmark = pytest.mark.postgres


@pytest.fixture
def checkouts(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Connections taken from here on: ``sync`` (the sync pool, by thread name) and ``loop`` (the loop's async pool)."""
    seen: dict[str, list[Any]] = {"sync": [], "loop": []}
    connection, aconnection = PgDatabase._connection, AsyncPools._connection

    def counted_connection(self: PgDatabase, doing: str) -> Any:
        seen["sync"].append(threading.current_thread().name)
        return connection(self, doing)

    def counted_aconnection(self: AsyncPools, pool: Any) -> Any:
        seen["loop"].append(threading.current_thread() is threading.main_thread())
        return aconnection(self, pool)

    monkeypatch.setattr(PgDatabase, "_connection", counted_connection)
    monkeypatch.setattr(AsyncPools, "_connection", counted_aconnection)
    return seen


def rows(mem: Memory, user: str) -> dict[str, Any]:
    """What the store holds for a user, without ids and times (two runs draw different ones)."""
    records = mem.get_all(user_id=user)
    return {"memories": sorted((r.text, r.scope, tuple(r.source_turn_ids), tuple(sorted(r.metadata.items())))
                               for r in records),
            "history": sorted((h.operation.value, h.old_text, h.new_text) for r in records
                              for h in mem.history(r.id, user_id=user)),
            "turns": [(m.conversation_id, m.turn_id, m.seq, m.text) for m in mem.transcript(user_id=user)],
            "pending": mem.store.transcript.pending(user)}


def test_aadd_writes_postgres_on_the_loop_and_stores_what_add_stores(
        fake: Any, postgres_url: str, tmp_path: Path, checkouts: dict[str, list[Any]]) -> None:
    mem = Memory(tmp_path / "m", llm=fake, embeddings="hash", store_url=postgres_url)
    try:
        mem.add(conversation(6), user_id="sync", metadata={"topic": "trip"})
        mem.add(conversation(6), user_id="sync", metadata={"topic": "trip"})  # a resend: nothing new
        checkouts["sync"].clear()

        async def run() -> list[Any]:
            with server_loop_guard():
                first = await mem.aadd(conversation(6), user_id="loop", metadata={"topic": "trip"})
                again = await mem.aadd(conversation(6), user_id="loop", metadata={"topic": "trip"})
            return [first, again]

        first, again = asyncio.run(run())
        assert checkouts["sync"] == []
        assert checkouts["loop"] and all(checkouts["loop"])
        assert [e.status for e in first.exchanges] == ["formed"] * 3
        assert [e.status for e in again.exchanges] == ["duplicate"] * 3
        assert rows(mem, "loop") == rows(mem, "sync") and rows(mem, "loop")["memories"]
    finally:
        mem.close()
