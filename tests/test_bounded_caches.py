"""What a long-running process keeps between runs stays within a bound, however many runs and users.

A served graph's process (``langgraph dev``) lives for days: every cache it keeps across runs must stop
growing at a documented bound. Before these bounds, the embedding cache kept every text a run embedded
(100,000 of them, about 330 MB at 384 dims) in first-in first-out order, and the lexical indexes kept
one build lock for every key ever asked about.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest

from dmem.errors import ConfigError
from dmem.evidence.indexes import EvidenceIndexes
from dmem.graphs.served import ServedGraphs
from dmem.models.embeddings import DEFAULT_CACHE_ITEMS, CachedEmbeddings, HashEmbeddings
from dmem.services import Resources
from dmem.state.context import Context, build_context
from dmem.state.schemas import Message

FACTS = ["I adopted a beagle named {name}.", "My sister {name} moved to Porto in May.",
         "I joined a chess club called {name}."]


class Counting(HashEmbeddings):
    """Hash embeddings that count the texts they embed."""

    def __init__(self) -> None:
        super().__init__(dim=16)
        self.embedded: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded.extend(texts)
        return super().embed_documents(texts)


async def exchange_and_question(served: ServedGraphs, n: int, user: str) -> None:
    """The n-th served run pair, as a stateless client sends them: one exchange for ``user``, then a question."""
    send = {"messages": [{"role": "user", "content": FACTS[n % len(FACTS)].format(name=f"Nel{n}")},
                         {"role": "assistant", "content": f"Noted ({n})."}],
            "user_id": user, "idempotency_key": f"send-{n}"}
    await served.graph("ingestion").ainvoke(send, config={"configurable": {"thread_id": str(uuid.uuid4())}})
    await served.graph("query").ainvoke({"question": f"What did {user} say lately?", "namespaces": [user]},
                                        config={"configurable": {"thread_id": str(uuid.uuid4())}})


def test_served_runs_over_many_users_leave_the_embedding_cache_at_its_bound(tmp_path: Path) -> None:
    settings = build_context(store_dir=str(tmp_path / "store"), embedding_model="hash", embedding_cache=12)
    served = ServedGraphs(Resources(settings))
    users = [f"user-{i}" for i in range(4)]

    async def runs() -> None:
        for n in range(12):
            await exchange_and_question(served, n, users[n % len(users)])
    try:
        asyncio.run(runs())
        cache = served.resources.embeddings_for(served.resources.settings)
        assert cache.max_items == 12
        assert cache.misses > 3 * 12  # the runs embedded far more texts than the bound...
        assert len(cache._cache) <= 12  # ...and the cache kept at most the bound
    finally:
        served.resources.close()


def test_a_text_used_again_is_kept_before_older_ones() -> None:
    inner = Counting()
    emb = CachedEmbeddings(inner, max_items=2)
    emb.embed_documents(["first", "second"])
    emb.embed_query("first")  # used again: now the most recently used
    emb.embed_query("third")  # drops the least recently used, "second"
    inner.embedded.clear()
    emb.embed_documents(["first", "third"])
    assert inner.embedded == []
    emb.embed_query("second")
    assert inner.embedded == ["second"]


def test_no_cache_still_embeds_each_text_of_a_call_once() -> None:
    inner = Counting()
    emb = CachedEmbeddings(inner, max_items=0)
    first = emb.embed_documents(["same", "same", "other"])
    assert inner.embedded == ["same", "other"] and first[0] == first[1]
    assert len(emb._cache) == 0
    emb.embed_query("same")
    assert inner.embedded == ["same", "other", "same"]


def test_the_default_bound_is_the_setting_and_a_few_megabytes() -> None:
    assert Context().embedding_cache == DEFAULT_CACHE_ITEMS
    emb = CachedEmbeddings(HashEmbeddings())  # 384 dims, as the bundled MiniLM
    emb.embed_documents([f"text number {i}" for i in range(DEFAULT_CACHE_ITEMS + 300)])
    assert len(emb._cache) == DEFAULT_CACHE_ITEMS
    held = sum(sys.getsizeof(k) for k in emb._cache) + emb.held_bytes  # texts and their float32 rows
    assert emb.held_bytes == DEFAULT_CACHE_ITEMS * 384 * 4 and held < 4 * 2**20


def test_a_negative_embedding_cache_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="embedding_cache"):
        build_context(embedding_cache=-1)


def test_the_embedding_cache_setting_reaches_a_memory_and_given_embeddings(tmp_path: Path) -> None:
    from dmem.api import Memory

    with Memory(tmp_path / "a", embeddings="hash", embedding_cache=5) as mem:
        assert mem.services.embeddings.max_items == 5
    with Memory(tmp_path / "b", embeddings=HashEmbeddings(), embedding_cache=7) as mem:
        assert mem.services.embeddings.max_items == 7


class _Store:
    """Just enough of a store for the memory index: one version, no memories, no turns."""

    def __init__(self) -> None:
        self.vectors = self
        self.transcript = self

    def version(self, namespace: str) -> int:
        return 1

    def list(self, namespace: str) -> list[Any]:
        return []

    def messages(self, namespaces: Any, labels: Any = None) -> list[Any]:
        return []

    def changes(self, namespace: str, since: int) -> list[Any]:
        return []

    def last_row(self, namespace: str) -> int:
        return -1


def test_lexical_indexes_keep_no_build_lock_per_user_ever_asked_about() -> None:
    indexes = EvidenceIndexes(_Store(), max_entries=3)  # type: ignore[arg-type]
    for i in range(50):
        indexes.memories(f"user-{i}")
    assert len(indexes._entries) == 3 and indexes._building == {}


def test_builds_of_one_key_still_wait_for_each_other() -> None:
    started, release = threading.Event(), threading.Event()
    builds: list[int] = []
    indexes = EvidenceIndexes(_Store())  # type: ignore[arg-type]

    def slow_build(old: Any) -> Any:
        builds.append(1)
        started.set()
        release.wait(10)
        return "built"

    first = threading.Thread(target=lambda: indexes._get("k", lambda e: True, slow_build))
    first.start()
    assert started.wait(10)
    second_result: list[Any] = []
    second = threading.Thread(target=lambda: second_result.append(indexes._get("k", lambda e: True, slow_build)))
    second.start()
    for _ in range(1000):  # until the second thread waits on the key's gate (a deadline, not a timing)
        gate = indexes._building.get("k")
        if gate is not None and gate.users == 2:
            break
        threading.Event().wait(0.01)
    assert indexes._building["k"].users == 2
    release.set()
    first.join(10)
    second.join(10)
    assert builds == [1] and second_result == ["built"] and indexes._building == {}


def _turns(namespace: str, n: int) -> list[Message]:
    return [Message(conversation_id=namespace, turn_id=f"t{i}", speaker="user", text=f"turn {i} of {namespace}")
            for i in range(n)]


def test_lexical_indexes_keep_at_most_their_document_budget() -> None:
    indexes = EvidenceIndexes(_Store(), max_documents=100)  # type: ignore[arg-type]
    for user in range(20):
        for length in (10, 20, 30):  # a growing transcript replaces the user's index each time
            indexes.turns([f"user-{user}"], _turns(f"user-{user}", length))
            assert indexes.documents <= 100
    assert indexes.documents == sum(e.documents for e in indexes._entries.values())
    assert list(indexes._entries) == [("turns", (f"user-{u}",)) for u in (17, 18, 19)]  # the most recent kept


def test_an_index_larger_than_the_budget_serves_its_question_and_is_not_kept() -> None:
    indexes = EvidenceIndexes(_Store(), max_documents=100)  # type: ignore[arg-type]
    indexes.turns(["small"], _turns("small", 40))
    big = indexes.turns(["big"], _turns("big", 150))
    assert big.documents == 150 and len(big.messages) == 150
    assert list(indexes._entries) == [("turns", ("small",))] and indexes.documents == 40


def test_no_document_budget_keeps_the_entry_bound_only() -> None:
    indexes = EvidenceIndexes(_Store(), max_entries=3, max_documents=0)  # type: ignore[arg-type]
    for user in range(5):
        indexes.turns([f"user-{user}"], _turns(f"user-{user}", 500))
    assert len(indexes) == 3 and indexes.documents == 1500


def test_served_runs_over_many_users_keep_the_indexes_within_their_budget(tmp_path: Path) -> None:
    settings = build_context(store_dir=str(tmp_path / "store"), embedding_model="hash", index_documents=30)
    served = ServedGraphs(Resources(settings))
    users = [f"user-{i}" for i in range(3)]
    kept: list[int] = []

    async def runs() -> None:
        for n in range(24):
            await exchange_and_question(served, n, users[n % len(users)])
            kept.append(sum(i.documents for i in served.resources._indexes.values()))
    try:
        asyncio.run(runs())
        (indexes,) = served.resources._indexes.values()
        assert indexes.max_documents == 30
        assert indexes.builds > 24  # the runs built far more than the budget holds...
        assert max(kept) <= 30 and kept[-1] > 0  # ...and the indexes kept at most the budget
    finally:
        served.resources.close()


def test_the_index_budget_setting_reaches_a_memory_and_must_not_be_negative(tmp_path: Path) -> None:
    from dmem.api import Memory
    from dmem.evidence.indexes import MAX_DOCUMENTS

    with Memory(tmp_path / "a", embeddings="hash", index_documents=7) as mem:
        assert mem.services.indexes.max_documents == 7
    assert Context().index_documents == MAX_DOCUMENTS
    with pytest.raises(ConfigError, match="index_documents"):
        build_context(index_documents=-1)


def test_word_stems_stop_at_their_bound_of_a_few_megabytes() -> None:
    from dmem.text import lexical

    lexical._porter.cache_clear()
    try:
        words = [f"zq{''.join(chr(97 + int(d)) for d in str(i))}ings" for i in range(lexical.STEM_CACHE_WORDS + 500)]
        stems = [lexical.stem(w) for w in words]
        assert stems[0] == "zqa" and lexical.stem_cache_size() == lexical.STEM_CACHE_WORDS
        assert lexical.STEM_CACHE_WORDS * 200 <= 4 * 2**20, "about 200 bytes a kept word: at most 4 MB"
    finally:
        lexical._porter.cache_clear()


def test_numbers_and_words_with_digits_are_not_kept_among_the_stems() -> None:
    # A chat keeps inventing ids, codes and amounts; they have no stem, so keeping them only fills the cache.
    from dmem.text import lexical

    kept = lexical.stem_cache_size()
    assert [lexical.stem(w) for w in ("4711", "ing0x12", "b2b", "12th", "seven", "went")] == \
        ["4711", "ing0x12", "b2b", "12th", "7", "go"]
    for i in range(2_000):
        lexical.stem(str(i))
        lexical.stem(f"order{i}")
    assert lexical.stem_cache_size() <= kept + 1  # "go", stemmed once
    assert lexical.stem("rosa's") == lexical.stem("rosa") == "rosa"
