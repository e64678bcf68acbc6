"""The async write path on PostgreSQL: aadd, aretry_pending and the edits await the loop's async pool (issue 23).

Each runs the sync path's store code (the same SQL, transactions, advisory locks and claims) with
every query awaited on the caller's loop (``dmem.store.postgres.bridge``); the tests count checkouts
of the sync pool, which must stay at zero, and compare the stored rows with the sync path's.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from dmem.api import Memory
from dmem.errors import StoreError, StoreUnavailableError
from dmem.store.postgres.aio import AsyncPools
from dmem.store.postgres.db import PgDatabase
from dmem.testing import FakeChatModel
from tests.conftest import conversation, default_script, scope_all
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
    return {"memories": sorted((r.text, r.scope, tuple(r.source_turn_ids), tuple(sorted(r.metadata.items())),
                                tuple(sorted(r.enrichment.items()))) for r in records),
            "history": sorted((h.operation.value, h.old_text, h.new_text) for r in records
                              for h in mem.history(r.id, user_id=user)),
            "turns": [(m.conversation_id, m.turn_id, m.seq, m.text) for m in mem.transcript(user_id=user)],
            "pending": mem.store.transcript.pending(user)}


def internal_topic(messages: list[Any]) -> dict[str, Any]:
    """Scope labels asking to enrich each fact from the user's own memories about 'topic'."""
    return {"labels": [{**label, "scope": "INTERNAL", "enrich": True, "entity": "topic"}
                       for label in scope_all(messages)["labels"]]}


def test_aadd_writes_postgres_on_the_loop_and_stores_what_add_stores(
        postgres_url: str, tmp_path: Path, checkouts: dict[str, list[Any]]) -> None:
    """New turns (formed, enriched from the user's memories) and a resend of them, awaited on the loop's pool."""
    enriching = FakeChatModel(script={**default_script(), "ScopeLabels": internal_topic})
    mem = Memory(tmp_path / "m", llm=enriching, embeddings="hash", store_url=postgres_url)
    try:
        mem.add(conversation(6), user_id="sync", metadata={"topic": "trip"})
        mem.add(conversation(6), user_id="sync", metadata={"topic": "trip"})  # a resend: nothing new
        mem.add(conversation(2, "raw"), user_id="sync", infer=False)
        checkouts["sync"].clear()

        async def run() -> list[Any]:
            with server_loop_guard():
                first = await mem.aadd(conversation(6), user_id="loop", metadata={"topic": "trip"})
                again = await mem.aadd(conversation(6), user_id="loop", metadata={"topic": "trip"})
                await mem.aadd(conversation(2, "raw"), user_id="loop", infer=False)
            return [first, again]

        first, again = asyncio.run(run())
        assert checkouts["sync"] == []
        assert checkouts["loop"] and all(checkouts["loop"])
        assert [e.status for e in first.exchanges] == ["formed"] * 3
        assert [e.status for e in again.exchanges] == ["duplicate"] * 3
        assert rows(mem, "loop") == rows(mem, "sync") and rows(mem, "loop")["memories"]
        assert any(r.enrichment_source for r in mem.get_all(user_id="loop"))
    finally:
        mem.close()


def garbled_scopes(broken: threading.Event) -> dict[str, Any]:
    """The default script, but the scope labels are garbage (every retry too) while ``broken`` is set."""
    def scopes(messages: list[Any]) -> dict[str, Any]:
        return {"nonsense": True} if broken.is_set() else scope_all(messages)
    return {**default_script(), "ScopeLabels": scopes}


def test_a_failed_formation_and_its_retry_write_on_the_loop_as_the_sync_path_does(
        postgres_url: str, tmp_path: Path, checkouts: dict[str, list[Any]]) -> None:
    """A malformed reply: the turns become pending (claims dropped) and aretry_pending forms them, all awaited."""
    broken = threading.Event()
    mem = Memory(tmp_path / "m", llm=FakeChatModel(script=garbled_scopes(broken)), embeddings="hash",
                 store_url=postgres_url)
    try:
        broken.set()
        sync_failed = mem.add(conversation(4), user_id="sync")
        broken.clear()
        sync_retried = mem.retry_pending(user_id="sync")
        broken.set()
        checkouts["sync"].clear()

        async def run() -> tuple[Any, list[Any], Any]:
            with server_loop_guard():
                failed = await mem.aadd(conversation(4), user_id="loop")
                pending = await mem.store.arun(mem.store.transcript.pending, "loop")
                broken.clear()
                return failed, pending, await mem.aretry_pending(user_id="loop")

        failed, pending, retried = asyncio.run(run())
        assert checkouts["sync"] == []
        assert [e.status for e in failed.exchanges] == [e.status for e in sync_failed.exchanges]
        assert {e.status for e in failed.exchanges} == {"pending_retry"}
        assert [e.status for e in retried.exchanges] == [e.status for e in sync_retried.exchanges] == ["formed"] * 2
        assert [m.turn_id for m, _ in pending] == [m.turn_id for m in conversation(4)]
        assert rows(mem, "loop") == rows(mem, "sync") and rows(mem, "loop")["pending"] == []
    finally:
        mem.close()


async def edit(mem: Memory, user: str) -> list[Any]:
    """Every async edit and read of one user's memories, in order."""
    records = await mem.aget_all(user_id=user)
    first, second = records[0].id, records[1].id
    return [[r.text for r in records], (await mem.aget(first, user_id=user)).text,
            (await mem.aupdate(first, "Maya now rides a red bicycle.", user_id=user, metadata={"k": "v"})).metadata,
            [(h.operation.value, h.new_text) for h in await mem.ahistory(first, user_id=user)],
            (await mem.adelete(second, user_id=user)).text, await mem.adelete_all(user_id=user)]


def sync_edit(mem: Memory, user: str) -> list[Any]:
    """``edit`` through the sync methods."""
    records = mem.get_all(user_id=user)
    first, second = records[0].id, records[1].id
    return [[r.text for r in records], mem.get(first, user_id=user).text,
            mem.update(first, "Maya now rides a red bicycle.", user_id=user, metadata={"k": "v"}).metadata,
            [(h.operation.value, h.new_text) for h in mem.history(first, user_id=user)],
            mem.delete(second, user_id=user).text, mem.delete_all(user_id=user)]


def editing_agent(mem: Memory, ids: list[str]) -> Any:
    """An agent that updates the user's first memory, then forgets their second, through dmem's tools."""
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage, AnyMessage, ToolMessage

    from dmem.host import memory_tools

    def edit_then_forget(messages: list[AnyMessage]) -> AIMessage | str:
        done = sum(isinstance(m, ToolMessage) for m in messages)
        calls = [{"name": "update_memory", "args": {"memory_id": ids[0], "text": "Theo moved to the coast."},
                  "id": "u1"}, {"name": "forget_memory", "args": {"memory_id": ids[1]}, "id": "f1"}]
        return AIMessage("", tool_calls=[calls[done]]) if done < 2 else "done"

    return create_agent(FakeChatModel(script={"text": edit_then_forget}), tools=memory_tools(mem))


def test_the_async_edits_write_on_the_loop_as_the_sync_edits_do(
        fake: Any, postgres_url: str, tmp_path: Path, checkouts: dict[str, list[Any]]) -> None:
    mem = Memory(tmp_path / "m", llm=fake, embeddings="hash", store_url=postgres_url)
    try:
        for user in ("sync", "loop"):
            mem.add(conversation(6), user_id=user)
        expected = sync_edit(mem, "sync")
        checkouts["sync"].clear()

        async def run() -> list[Any]:
            with server_loop_guard():
                return await edit(mem, "loop")

        assert asyncio.run(run()) == expected and expected[-1] >= 1
        assert checkouts["sync"] == [] and checkouts["loop"]
        assert rows(mem, "loop")["history"] == rows(mem, "sync")["history"]
    finally:
        mem.close()


def test_the_editing_tools_write_on_the_agents_loop(
        fake: Any, postgres_url: str, tmp_path: Path, checkouts: dict[str, list[Any]]) -> None:
    from langchain_core.messages import HumanMessage, ToolMessage

    mem = Memory(tmp_path / "m", llm=fake, embeddings="hash", store_url=postgres_url)
    try:
        for user in ("sync", "loop"):
            mem.add(conversation(6), user_id=user)
        ask = {"messages": [HumanMessage("Theo moved; and forget the other thing.")]}
        ids = {user: [r.id for r in mem.store.vectors.list(user)] for user in ("sync", "loop")}
        expected = [m.text for m in editing_agent(mem, ids["sync"]).invoke(ask, {"configurable": {"user_id": "sync"}})[
            "messages"] if isinstance(m, ToolMessage)]
        agent = editing_agent(mem, ids["loop"])
        checkouts["sync"].clear()

        async def run() -> list[str]:
            with server_loop_guard():
                out = await agent.ainvoke(ask, {"configurable": {"user_id": "loop"}})
            return [m.text for m in out["messages"] if isinstance(m, ToolMessage)]

        assert asyncio.run(run()) == [t.replace(ids["sync"][0], ids["loop"][0]).replace(ids["sync"][1], ids["loop"][1])
                                      for t in expected]
        assert expected[0].startswith("Updated memory") and expected[1].startswith("Forgot memory")
        assert checkouts["sync"] == [] and checkouts["loop"]
        assert rows(mem, "loop")["memories"] == rows(mem, "sync")["memories"]
    finally:
        mem.close()


def test_an_error_in_the_commit_releases_the_claims_on_the_loop_before_aadd_raises(
        fake: Any, postgres_url: str, tmp_path: Path, checkouts: dict[str, list[Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit fails (a refused write): rolled back, the claims released as pending, then the error; no thread."""
    from dmem.store.postgres.memories import PgVectorIndex

    mem = Memory(tmp_path / "m", llm=fake, embeddings="hash", store_url=postgres_url)
    refuse = threading.Event()
    add = PgVectorIndex.add

    def refusing(self: PgVectorIndex, record: Any, vector: Any) -> None:
        add(self, record, vector)
        if refuse.is_set():
            raise StoreError("the disk is full (simulated)")
    monkeypatch.setattr(PgVectorIndex, "add", refusing)
    try:
        refuse.set()
        checkouts["sync"].clear()

        async def run() -> list[Any]:
            with server_loop_guard():
                with pytest.raises(StoreError, match="disk is full"):
                    await mem.aadd(conversation(2), user_id="loop")
                pending = await mem.store.arun(mem.store.transcript.pending, "loop")
                refuse.clear()
                retried = await mem.aretry_pending(user_id="loop")
            return [pending, retried]

        pending, retried = asyncio.run(run())
        assert checkouts["sync"] == []
        assert [(m.turn_id, why) for m, why in pending] == [
            (m.turn_id, "StoreError: the disk is full (simulated)") for m in conversation(2)]
        assert [e.status for e in retried.exchanges] == ["formed"]
        assert mem.get_all(user_id="loop") and mem.pending(user_id="loop") == []
    finally:
        mem.close()


@pytest.mark.slow
def test_postgres_stopped_mid_aadd_is_unavailable_and_aretry_pending_forms_the_turns_once_it_is_back(
        checkouts: dict[str, list[Any]]) -> None:
    """Stopped during formation: StoreUnavailableError, claims released, pending() lists the turns, retry forms them."""
    from tests.postgres_server import stoppable_postgres

    with stoppable_postgres() as server:
        stopped = threading.Event()

        def scope_then_stop(messages: list[Any]) -> dict[str, Any]:
            if not stopped.is_set():
                stopped.set()
                server.stop()
            return scope_all(messages)
        mem = Memory(store_url=server.url, llm=FakeChatModel(script={**default_script(),
                                                                      "ScopeLabels": scope_then_stop}),
                     embeddings="hash", lock_timeout=2)
        try:
            turns = conversation(2)

            async def fail() -> None:
                checkouts["sync"].clear()
                with pytest.raises(StoreUnavailableError, match="unreachable"):
                    await mem.aadd(turns, user_id="maya")
                with pytest.raises(StoreUnavailableError, match="unreachable"):
                    await mem.aretry_pending(user_id="maya")  # still down: an error, never 'claimed'

            asyncio.run(fail())
            assert checkouts["sync"] == []
            server.start()
            pending = mem.pending(user_id="maya")
            assert [p.turn_id for p in pending] == [t.turn_id for t in turns]
            assert all(p.reason.startswith("StoreUnavailableError: ") for p in pending), pending

            async def retry() -> Any:
                with server_loop_guard():
                    return await mem.aretry_pending(user_id="maya")

            checkouts["sync"].clear()
            assert [e.status for e in asyncio.run(retry()).exchanges] == ["formed"]
            assert checkouts["sync"] == []  # the retry, right after the outage, awaited the loop's pool too
            assert mem.pending(user_id="maya") == []
            sources = sorted(t for m in mem.get_all(user_id="maya") for t in m.source_turn_ids)
            assert sources == sorted(t.turn_id for t in turns)
        finally:
            server.start()
            mem.close()


def test_hybrid_retrieval_and_focused_deliberation_read_through_the_loops_pool(
        fake: Any, postgres_url: str, tmp_path: Path, checkouts: dict[str, list[Any]]) -> None:
    """The lexical index refresh and Focused Deliberation's seed search read the async pool; the sync answers."""
    mem = Memory(tmp_path / "m", llm=fake, embeddings="hash", store_url=postgres_url, retrieval_mode="hybrid",
                 deliberation_mode="focused")
    try:
        mem.add(conversation(8), user_id="ivo")
        question = "What did they talk about?"
        expected = [mem.ask(question, user_id="ivo"), mem.ask(question, user_id="ivo", gate_policy="always")]
        mem.resources.forget()  # the lexical indexes are rebuilt from the store on the async path
        checkouts["sync"].clear()

        async def run() -> list[Any]:
            with server_loop_guard():
                return [await mem.aask(question, user_id="ivo"),
                        await mem.aask(question, user_id="ivo", gate_policy="always")]

        answers = asyncio.run(run())
        assert [(a.answer, a.route, a.memory_ids, a.evidence_turn_ids, a.read_share) for a in answers] == [
            (a.answer, a.route, a.memory_ids, a.evidence_turn_ids, a.read_share) for a in expected]
        assert expected[1].route == "deliberation" and expected[0].memory_ids
        assert checkouts["sync"] == [] and checkouts["loop"]
    finally:
        mem.close()
