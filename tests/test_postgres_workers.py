"""Four processes ingest into one PostgreSQL store at once: no lost turns, no duplicates, no leaks.

Two workers send overlapping turns of the same user's conversation, a third sends another user's
turns plus the tail of that same conversation, a fourth two other users'. They start together on
a barrier. Afterwards every turn is recorded once and formed once (one memory per turn under the
echo script, which turns a double formation into a duplicate), and no row crosses users.
"""

from __future__ import annotations

import multiprocessing as mp
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest

from dmem.api import Memory
from dmem.state.schemas import Message
from dmem.store import open_any_store
from dmem.testing import FakeChatModel, echo_formation_script

pytestmark = pytest.mark.postgres  # every test here runs on a real PostgreSQL (pgserver)

T0 = datetime(2024, 6, 3, 8, 0)
SPEAKERS = {"ana": "Anouk", "bram": "Bastiaan", "cyd": "Cydonie", "dov": "Dovrin"}
PLANS: list[list[tuple[str, range]]] = [
    [("ana", range(0, 12))],
    [("ana", range(6, 18))],
    [("bram", range(0, 12)), ("ana", range(12, 18))],
    [("cyd", range(0, 12)), ("dov", range(0, 6))],
]
EXPECTED = {"ana": 18, "bram": 12, "cyd": 12, "dov": 6}


def turns(user: str, indices: range) -> list[Message]:
    """Invented turns of one user's conversation; a turn's text is the same whoever sends it."""
    return [Message(conversation_id="weekly", turn_id=f"t{i}", speaker=SPEAKERS[user],
                    text=f"{user} plan {i}: move the {i}th crate of seedlings", timestamp=T0 + timedelta(minutes=i))
            for i in indices]


def ingest(url: str, plan: list[tuple[str, range]], start: Any, results: Any) -> None:
    """One worker process: open the store, wait for the others, add its turns, report the statuses."""
    statuses: Counter[str] = Counter()
    try:
        with Memory(llm=FakeChatModel(script=echo_formation_script()), embeddings="hash", store_url=url,
                    lock_timeout=60) as mem:
            start.wait(timeout=120)
            for user, indices in plan:
                result = mem.add(turns(user, indices), user_id=user, conversation_id="weekly")
                statuses.update(ex.status for ex in result.exchanges)
        results.put(("ok", dict(statuses)))
    except BaseException as exc:  # reported to the parent, which fails the test with it
        results.put(("error", repr(exc)))


def test_four_processes_ingest_at_once_without_losses_duplicates_or_leaks(postgres_url: str) -> None:
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(len(PLANS))
    results = ctx.Queue()
    workers = [ctx.Process(target=ingest, args=(postgres_url, plan, start, results)) for plan in PLANS]
    for worker in workers:
        worker.start()
    reports = [results.get(timeout=300) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert [kind for kind, _ in reports] == ["ok"] * 4, reports
    assert not sum((Counter(r) for _, r in reports), Counter()).get("failed")

    store = open_any_store(postgres_url, dim=None)
    try:
        for user, n in EXPECTED.items():
            recorded = store.transcript.messages([user])
            assert sorted(m.turn_id for m in recorded) == sorted(f"t{i}" for i in range(n))  # each turn once
            assert all(m.text.startswith(f"{user} plan ") for m in recorded)
            assert store.transcript.unformed(user) == []  # none lost or left pending
            memories = store.vectors.list(user)
            sources = Counter(t for m in memories for t in m.source_turn_ids)
            assert sources == Counter({f"t{i}": 1 for i in range(n)}), user  # each turn formed exactly once
            assert len({m.text for m in memories}) == len(memories) == n
            assert all(m.namespace == user and f"{user} plan " in m.text for m in memories)
            assert {e.memory_id for e in store.history.entries(user)} == {m.id for m in memories}
        assert store.vectors.namespaces() == sorted(EXPECTED) and store.vectors.count() == sum(EXPECTED.values())
    finally:
        store.close()
