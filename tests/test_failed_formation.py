"""A formation that fails on the store releases its claim at once: pending() says why, a retry forms the turns.

The store fails in the middle of a formation (after the turns were recorded and claimed): on the
local store through a failing SQL layer, on PostgreSQL by stopping the real server. The release
cannot be written while the store is down; it is written before the process's next claim, so the
same process's ``retry_pending()`` and a resend form the turns as soon as the store is back, long
before the claim's lease (600 s) would lapse.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.errors import StoreLockedError, StoreUnavailableError
from dmem.testing import FakeChatModel
from tests.conftest import conversation, default_script, scope_all

DOWN = "the store is down (simulated)"


def outage_script(go_down: Callable[[], None]) -> dict[str, Any]:
    """The default script, except that the store goes down while the first exchange's facts are being scoped."""
    fired = threading.Event()

    def scope_then_outage(messages: list[Any]) -> dict[str, Any]:
        if not fired.is_set():
            fired.set()
            go_down()
        return scope_all(messages)
    return {**default_script(), "ScopeLabels": scope_then_outage}


class FailingSql:
    """Wraps a store's SQL layer: every call raises StoreUnavailableError while ``down`` is set."""

    def __init__(self, sql: Any, down: threading.Event) -> None:
        self._sql, self._down = sql, down

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._sql, name)
        if name not in {"query", "fetch", "execute", "scalar", "transaction", "lock"}:
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self._down.is_set():
                raise StoreUnavailableError(DOWN)
            return attr(*args, **kwargs)
        return call


def assert_recovers(mem: Memory, turns: list[Any], failed: pytest.ExceptionInfo[Any]) -> None:
    """After the outage: pending() names the failure, one retry_pending() forms every turn, nothing twice."""
    assert isinstance(failed.value, StoreUnavailableError)
    pending = mem.pending(user_id="maya")
    assert [p.turn_id for p in pending] == [t.turn_id for t in turns[:2]]
    assert all(p.reason.startswith("StoreUnavailableError: ") for p in pending), pending
    retried = mem.retry_pending(user_id="maya")
    assert [ex.status for ex in retried.exchanges] == ["formed"]
    assert mem.pending(user_id="maya") == []
    again = mem.add(turns[:2], user_id="maya")
    assert [ex.status for ex in again.exchanges] == ["duplicate"]
    sources = [t for m in mem.get_all(user_id="maya") for t in m.source_turn_ids]
    assert sorted(sources) == sorted(t.turn_id for t in turns[:2])


def test_local_store_outage_mid_formation(tmp_path: Path) -> None:
    down = threading.Event()
    mem = Memory(tmp_path / "store", llm=FakeChatModel(script=outage_script(down.set)), embeddings="hash")
    try:
        inner = mem.store._transcript  # type: ignore[attr-defined]  # under the local store's guard
        inner._sql = FailingSql(inner._sql, down)
        original_search = mem.store.vectors.search

        def search(*args: Any, **kwargs: Any) -> Any:
            if down.is_set():
                raise StoreUnavailableError(DOWN)
            return original_search(*args, **kwargs)
        mem.store.vectors.search = search  # type: ignore[method-assign]
        turns = conversation(2)
        with pytest.raises(StoreUnavailableError, match="down") as failed:
            mem.add(turns, user_id="maya")
        with pytest.raises(StoreUnavailableError):
            mem.retry_pending(user_id="maya")  # still down: an error, never 'claimed'
        down.clear()
        assert_recovers(mem, turns, failed)
    finally:
        down.clear()
        mem.close()


def test_a_resend_forms_the_turns_once_the_store_is_back(tmp_path: Path) -> None:
    down = threading.Event()
    mem = Memory(tmp_path / "store", llm=FakeChatModel(script=outage_script(down.set)), embeddings="hash")
    try:
        inner = mem.store._transcript  # type: ignore[attr-defined]  # under the local store's guard
        inner._sql = FailingSql(inner._sql, down)
        turns = conversation(2)
        with pytest.raises(StoreUnavailableError):
            mem.add(turns, user_id="maya")  # the commit (apply_operations) finds the store down
        down.clear()
        resent = mem.add(turns, user_id="maya")
        assert [ex.status for ex in resent.exchanges] == ["formed"]
        assert mem.pending(user_id="maya") == []
    finally:
        down.clear()
        mem.close()


@pytest.fixture(scope="module")
def outage_server() -> Iterator[Any]:
    from tests.postgres_server import stoppable_postgres

    with stoppable_postgres() as server:
        yield server


@pytest.mark.postgres
def test_postgres_outage_mid_formation(outage_server: Any) -> None:
    mem = Memory(store_url=outage_server.url, llm=FakeChatModel(script=outage_script(outage_server.stop)),
                 embeddings="hash", lock_timeout=2)
    try:
        turns = conversation(2)
        with pytest.raises(StoreUnavailableError, match="unreachable") as failed:
            mem.add(turns, user_id="maya")
        with pytest.raises(StoreUnavailableError, match="unreachable") as during:
            mem.retry_pending(user_id="maya")
        assert "pool" not in str(during.value)
        outage_server.start()
        assert_recovers(mem, turns, failed)
    finally:
        outage_server.start()
        mem.close()


@pytest.mark.postgres
def test_postgres_busy_connections_are_contention_not_an_outage(postgres_url: str) -> None:
    from dmem.store.postgres.store import open_postgres_store

    store = open_postgres_store(postgres_url, dim=8, pool_size=1, timeout=1)
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store.transaction():
            holding.set()
            release.wait(30)
    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(30)
        with pytest.raises(StoreLockedError, match="busy with other runs.*pool_size"):
            store.transcript.count()
    finally:
        release.set()
        holder.join()
        store.close()


async def test_the_async_path_releases_the_same_way(tmp_path: Path) -> None:
    down = threading.Event()
    mem = Memory(tmp_path / "store", llm=FakeChatModel(script=outage_script(down.set)), embeddings="hash")
    try:
        inner = mem.store._transcript  # type: ignore[attr-defined]  # under the local store's guard
        inner._sql = FailingSql(inner._sql, down)
        turns = conversation(2)
        with pytest.raises(StoreUnavailableError):
            await mem.aadd(turns, user_id="maya")
        down.clear()
        assert [p.turn_id for p in mem.pending(user_id="maya")] == [t.turn_id for t in turns]
        retried = await mem.aretry_pending(user_id="maya")
        assert [ex.status for ex in retried.exchanges] == ["formed"]
    finally:
        down.clear()
        mem.close()
