"""The async path on PostgreSQL: reads awaited on the caller's loop through one async pool per loop (issue 23)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dmem.api import Memory
from dmem.errors import StoreLockedError, StoreUnavailableError
from dmem.state.schemas import MemoryRecord
from dmem.store import SearchFilter
from dmem.store.postgres import PostgresStore, open_postgres_store
from dmem.store.postgres.aio import AsyncPools
from dmem.store.postgres.db import PgDatabase
from tests.conftest import conversation
from tests.loop_guard import server_loop_guard

pytestmark = pytest.mark.postgres
DIM = 16
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def unit_rows(n: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def store(postgres_url: str) -> Iterator[PostgresStore]:
    s = open_postgres_store(postgres_url, dim=DIM, hnsw_threshold=60)
    yield s
    s.close()


def fill(store: PostgresStore) -> None:
    with store.transaction():
        for ns, rows in (("big", unit_rows(80, 1)), ("small", unit_rows(10, 2))):
            for i, row in enumerate(rows):
                record = MemoryRecord(id=f"{ns}{i}", namespace=ns, text=f"memory {i} of {ns}", created_at=T0,
                                      updated_at=T0, metadata={"tier": "gold" if i % 9 == 0 else "plain"})
                store.vectors.add(record, row)


def test_an_hnsw_namespace_searches_alike_on_both_paths_at_any_width(store: PostgresStore) -> None:
    fill(store)
    assert store.index.indexed_namespaces() == ["big"]
    gold = {"where": SearchFilter.with_metadata({"tier": "gold"})}

    async def compare() -> None:
        for width in (store.index.hnsw.ef_search, 16, 200):
            view = store.searching(width)
            for q, (names, options) in enumerate([(["big"], {}), (["big", "small"], {}), (["big"], gold),
                                                  (["big"], {"min_score": 0.2})]):
                query = unit_rows(1, 50 + q)[0]
                sync = view.vectors.search(names, query, 7, **options)
                awaited = await view.vectors.asearch(names, query, 7, **options)
                assert [(h.record.id, h.score) for h in awaited] == [(h.record.id, h.score) for h in sync]
                assert sync, (names, options)

    asyncio.run(compare())


def test_each_loop_gets_its_own_pool_closed_with_it_and_close_closes_the_rest(store: PostgresStore) -> None:
    fill(store)
    pools: AsyncPools = store._db.aio
    query = unit_rows(1, 7)[0]
    expected = [h.record.id for h in store.vectors.search(["small"], query, 3)]

    async def search() -> list[str]:
        return [h.record.id for h in await store.vectors.asearch(["small"], query, 3)]

    assert asyncio.run(search()) == expected and len(pools) == 0  # asyncio.run closed that loop's pool
    assert asyncio.run(search()) == expected and len(pools) == 0  # a second loop: a pool of its own
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever)
    thread.start()
    try:
        assert asyncio.run_coroutine_threadsafe(search(), loop).result(30) == expected
        assert len(pools) == 1
        pool = next(iter(pools._pools.values()))[0]
        store.close()  # from another thread: awaited on the pool's own loop
        assert pool.closed and len(pools) == 0
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def test_a_down_server_is_an_outage_and_busy_connections_are_contention(store: PostgresStore) -> None:
    down = AsyncPools("postgresql://nobody@127.0.0.1:9/none", "postgresql://127.0.0.1:9/none",
                      pool_size=1, timeout=1.0)

    async def outage() -> None:
        with pytest.raises(StoreUnavailableError, match="unreachable.*check that it is running"):
            await down.query("SELECT 1")

    asyncio.run(outage())
    busy = AsyncPools(store.url, store.path, pool_size=1, timeout=1.0)

    async def contention() -> None:
        async with busy.reading() as held:
            await held.execute("SELECT 1")
            with pytest.raises(StoreLockedError, match="busy with other runs.*pool_size"):
                await busy.query("SELECT 1")
        assert await busy.query("SELECT 2 AS two") == [{"two": 2}]

    asyncio.run(contention())


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Every store read from here on: ``sync`` (through the sync pool: its thread) and ``loop`` (awaited: on main?)."""
    seen: dict[str, list[Any]] = {"sync": [], "loop": []}
    connection, reading = PgDatabase._connection, AsyncPools.reading

    def counted_connection(self: PgDatabase, doing: str) -> Any:
        seen["sync"].append(threading.current_thread().name)
        return connection(self, doing)

    def counted_reading(self: AsyncPools) -> Any:
        seen["loop"].append(threading.current_thread() is threading.main_thread())
        return reading(self)

    monkeypatch.setattr(PgDatabase, "_connection", counted_connection)
    monkeypatch.setattr(AsyncPools, "reading", counted_reading)
    return seen


def test_a_query_reads_postgres_on_the_loop_under_the_server_guard(
        fake: Any, postgres_url: str, tmp_path: Path, reads: dict[str, list[Any]]) -> None:
    """aask (System 1, a new user, Full Deliberation) and asearch under the ``langgraph dev`` guard.

    The same answers as ask / search, and no store read through the sync pool from a worker thread.
    """
    mem = Memory(tmp_path / "m", llm=fake, embeddings="hash", store_url=postgres_url, retrieval_mode="dense",
                 deliberation_mode="full")
    try:
        mem.add(conversation(4), user_id="ivo")
        question = "What did they talk about?"
        expected = [mem.ask(question, user_id="ivo"), mem.ask(question, user_id="newcomer"),
                    mem.ask(question, user_id="ivo", gate_policy="always")]  # Full Deliberation reads the transcript
        found = [(r.memory.id, r.score) for r in mem.search("topic", user_id="ivo")]
        reads["sync"].clear()

        async def run() -> tuple[list[Any], list[tuple[str, float]]]:
            with server_loop_guard():
                answers = [await mem.aask(question, user_id="ivo"), await mem.aask(question, user_id="newcomer"),
                           await mem.aask(question, user_id="ivo", gate_policy="always")]
                hits = [(r.memory.id, r.score) for r in await mem.asearch("topic", user_id="ivo")]
            return answers, hits

        answers, hits = asyncio.run(run())
        assert [(a.answer, a.route, a.memory_ids, a.evidence_turn_ids) for a in answers] == [
            (a.answer, a.route, a.memory_ids, a.evidence_turn_ids) for a in expected]
        assert expected[2].route == "deliberation" and expected[2].read_share == answers[2].read_share == 1.0
        assert answers[0].memory_ids and answers[1].route == expected[1].route
        assert hits == found and hits
        assert reads["sync"] == []  # no store read in a worker thread through the sync pool
        assert len(reads["loop"]) >= 5 and all(reads["loop"])  # every read awaited on the loop thread
    finally:
        mem.close()


def test_the_search_tool_reads_postgres_on_the_agents_loop(
        fake: Any, postgres_url: str, tmp_path: Path, reads: dict[str, list[Any]]) -> None:
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

    from dmem.host import memory_tools
    from dmem.testing import FakeChatModel

    mem = Memory(tmp_path / "m", llm=fake, embeddings="hash", store_url=postgres_url)
    try:
        mem.add(conversation(4), user_id="ivo")

        def search(messages: list[AnyMessage]) -> AIMessage | str:
            if any(isinstance(m, ToolMessage) for m in messages):
                return "done"
            return AIMessage("", tool_calls=[{"name": "search_memory", "args": {"query": "topic"}, "id": "s1"}])

        agent = create_agent(FakeChatModel(script={"text": search}), tools=memory_tools(mem))
        ask = {"messages": [HumanMessage("What do you know about me?")]}
        config: Any = {"configurable": {"user_id": "ivo"}}
        expected = [m.text for m in agent.invoke(ask, config)["messages"] if isinstance(m, ToolMessage)]
        reads["sync"].clear()

        async def run() -> list[str]:
            with server_loop_guard():
                out = await agent.ainvoke(ask, config)
            return [m.text for m in out["messages"] if isinstance(m, ToolMessage)]

        assert asyncio.run(run()) == expected and expected[0].startswith("- ")
        assert reads["sync"] == [] and reads["loop"] and all(reads["loop"])
    finally:
        mem.close()


@pytest.mark.slow
def test_an_async_read_in_an_outage_is_unavailable_and_the_next_one_after_it_works() -> None:
    """A stopped server: StoreUnavailableError (as on the sync path); restarted: the next read works at once."""
    from tests.postgres_server import stoppable_postgres

    with stoppable_postgres() as server:
        store = open_postgres_store(server.url, dim=DIM, timeout=2.0)

        async def reads() -> None:
            assert await store.transcript.ahas_turns(["ana"]) is False  # the loop's pool holds a live connection
            server.stop()
            with pytest.raises(StoreUnavailableError, match="unreachable"):
                await store.transcript.ahas_turns(["ana"])
            server.start()
            assert await store.vectors.asearch(["ana"], [1.0] * DIM, 3) == []

        try:
            asyncio.run(reads())
        finally:
            store.close()
