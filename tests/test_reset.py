"""``reset`` erases for good (mem0's reset): every row of the namespace goes, other namespaces keep all of theirs.

Runs on SQLite here and on PostgreSQL through ``tests/test_postgres_langgraph_store.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dmem.errors import DataError, NotFoundError, StoreError
from dmem.messages import to_messages
from dmem.store import Routing
from dmem.testing import FakeChatModel

MAYA = ["I keep bees on the roof of the old bakery.", "Lovely."]
MAYA_LATER = ["My sister Ilse moved to Faro last spring.", "Nice."]
THEO = ["I restore wooden canoes in my garage.", "Great hobby."]


def fill(mem: Any) -> dict[str, Any]:
    """Two users with every kind of row: formed memories, one stored as given, an update, a soft delete,
    admissions, labels, a pending turn with its reason, and a claim left by a dead worker."""
    for user in ("maya", "theo"):
        mem.add(MAYA if user == "maya" else THEO, user_id=user, conversation_id="c1", metadata={"app": "web"})
        mem.add([f"{user.title()} owns a green bicycle."], user_id=user, infer=False)
        records = mem.get_all(user_id=user)
        mem.update(records[0].id, f"{records[0].text} (checked)", user_id=user)
        mem.delete(records[-1].id, user_id=user)
        turns = to_messages(MAYA_LATER if user == "maya" else ["Theo sails on Sundays.", "Fun."], user)
        mem.store.transcript.append(Routing.of(user), turns, {"app": "mobile"})
        mem.store.transcript.mark_pending([user], [(t.conversation_id, t.turn_id) for t in turns[:1]], "model down")
        mem.store.transcript.claim([user], [(t.conversation_id, t.turn_id) for t in turns[1:]], "h:1:2:abc", 60.0)
    return {"maya_ids": [h.memory_id for h in mem.store.history.entries("maya")]}


def state(mem: Any, user: str) -> dict[str, Any]:
    """Everything the API and the store show of one user."""
    records = mem.get_all(user_id=user)
    return {
        "records": records,
        "history": {r.id: mem.history(r.id, user_id=user) for r in records},
        "entries": mem.store.history.entries(user),
        "admissions": mem.store.history.admissions(user),
        "transcript": mem.transcript(user_id=user),
        "unformed": mem.store.transcript.unformed(user),
        "pending": mem.pending(user_id=user),
        "search": [(r.memory.id, round(r.score, 6)) for r in mem.search("bees canoes bicycle", user_id=user)],
        "export": mem.export(user_id=user),
    }


def test_reset_of_one_user_erases_all_of_it_and_nothing_of_another(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    known = fill(mem)
    theo_before = state(mem, "theo")
    live = len(mem.get_all(user_id="maya"))
    assert live >= 2 and mem.store.history.admissions("maya") and mem.pending(user_id="maya")
    assert mem.reset(user_id="maya", confirm="maya") == live
    assert state(mem, "theo") == theo_before
    assert mem.get_all(user_id="maya") == [] and mem.search("bees roof bakery", user_id="maya") == []
    for memory_id in known["maya_ids"]:  # soft-deleted ones included: no history is left to show
        with pytest.raises(NotFoundError):
            mem.history(memory_id, user_id="maya")
    assert mem.store.history.entries("maya") == [] and mem.store.history.admissions("maya") == []
    assert mem.transcript(user_id="maya") == [] and mem.pending(user_id="maya") == []
    assert mem.store.transcript.unformed("maya") == [] and mem.store.transcript.count("maya") == 0
    assert mem.store.transcript.messages(["maya"], labels={"app": "web"}) == []
    exported = mem.export(user_id="maya")
    assert exported["memories"] == exported["history"] == exported["transcript"] == []
    assert "maya" not in mem.store.info().memories and "maya" not in mem.store.history.namespaces()
    assert mem.as_store().search(("memories", "maya"), query="bees") == []
    before = len(fake.calls)
    answer = mem.ask("What does Maya do on weekends?", user_id="maya", gate_policy="always", deliberation_mode="full")
    read = " ".join(str(m.content) for c in fake.calls[before:] for m in c.messages)
    assert not any(word in read for word in ("bees", "bakery", "Ilse", "bicycle", "Lovely"))
    assert answer.route == "no_memory" and answer.memory_ids == []
    before = len(fake.calls)
    mem.ask("What does Theo restore?", user_id="theo", gate_policy="always", deliberation_mode="full")
    chunks = [c for c in fake.calls[before:] if c.schema == "ChunkFacts"]
    assert "wooden canoes" in " ".join(str(m.content) for c in chunks for m in c.messages)


def test_a_reset_namespace_starts_again_from_nothing(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    fill(mem)
    mem.reset(user_id="maya", confirm="maya")
    out = mem.add(MAYA, user_id="maya", conversation_id="c1")  # the same conversation and turn ids as before
    assert [ex.status for ex in out.exchanges] == ["formed"]
    assert [m.text for m in mem.transcript(user_id="maya")] == MAYA
    assert [m.seq for m in mem.transcript(user_id="maya")] == [0, 1]
    records = mem.get_all(user_id="maya")
    assert records and all("(checked)" not in r.text for r in records)
    assert all(len(mem.history(r.id, user_id="maya")) == 1 for r in records)
    assert mem.search("bees on the roof", user_id="maya")[0].memory.id in {r.id for r in records}


def test_reset_of_everything_empties_the_store(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    fill(mem)
    removed = len(mem.get_all(user_id="maya")) + len(mem.get_all(user_id="theo"))
    assert mem.reset(confirm="everything") == removed
    info = mem.store.info()
    assert (info.memories, info.messages, info.history_rows, info.pending_turns) == ({}, 0, 0, 0)
    assert info.extra["admissions"] == 0
    assert mem.store.vectors.namespaces() == mem.store.history.namespaces() == mem.store.transcript.namespaces() == []
    assert mem.search("canoes", user_id="theo") == [] and mem.transcript(user_id="theo") == []
    mem.add(THEO, user_id="theo", infer=False)
    assert [r.memory.text for r in mem.search("canoes", user_id="theo", limit=1)] == [THEO[0]]


def test_reset_needs_its_exact_confirmation_and_leaves_other_scopes(memory_factory: Any) -> None:
    mem = memory_factory()
    mem.add(["Maya sings."], user_id="maya", infer=False)
    mem.add(["Maya plans."], user_id="maya", agent_id="planner", infer=False)
    with pytest.raises(DataError, match="confirm='maya'"):
        mem.reset(user_id="maya", confirm="yes")
    with pytest.raises(DataError, match="confirm='everything'"):
        mem.reset(confirm="maya")
    with pytest.raises(DataError, match="needs the user_id"):
        mem.reset(agent_id="planner", confirm="everything")
    assert len(mem.get_all(user_id="maya")) == 1  # nothing went on a refused reset
    assert mem.reset(user_id="maya", confirm="maya") == 1
    assert [r.text for r in mem.get_all(user_id="maya", agent_id="planner")] == ["Maya plans."]
    assert mem.reset(user_id="maya", agent_id="planner", confirm="maya/agent:planner") == 1
    with mem.store.transaction(), pytest.raises(StoreError, match="transaction of its own"):
        mem.reset(user_id="maya", confirm="maya")


def test_delete_all_is_soft_and_reset_is_not(memory_factory: Any) -> None:
    mem = memory_factory()
    mem.add(["Maya sings in a choir."], user_id="maya", infer=False)
    gone = mem.get_all(user_id="maya")[0]
    assert mem.delete_all(user_id="maya") == 1
    assert [h.operation.value for h in mem.history(gone.id, user_id="maya")] == ["ADD", "DELETE"]
    assert [m.text for m in mem.transcript(user_id="maya")] == ["Maya sings in a choir."]
    assert mem.reset(user_id="maya", confirm="maya") == 0  # no live memory left, but rows still went
    with pytest.raises(NotFoundError):
        mem.history(gone.id, user_id="maya")
    assert mem.transcript(user_id="maya") == []


def test_a_read_only_memory_refuses_to_reset(memory_factory: Any, tmp_path: Path) -> None:
    mem = memory_factory()
    mem.add(["Maya sings."], user_id="maya", infer=False)
    reader = memory_factory(read_only=True)
    with pytest.raises(StoreError, match="read-only"):
        reader.reset(user_id="maya", confirm="maya")
    assert len(mem.get_all(user_id="maya")) == 1


def test_a_reset_leaves_no_text_of_the_namespace_in_process_caches(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    fill(mem)
    mem.ask("Who keeps bees?", user_id="maya")  # builds maya's lexical indexes and embeds her texts
    mem.ask("Who restores canoes?", user_id="theo")
    svc = mem.services
    held = [k for k in svc.indexes._entries]
    assert any("maya" in str(k) for k in held) and any("theo" in str(k) for k in held)
    assert any("bees" in text for text in svc.embeddings._cache)
    mem.reset(user_id="maya", confirm="maya")
    assert not any("bees" in text for text in svc.embeddings._cache)  # cached by text: the whole cache goes
    kept = [str(k) for k in svc.indexes._entries]
    assert kept and not any("maya" in k for k in kept) and any("theo" in k for k in kept)
    assert svc.indexes.documents == sum(e.documents for e in svc.indexes._entries.values())  # the budget's count too
    assert mem.search("canoes", user_id="theo") and mem.ask("Who restores canoes?", user_id="theo").answer
