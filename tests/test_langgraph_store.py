"""``Memory.as_store()``: LangGraph's BaseStore contract over dmem memories, checked against ``InMemoryStore``.

A seeded sequence of puts, deletes, gets, searches and namespace listings runs on both stores and
must give the same answers; then what is dmem's own: history with reasons, dmem-formed memories as
items, isolation, label filters, refused values, the privacy scope, and an async path that never
blocks the event loop. ``tests/test_postgres_langgraph_store.py`` reruns all of it on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, ListNamespacesOp, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from dmem.errors import DataError
from dmem.langgraph_store import DmemStore, NamespaceRule
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Operation, Scope

NAMESPACES = [("memories", "maya"), ("memories", "theo"), ("notes", "maya"), ("memories", "maya", "agent:planner"),
              ("memories", "maya", "agent:planner", "run:r7"), ("memories", "conv/ines")]
WORDS = ["tea", "chess", "porto", "garden", "violin", "bread", "river", "train"]


@pytest.fixture
def store(memory_factory: Any) -> DmemStore:
    return memory_factory().as_store()


def reference() -> InMemoryStore:
    return InMemoryStore(index={"dims": 384, "embed": HashEmbeddings(), "fields": ["content"]})


def shape(items: list[Any]) -> list[tuple[tuple[str, ...], str, dict[str, Any]]]:
    return [(tuple(i.namespace), i.key, i.value) for i in items]


def test_a_random_workload_answers_as_langgraphs_in_memory_store(store: DmemStore) -> None:
    rng, ref = random.Random(7), reference()
    for step in range(160):
        ns, key = rng.choice(NAMESPACES), f"k{rng.randrange(5)}"
        roll = rng.random()
        if roll < 0.5:
            value = {"content": f"{rng.choice(WORDS)} and {rng.choice(WORDS)} {step}", "n": rng.randrange(3)}
            store.put(ns, key, value)
            ref.put(ns, key, value)
        elif roll < 0.65:
            store.delete(ns, key)
            ref.delete(ns, key)
        elif roll < 0.8:
            assert shape([x for x in [store.get(ns, key)] if x]) == shape([x for x in [ref.get(ns, key)] if x])
        else:
            prefix = ns[:rng.randrange(1, len(ns) + 1)]
            wanted = {"n": rng.randrange(3)} if rng.random() < 0.5 else None
            ours, theirs = store.search(prefix, filter=wanted, limit=100), ref.search(prefix, filter=wanted, limit=100)
            assert sorted(shape(ours)) == sorted(shape(theirs)), (step, prefix, wanted)
    for prefix in [("memories",), ("notes", "maya"), ("memories", "maya")]:
        query = "tea chess"
        ours, theirs = store.search(prefix, query=query, limit=100), ref.search(prefix, query=query, limit=100)
        assert sorted(shape(ours)) == sorted(shape(theirs))
        assert [round(i.score, 5) for i in ours] == sorted((round(i.score, 5) for i in theirs), reverse=True)
    listings = [{}, {"prefix": ("memories",)}, {"suffix": ("agent:planner",)}, {"max_depth": 2},
                {"prefix": ("memories", "*", "agent:planner")}, {"limit": 2, "offset": 1}]
    for kwargs in listings:
        assert store.list_namespaces(**kwargs) == ref.list_namespaces(**kwargs), kwargs


def test_get_of_a_missing_key_or_of_another_users_key_is_none(store: DmemStore) -> None:
    store.put(("memories", "maya"), "tea", {"content": "Maya drinks green tea"})
    assert store.get(("memories", "maya"), "coffee") is None
    assert store.get(("memories", "theo"), "tea") is None
    assert store.get(("notes", "maya"), "tea") is None
    assert store.search(("memories", "theo"), query="green tea") == []


def test_search_ranks_by_dmem_retrieval_with_scores_limit_and_offset(store: DmemStore) -> None:
    for i, text in enumerate(["Maya grows tomatoes in her garden", "Maya plays the violin", "Maya bakes bread"]):
        store.put(("memories", "maya"), f"k{i}", {"content": text})
    hits = store.search(("memories", "maya"), query="violin music", limit=3)
    assert hits[0].key == "k1" and hits[0].score is not None and hits[0].score > hits[1].score
    paged = store.search(("memories", "maya"), query="violin music", limit=1, offset=1)
    assert [h.key for h in paged] == [hits[1].key]
    assert [h.key for h in store.search(("memories", "maya"))] == ["k0", "k1", "k2"]  # no query: oldest first


def test_put_records_history_with_its_reason_and_keeps_created_at(memory_factory: Any) -> None:
    mem = memory_factory()
    store = mem.as_store()
    store.put(("memories", "maya"), "city", {"content": "Maya lives in Porto"})
    first = store.get(("memories", "maya"), "city")
    store.put(("memories", "maya"), "city", {"content": "Maya lives in Braga"})
    second = store.get(("memories", "maya"), "city")
    assert second is not None and first is not None
    assert second.created_at == first.created_at and second.updated_at > first.updated_at
    record = mem.get_all(user_id="maya")[0]
    store.delete(("memories", "maya"), "city")
    rows = mem.history(record.id, user_id="maya")
    assert [r.operation for r in rows] == [Operation.ADD, Operation.UPDATE, Operation.DELETE]
    assert [r.new_text for r in rows] == ["Maya lives in Porto", "Maya lives in Braga", None]
    assert all("LangGraph store" in r.reason and "'city'" in r.reason for r in rows)
    assert rows[2].reason.startswith("deleted") and rows[0].reason.startswith("put")
    assert mem.get_all(user_id="maya") == []


def test_a_key_put_again_after_delete_is_a_new_memory(memory_factory: Any) -> None:
    mem = memory_factory()
    store = mem.as_store()
    for text in ["one", "two", "three"]:
        store.put(("memories", "maya"), "k", {"content": f"Maya counts {text}"})
        store.delete(("memories", "maya"), "k")
    store.put(("memories", "maya"), "k", {"content": "Maya counts four"})
    item = store.get(("memories", "maya"), "k")
    assert item is not None and item.value == {"content": "Maya counts four"}
    assert [r.text for r in mem.get_all(user_id="maya")] == ["Maya counts four"]


def test_memories_dmem_formed_are_items_of_the_default_collection(fake: Any, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    mem.add([{"speaker": "Maya", "text": "I keep bees on the roof."}], user_id="maya", metadata={"topic": "home"})
    [record] = mem.get_all(user_id="maya")
    store = mem.as_store()
    [item] = store.search(("memories", "maya"), query="bees")
    assert (item.key, item.value) == (record.id, {"content": record.text, "topic": "home"})
    assert store.get(("notes", "maya"), record.id) is None
    store.put(("memories", "maya"), record.id, {"content": "Maya gave the bees away", "topic": "home"})
    assert mem.get(record.id, user_id="maya").text == "Maya gave the bees away"
    assert mem.history(record.id, user_id="maya")[-1].operation == Operation.UPDATE
    store.delete(("memories", "maya"), record.id)
    assert mem.get_all(user_id="maya") == []


def test_agent_and_run_labels_are_dmem_scopes(memory_factory: Any) -> None:
    mem = memory_factory()
    store = mem.as_store()
    store.put(("memories", "maya", "agent:planner"), "a", {"content": "Plan trips by train"})
    store.put(("memories", "maya", "agent:planner", "run:r7"), "b", {"content": "This run books Porto"})
    assert [r.text for r in mem.get_all(user_id="maya", agent_id="planner")] == ["Plan trips by train"]
    assert [r.text for r in mem.get_all(user_id="maya", agent_id="planner", run_id="r7")] == ["This run books Porto"]
    assert mem.get_all(user_id="maya") == []
    assert {i.key for i in store.search(("memories", "maya"))} == {"a", "b"}
    with pytest.raises(InvalidNamespaceError, match="agent:<id>"):
        store.put(("memories", "maya", "profile"), "c", {"content": "x"})
    with pytest.raises(InvalidNamespaceError, match="no user label"):
        store.put(("memories",), "c", {"content": "x"})


def test_a_configured_rule_reads_users_without_a_collection(memory_factory: Any) -> None:
    mem = memory_factory()
    store = mem.as_store(NamespaceRule(collection_depth=0, default_collection=()))
    store.put(("maya",), "a", {"content": "Maya swims"})
    assert [r.text for r in mem.get_all(user_id="maya")] == ["Maya swims"]
    assert store.list_namespaces() == [("maya",)]


def test_filters_compare_as_dmem_label_filters(store: DmemStore) -> None:
    store.put(("memories", "maya"), "a", {"content": "Maya runs", "level": 1, "done": True, "kind": "habit"})
    store.put(("memories", "maya"), "b", {"content": "Maya reads", "level": 3, "done": False, "kind": "habit"})
    keys = lambda **f: sorted(i.key for i in store.search(("memories", "maya"), query="Maya", filter=f))  # noqa: E731
    assert keys(kind="habit") == ["a", "b"]
    assert keys(done=True) == ["a"] and keys(level=1) == ["a"]
    assert keys(level=True) == [] and keys(done=1) == []  # exact, as dmem's labels: True is not 1
    assert keys(level={"$gt": 1}) == ["b"] and keys(level={"$lte": 1}, kind="habit") == ["a"]
    assert keys(content="Maya reads") == ["b"]
    with pytest.raises(DataError, match=r"\$regex"):
        store.search(("memories", "maya"), filter={"kind": {"$regex": "h.*"}})


@pytest.mark.parametrize("value, message", [
    ({"kind": "no text"}, "needs its text"),
    ({"content": {"name": "Maya"}}, "non-empty text"),
    ({"content": "Maya", "tags": ["a", "b"]}, "'tags' is a list"),
    ({"content": "Maya", "when": None}, "'when' is a NoneType"),
    ({"content": "Maya", "store:key": "x"}, "dmem's own"),
])
def test_values_dmem_cannot_keep_are_refused_and_the_batch_writes_nothing(store: DmemStore, value: Any,
                                                                          message: str) -> None:
    with pytest.raises(DataError, match=message):
        store.batch([PutOp(("memories", "maya"), "good", {"content": "Maya sings"}),
                     PutOp(("memories", "maya"), "bad", value)])
    assert store.search(("memories", "maya")) == []


def test_a_batch_reads_before_its_writes_and_the_last_write_wins(store: DmemStore) -> None:
    ns = ("memories", "maya")
    out = store.batch([PutOp(ns, "k", {"content": "first"}), GetOp(ns, "k"), PutOp(ns, "k", {"content": "last"}),
                       SearchOp(ns), ListNamespacesOp()])
    assert out == [None, None, None, [], []]
    item = store.get(ns, "k")
    assert item is not None and item.value == {"content": "last"}


def test_personal_data_put_through_the_store_is_user_pii(memory_factory: Any) -> None:
    mem = memory_factory()
    store = mem.as_store()
    store.put(("memories", "maya"), "phone", {"content": "Maya's phone number is +1 415 555 0134"})
    store.put(("memories", "maya"), "tea", {"content": "Maya likes green tea"})
    scopes = {r.text.split()[1]: r.scope for r in mem.get_all(user_id="maya")}
    assert scopes == {"phone": Scope.USER_PII, "likes": Scope.GENERIC}


def test_the_async_path_runs_off_the_event_loop(store: DmemStore) -> None:
    store.put(("memories", "maya"), "a", {"content": "Maya likes tea"})
    released, inner = threading.Event(), store._embeddings

    class Gated(HashEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            assert released.wait(10), "the loop never ran while the store worked: abatch blocked it"
            return inner.embed_documents(texts)

    store._embeddings = Gated()

    async def main() -> list[Any]:
        search = asyncio.ensure_future(store.asearch(("memories", "maya"), query="tea"))
        await asyncio.sleep(0)
        released.set()  # only reachable while the search waits in its worker thread
        return await search

    assert [i.key for i in asyncio.run(main())] == ["a"]
