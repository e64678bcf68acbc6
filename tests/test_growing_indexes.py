"""Indexes grown from the rows added since their last read give exactly what a full rebuild gives.

Random sequences of memory adds, updates, deletes, imports, turns (timed, untimed, out of order,
new and continued conversations) and resets run on a store; after each step the kept indexes
(``EvidenceIndexes.memories`` and ``.transcript``, grown in place) are compared with indexes built
from a full read (``build_memory_index``, ``build_turn_index`` over ``transcript.messages``): the same
documents in the same order, the same scores for every memory's text and some dated questions, the
same source turns, the same turn cosines. On both backends.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from dmem.evidence.bm25 import terms
from dmem.evidence.documents import MemoryIndex, TurnIndex, build_memory_index, build_turn_index
from dmem.evidence.indexes import EvidenceIndexes
from dmem.evidence.search import DocIndex
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import MemoryRecord, Message
from dmem.store.namespaces import Routing

EMB = HashEmbeddings(384)
T0 = datetime(2024, 3, 4, 18, 30, tzinfo=UTC)
WORDS = ["violin", "greyhound", "pottery", "Porto", "chess", "garden", "marathon", "bakery", "kayak", "novel",
         "Ilsa", "Teodor", "Marguerite", "lantern", "harbour", "quilt"]
QUESTIONS = ["What did Ilsa do in May 2024?", "Where was the pottery class last week?",
             "Who went kayak on 6 March 2024?", "What happened in 2024?", "What did Teodor say about the harbour?"]


def _embed(texts: list[str]) -> Any:
    return np.asarray(EMB.embed_documents(texts), dtype=np.float32)


def same_docs(grown: DocIndex, full: DocIndex, queries: list[str]) -> None:
    assert grown.bm25.size == full.bm25.size and grown.days == full.days
    for q in queries:
        assert np.array_equal(grown.bm25.scores(terms(q)), full.bm25.scores(terms(q))), q
        assert grown.lexical(q, 100) == full.lexical(q, 100)
        assert grown.timed(q, 100) == full.timed(q, 100) and grown.shared_names(q) == full.shared_names(q)


def same_memories(grown: MemoryIndex, full: MemoryIndex) -> None:
    assert [r.model_dump() for r in grown.records] == [r.model_dump() for r in full.records]
    assert grown.sources == full.sources
    assert {k: [r.id for r in v] for k, v in grown.by_turn.items()} == \
        {k: [r.id for r in v] for k, v in full.by_turn.items()}  # the map kept on the view is its version's
    same_docs(grown.docs, full.docs, [r.text for r in full.records] + QUESTIONS)


def same_turns(grown: TurnIndex, full: TurnIndex, records: list[MemoryRecord]) -> None:
    assert grown.messages == full.messages
    same_docs(grown.docs, full.docs, [m.text for m in full.messages[:40]] + QUESTIONS)
    for r in records:
        assert grown.positions.of(r) == full.positions.of(r)
    query = _embed(["a quiet walk by the harbour"])[0]
    query /= np.linalg.norm(query)
    assert np.array_equal(grown.similarities(_embed, query), full.similarities(_embed, query))


class Script:
    """Random store operations on two namespaces, with what the test needs to pick sensible ones."""

    def __init__(self, store: Any, seed: int) -> None:
        self.store, self.rng = store, random.Random(seed)
        self.turns: dict[str, list[Message]] = {"ana": [], "bo": []}
        self.ids = 0

    def text(self) -> str:
        return " ".join(self.rng.sample(WORDS, 3))

    def record_turns(self, ns: str) -> None:
        rng, convs = self.rng, sorted({m.conversation_id for m in self.turns[ns]})
        conv = rng.choice(convs) if convs and rng.random() < 0.6 else f"conv-{rng.randrange(10**6):06d}"
        kind = rng.choice(["timed", "untimed", "past", "mixed"])
        out = []
        for i in range(rng.randint(1, 3)):
            self.ids += 1
            when = {"timed": T0 + timedelta(hours=self.ids), "untimed": None, "past": T0 - timedelta(days=self.ids),
                    "mixed": T0 + timedelta(minutes=self.ids) if i % 2 else None}[kind]
            extra = {"seq": rng.randrange(0, 10**6)} if rng.random() < 0.15 else {}  # an explicit, maybe earlier, seq
            out.append(Message(conversation_id=conv, turn_id=f"t{self.ids}", speaker=rng.choice(["Ilsa", "Teodor"]),
                               text=self.text(), timestamp=when, **extra))
        self.turns[ns] += self.store.transcript.append(Routing.of(ns), out)

    def new_record(self, ns: str) -> MemoryRecord:
        self.ids += 1
        sources = self.rng.sample(self.turns[ns], min(len(self.turns[ns]), self.rng.randint(0, 2)))
        conv = sources[0].conversation_id if sources else "conv-none"
        turn_ids = [m.turn_id for m in sources]
        if self.rng.random() < 0.15:  # names a turn recorded later ("late turn")
            conv, turn_ids = "conv-none", turn_ids[:0] + ["t-not-yet"]
        late = "t-not-yet" in turn_ids
        conv = None if self.rng.random() < (0.3 if late else 0.05) else conv  # no conversation: turns by id alone
        created = T0 + timedelta(minutes=self.rng.choice([self.ids, -self.ids, 0]))  # some sort before older ones
        event = T0 + timedelta(days=self.rng.randint(-60, 60)) if self.rng.random() < 0.5 else None
        return MemoryRecord(id=f"m{self.ids}", namespace=ns, text=self.text(), source_turn_ids=turn_ids,
                            conversation_id=conv, created_at=created, updated_at=created, event_time=event)

    def step(self) -> str:
        rng, store = self.rng, self.store
        ns = rng.choice(["ana", "bo"])
        live = store.vectors.list(ns)
        op = rng.choices(["turns", "add", "update", "delete", "import", "reset", "late turn"],
                         [30, 30, 15, 10, 6, 3, 6])[0]
        if op == "turns" or (op in ("update", "delete") and not live):
            self.record_turns(ns)
        elif op == "add":
            r = self.new_record(ns)
            store.vectors.add(r, EMB.embed_query(r.text))
        elif op == "update":
            old = rng.choice(live)
            r = old.model_copy(update={"text": self.text(), "source_turn_ids": old.source_turn_ids[:1]})
            store.vectors.update(r, EMB.embed_query(r.text))
        elif op == "delete":
            store.vectors.delete(ns, rng.choice(live).id)
        elif op == "import":
            records = [self.new_record(ns) for _ in range(2)] + live[:1]
            store.import_records(ns, records, [EMB.embed_query(r.text) for r in records], "import")
        elif op == "reset":
            store.purge(ns)
            self.turns[ns] = []
        else:  # the turn a memory named before it was recorded
            store.transcript.append(Routing.of(ns), [Message(conversation_id="conv-none", turn_id="t-not-yet",
                                                             speaker="Ilsa", text="the turn named before")])
        return f"{op} {ns}"


def check_grown_against_full(store: Any, seed: int, steps: int) -> None:
    """After each random step, the grown indexes equal full rebuilds; the views of the step before still do."""
    indexes = EvidenceIndexes(store)
    script = Script(store, seed)
    before: dict[str, tuple[MemoryIndex, MemoryIndex, TurnIndex, TurnIndex]] = {}
    for n in range(steps):
        done = script.step()
        for ns in ("ana", "bo"):
            if script.rng.random() < 0.3:
                continue  # some steps pile up before an index looks again
            try:
                grown, full = indexes.memories(ns), build_memory_index(store, ns)
                turns, all_turns = indexes.transcript(ns), build_turn_index(store.transcript.messages([ns]), "")
                same_memories(grown, full)
                same_turns(turns, all_turns, list(grown.records))
                if ns in before:  # a view handed out earlier is not changed by the growth since
                    old_grown, old_full, old_turns, old_all = before[ns]
                    same_memories(old_grown, old_full)
                    same_turns(old_turns, old_all, list(old_grown.records))
                before[ns] = (grown, full, turns, all_turns)
            except AssertionError as exc:
                raise AssertionError(f"seed {seed}, step {n} ({done}), namespace {ns}: {exc}") from exc


@pytest.mark.parametrize("seed", range(4))
def test_grown_indexes_equal_a_full_rebuild_on_the_local_store(memory_factory: Any, seed: int) -> None:
    check_grown_against_full(memory_factory().store, seed, 60)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4, 10))
def test_grown_indexes_equal_a_full_rebuild_over_longer_runs(memory_factory: Any, seed: int) -> None:
    check_grown_against_full(memory_factory().store, seed, 200)


@pytest.mark.postgres
@pytest.mark.parametrize("seed", range(3))
def test_grown_indexes_equal_a_full_rebuild_on_postgres(postgres_memory_factory: Any, seed: int) -> None:
    check_grown_against_full(postgres_memory_factory().store, seed, 60)


@pytest.mark.parametrize("conversation", ["conv-late", None])
def test_a_source_turn_recorded_after_its_memory_reaches_the_memory_index(memory_factory: Any,
                                                                          conversation: str | None) -> None:
    store = memory_factory().store
    indexes = EvidenceIndexes(store)
    record = MemoryRecord(id="m1", namespace="ana", text="Ilsa bought a quilt", source_turn_ids=["t-late"],
                          conversation_id=conversation, created_at=T0, updated_at=T0)
    store.vectors.add(record, EMB.embed_query(record.text))
    assert indexes.memories("ana").sources == ((),)
    store.transcript.append(Routing.of("ana"), [Message(conversation_id="conv-late", turn_id="t-late", speaker="Ilsa",
                                                        text="I found a patchwork quilt at the harbour market")])
    grown = indexes.memories("ana")  # no memory was written: the version did not move
    assert grown.sources == (("Ilsa: I found a patchwork quilt at the harbour market",),)
    same_memories(grown, build_memory_index(store, "ana"))


def test_questions_read_only_the_rows_added_since_the_last_one(memory_factory: Any) -> None:
    store = memory_factory().store
    indexes = EvidenceIndexes(store)

    def exchange(i: int) -> MemoryRecord:
        turn = Message(conversation_id=f"conv-{i}", turn_id=f"t{i}", speaker="Ilsa", text=f"I rowed a kayak {i} km")
        store.transcript.append(Routing.of("ana"), [turn])
        record = MemoryRecord(id=f"m{i}", namespace="ana", text=f"Ilsa rowed {i} km", source_turn_ids=[f"t{i}"],
                              conversation_id=f"conv-{i}", created_at=T0, updated_at=T0)
        store.vectors.add(record, EMB.embed_query(record.text))
        return record

    for i in range(20):
        exchange(i)
    first, turns = indexes.memories("ana"), indexes.transcript("ana")
    reads: list[tuple[str, int]] = []
    transcript, vectors = store.transcript, store.vectors

    class Transcript:
        def __getattr__(self, name: str) -> Any:
            return getattr(transcript, name)

        def since(self, namespace: str, rowid: int) -> Any:
            reads.append(("since", rowid))
            return transcript.since(namespace, rowid)

        def messages(self, *args: Any) -> Any:
            pytest.fail("a question read the whole transcript")

    class Vectors:
        def __getattr__(self, name: str) -> Any:
            return getattr(vectors, name)

        def changes(self, namespace: str, since: int) -> Any:
            reads.append(("changes", since))
            return vectors.changes(namespace, since)

        def list(self, *args: Any) -> Any:
            pytest.fail("a question read every memory")

    store.transcript, store.vectors = Transcript(), Vectors()
    try:
        new = exchange(20)
        grown, grown_turns = indexes.memories("ana"), indexes.transcript("ana")
    finally:
        store.transcript, store.vectors = transcript, vectors
    assert ("changes", first.version) in reads and ("since", -1) not in reads
    assert [r.id for r in grown.records] == [r.id for r in first.records] + [new.id]
    assert len(grown_turns.messages) == len(turns.messages) + 1
    same_memories(grown, build_memory_index(store, "ana"))
    same_turns(grown_turns, build_turn_index(store.transcript.messages(["ana"]), ""), list(grown.records))


def test_grown_indexes_count_their_documents_against_the_budget(memory_factory: Any) -> None:
    store = memory_factory().store
    indexes = EvidenceIndexes(store, max_documents=120)
    script = Script(store, 5)
    for _ in range(40):
        for ns in ("ana", "bo"):
            script.record_turns(ns)
            r = script.new_record(ns)
            store.vectors.add(r, EMB.embed_query(r.text))
            indexes.memories(ns), indexes.transcript(ns)
            held = sum(e.documents for e in indexes._entries.values())
            assert indexes.documents == held <= 120  # grown in place, the entries are counted as they are now
    assert len(indexes.transcript("ana").messages) == len(store.transcript.messages(["ana"])) > 60


def test_a_refresh_that_fails_half_way_leaves_an_index_rebuilt_not_half_grown(memory_factory: Any,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import dmem.evidence.growing as growing
    from dmem.errors import StoreError

    store = memory_factory().store
    indexes = EvidenceIndexes(store)
    script = Script(store, 3)
    for _ in range(6):
        script.record_turns("ana")
    for i in range(12):
        turn = script.turns["ana"][i % len(script.turns["ana"])]
        r = script.new_record("ana").model_copy(update={"conversation_id": turn.conversation_id,
                                                        "source_turn_ids": [turn.turn_id]})
        store.vectors.add(r, EMB.embed_query(r.text))
    indexes.memories("ana"), indexes.transcript("ana")
    real_document, real_with_ids = growing.memory_document, store.transcript.with_ids

    def broken_document(*args: Any) -> Any:
        raise RuntimeError("failed while the catalog changes")

    def broken_read(*args: Any) -> Any:
        raise StoreError("the database is unreachable")

    for part, broken in ((growing, "memory_document"), (store.transcript, "with_ids")):
        live = store.vectors.list("ana")
        store.vectors.update(live[0].model_copy(update={"text": script.text()}), EMB.embed_query("changed"))
        monkeypatch.setattr(part, broken, broken_document if part is growing else broken_read)
        with pytest.raises((RuntimeError, StoreError)):
            indexes.memories("ana")
        monkeypatch.setattr(part, broken, real_document if part is growing else real_with_ids)
        same_memories(indexes.memories("ana"), build_memory_index(store, "ana"))
