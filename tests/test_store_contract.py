"""The store contract (``dmem.store.base``), through the protocols only: every backend must pass these.

The ``store`` fixture is parametrized by backend; a new backend adds its name to BACKENDS and a
branch to ``make_store``. Nothing here reaches into a backend's internals.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from dmem.errors import DataError, StoreError
from dmem.state.schemas import AdmissionDecision, Category, MemoryRecord, Message, Operation, Provenance, Scope
from dmem.store import MemoryStore, Routing, SearchFilter, open_any_store, open_store
from dmem.store.claims import new_worker

DIM = 8
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
BACKENDS = ["local", pytest.param("postgres", marks=pytest.mark.postgres)]


def make_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> MemoryStore:
    if backend == "local":
        return open_store(tmp_path / "store", dim=DIM)
    if backend == "postgres":
        return open_any_store(request.getfixturevalue("postgres_url"), dim=DIM)
    raise AssertionError(f"unknown backend {backend}")


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    s = make_store(request.param, tmp_path, request)
    yield s
    s.close()


def vec(seed: int) -> list[float]:
    return np.random.default_rng(seed).normal(size=DIM).tolist()


def axis(i: int, scale: float = 1.0) -> list[float]:
    v = [0.0] * DIM
    v[i] = scale
    return v


def rec(mid: str, ns: str = "alice", text: str | None = None, minutes: int = 0, **fields: object) -> MemoryRecord:
    when = T0 + timedelta(minutes=minutes)
    data: dict[str, object] = {"id": mid, "namespace": ns, "text": text or f"memory {mid}",
                               "created_at": when, "updated_at": when}
    data.update(fields)
    return MemoryRecord.model_validate(data)


def ids(hits: list) -> list[str]:
    return [h.record.id for h in hits]


def msg(conv: str, n: int, text: str | None = None, ts: datetime | None = None, **kw: object) -> Message:
    return Message(conversation_id=conv, turn_id=f"{conv}:{n}", speaker="Ann", text=text or f"{conv} says {n}",
                   timestamp=ts, **kw)


# ---- memories --------------------------------------------------------------------------------------


def test_record_round_trip_keeps_every_field(store: MemoryStore) -> None:
    full = MemoryRecord(
        id="r1", namespace="alice", text="Ann prefers green tea — très chaud 🍵",
        categories=[Category.PREFERENCE, Category.EVENT], provenance=Provenance.INFERRED, scope=Scope.USER_PII,
        source_turn_ids=["D1:3", "D1:4"], speaker="Ann",
        event_time=datetime(2023, 5, 7, 18, 30, tzinfo=timezone(timedelta(hours=2))),
        created_at=datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=UTC), updated_at=datetime(2024, 1, 3, 4, 5, 6),
        language="fr", conversation_id="conv-9", enrichment={"wiki": "Green tea is...", "k": ""},
    )
    store.vectors.add(full, vec(1))
    assert store.vectors.get("alice", "r1") == full
    assert store.vectors.search(["alice"], vec(1), 1)[0].record == full
    assert store.vectors.list("alice") == [full] and store.export_records("alice") == [full]
    assert store.vectors.vector("alice", "r1") == pytest.approx((np.array(vec(1)) / np.linalg.norm(vec(1))).tolist())


def test_search_orders_by_cosine_and_reports_true_cosine(store: MemoryStore) -> None:
    store.vectors.add(rec("same"), axis(0, 5.0))
    store.vectors.add(rec("diag"), [1.0, 1.0] + [0.0] * (DIM - 2))
    store.vectors.add(rec("far"), [1.0, -2.0] + [0.0] * (DIM - 2))
    store.vectors.add(rec("ortho"), axis(1))
    store.vectors.add(rec("opposite"), axis(0, -3.0))
    hits = store.vectors.search(["alice"], axis(0, 0.1), 10)
    assert ids(hits) == ["same", "diag", "far", "ortho", "opposite"]
    assert [h.score for h in hits] == pytest.approx([1.0, 1 / np.sqrt(2), 1 / np.sqrt(5), 0.0, -1.0], abs=1e-6)
    assert ids(store.vectors.search(["alice"], axis(0), 2)) == ["same", "diag"]
    assert store.vectors.search(["alice"], axis(0), 0) == [] and store.vectors.search([], axis(0), 3) == []


@pytest.mark.parametrize("ef_search", [1, 64, 999])
def test_a_run_s_search_view_finds_what_the_store_finds_and_shares_its_writes(
        store: MemoryStore, ef_search: int) -> None:
    with store.transaction():
        for i in range(12):
            store.vectors.add(rec(f"m{i}", ns="alice" if i % 3 else "bob"), vec(i))
    view = store.searching(ef_search)
    assert view.searching(ef_search) is view and view.dim == store.dim and not view.closed
    for query in (vec(100), vec(101), axis(3)):
        expected = [(h.record, h.score) for h in store.vectors.search(["alice", "bob"], query, 5)]
        assert [(h.record, h.score) for h in view.vectors.search(["alice", "bob"], query, 5)] == expected
        assert len(expected) == 5
    with view.transaction():
        view.vectors.add(rec("through-view", ns="bob"), axis(0))
    assert store.vectors.get("bob", "through-view") is not None
    assert ids(view.vectors.search(["bob"], axis(0), 1)) == ids(store.vectors.search(["bob"], axis(0), 1))


def test_every_by_id_operation_stays_inside_its_namespace(store: MemoryStore) -> None:
    store.vectors.add(rec("a1", ns="A"), axis(1))
    store.vectors.add(rec("b1", ns="B", text="B's secret"), axis(0))  # identical to the query
    assert sorted(ids(store.vectors.search(["A"], axis(0), 50))) == ["a1"]
    assert ids(store.vectors.search(["A", "B"], axis(0), 1)) == ["b1"]
    assert store.vectors.get("A", "b1") is None and store.vectors.vector("A", "b1") is None
    assert store.vectors.delete("A", "b1") is None and store.vectors.get("B", "b1") is not None
    with pytest.raises(StoreError, match="no live memory 'b1' in namespace 'A'"):
        store.vectors.update(rec("b1", ns="A", text="hijacked"), axis(2))
    with pytest.raises(StoreError, match="already exists"):  # ids are unique over the whole store
        store.vectors.add(rec("b1", ns="A"), axis(2))
    assert store.vectors.get("B", "b1") == rec("b1", ns="B", text="B's secret")
    store.history.append("B", "b1", Operation.ADD, None, "B's secret", "new")
    assert store.history.for_memory("A", "b1") == [] and len(store.history.for_memory("B", "b1")) == 1
    assert store.vectors.namespaces() == ["A", "B"] and store.vectors.count("B") == 1


FILTER_CASES = {
    "categories": (SearchFilter(categories=frozenset({"user_rule"})), {"categories": [Category.USER_RULE]}),
    "scopes": (SearchFilter(scopes=frozenset({"INTERNAL"})), {"scope": Scope.INTERNAL}),
    "provenance": (SearchFilter(provenance="inferred"), {"provenance": Provenance.INFERRED}),
    "speaker": (SearchFilter(speaker="BOB"), {"speaker": "Bob"}),
    "conversation_id": (SearchFilter(conversation_id="c7"), {"conversation_id": "c7"}),
    "metadata": (SearchFilter.with_metadata({"source": "chat", "week": 12}),
                 {"metadata": {"source": "chat", "week": 12, "checked": True}}),
}


@pytest.mark.parametrize("name", sorted(FILTER_CASES))
def test_each_filter_field_returns_k_matches_beyond_the_nearest(store: MemoryStore, name: str) -> None:
    where, fields = FILTER_CASES[name]
    base = {"categories": [Category.EVENT], "speaker": "Ann", "conversation_id": "c1"}
    with store.transaction():
        for i in range(12):  # twelve non-matching records, all closer to the query
            store.vectors.add(rec(f"near{i}", **base), [1.0, 0.01 * i] + [0.0] * (DIM - 2))
        for i in range(3):
            store.vectors.add(rec(f"match{i}", **{**base, **fields}), [0.2, 1.0 + i] + [0.0] * (DIM - 2))
    hits = store.vectors.search(["alice"], axis(0), 2, where=where)
    assert ids(hits) == ["match0", "match1"] and all(where.matches(h.record) for h in hits)
    assert len(store.vectors.search(["alice"], axis(0), 10, where=where)) == 3
    assert ids(store.vectors.search(["alice"], axis(0), 5, min_score=0.99999)) == ["near0"]


def test_metadata_filters_compare_exactly_on_every_backend(store: MemoryStore) -> None:
    near = [{"week": 12.0}, {"week": "12"}, {"week": True}, {"other": 12}, {}]  # closer to the query, no match
    with store.transaction():
        for i, labels in enumerate(near):
            store.vectors.add(rec(f"near{i}", metadata=labels), [1.0, 0.01 * i] + [0.0] * (DIM - 2))
        store.vectors.add(rec("int", metadata={"week": 12, "flag": True}), axis(1))
        store.vectors.add(rec("float", metadata={"week": 2.5, "flag": 1}), axis(2))
    assert ids(store.vectors.search(["alice"], axis(0), 3, where=SearchFilter.with_metadata({"week": 12}))) == ["int"]
    assert ids(store.vectors.search(["alice"], axis(0), 3, where=SearchFilter.with_metadata({"week": 12.0}))) \
        == ["near0"]
    assert ids(store.vectors.search(["alice"], axis(0), 3, where=SearchFilter.with_metadata({"flag": 1}))) == ["float"]
    both = SearchFilter.with_metadata({"week": 2.5, "flag": 1})
    assert ids(store.vectors.search(["alice"], axis(0), 3, where=both)) == ["float"]
    assert store.vectors.search(["alice"], axis(0), 3, where=SearchFilter.with_metadata({"week": 13})) == []
    assert SearchFilter.of_labels(None) is None and SearchFilter.of_labels({}) is None  # no labels: no filter
    assert SearchFilter.of_labels({"flag": 1}) == SearchFilter.with_metadata({"flag": 1})


def test_update_and_delete_keep_history_and_hide_the_record(store: MemoryStore) -> None:
    store.vectors.add(rec("u"), axis(0))
    new = rec("u", text="moved", categories=[Category.PERSONA])
    store.vectors.update(new, axis(1))
    assert store.vectors.get("alice", "u") == new
    assert store.vectors.search(["alice"], axis(1), 1)[0].score == pytest.approx(1.0)
    store.vectors.update(rec("u", text="text only"), None)  # keeps the vector
    assert store.vectors.vector("alice", "u") == pytest.approx(axis(1))
    with store.transaction():
        removed = store.vectors.delete("alice", "u")
        assert removed is not None
        store.history.append("alice", "u", Operation.DELETE, removed.text, None, "asked")
    assert store.vectors.get("alice", "u") is None and store.vectors.search(["alice"], axis(1), 5) == []
    assert [e.old_text for e in store.history.for_memory("alice", "u")] == ["text only"]
    with pytest.raises(StoreError, match="already exists"):
        store.vectors.add(rec("u"), axis(0))


def test_version_moves_with_every_memory_write_of_the_namespace(store: MemoryStore) -> None:
    seen = [store.version("alice")]

    def moved() -> None:
        now = store.version("alice")
        assert now != seen[-1] and store.version() != 0
        seen.append(now)

    store.vectors.add(rec("v"), axis(0))
    moved()
    store.vectors.update(rec("v", text="changed"), axis(1))
    moved()
    store.vectors.update(rec("v", text="text only"), None)
    moved()
    store.vectors.delete("alice", "v")
    moved()
    with pytest.raises(RuntimeError), store.transaction():
        store.vectors.add(rec("w"), axis(2))
        raise RuntimeError("rolled back")
    assert store.vectors.get("alice", "w") is None


def test_rejects_bad_vectors(store: MemoryStore) -> None:
    for bad, message in (([1.0, 0.0], "dimensions"), ([0.0] * DIM, "zeros"), ([float("nan")] * DIM, "NaN")):
        with pytest.raises(StoreError, match=message):
            store.vectors.add(rec("a"), bad)
    assert store.vectors.count() == 0


def test_an_all_zero_query_finds_nothing_instead_of_failing(store: MemoryStore) -> None:
    # Text with nothing an embedding can see (a lone symbol under hash embeddings) embeds to zeros: a
    # question or a turn's context search must find no hit, not fail the turn (a fuzz case found it).
    store.vectors.add(rec("a"), axis(0))
    assert store.vectors.search(["alice"], [0.0] * DIM, 5) == []
    assert asyncio.run(store.vectors.asearch(["alice"], [0.0] * DIM, 5)) == []
    with pytest.raises(StoreError, match="NaN"):
        store.vectors.search(["alice"], [float("nan")] * DIM, 5)


# ---- transactions and history ---------------------------------------------------------------------


def test_history_and_admissions_are_per_namespace(store: MemoryStore) -> None:
    at = datetime(2024, 2, 2, 9, 0, tzinfo=timezone(timedelta(hours=-5)))
    with store.transaction():
        store.vectors.add(rec("h"), axis(0))
        store.history.append("alice", "h", Operation.ADD, None, "memory h", "new fact", at=at)
        store.vectors.add(rec("g", ns="bob"), axis(1))
        store.history.append("bob", "g", Operation.ADD, None, "memory g", "new fact")
    rows = store.history.for_memory("alice", "h")
    assert [(e.operation, e.new_text, e.at) for e in rows] == [(Operation.ADD, "memory h", at)]
    assert [e.memory_id for e in store.history.entries("bob")] == ["g"]
    yes = AdmissionDecision(turn_id="t1", speaker="Ann", utterance="I love tea", admitted=True, reason="x")
    no = AdmissionDecision(turn_id="t1", speaker="Bo", utterance="ok", admitted=False, reason="filler")
    store.history.record_admission("alice", "c1", yes)
    store.history.record_admission("bob", "c1", no)  # same conversation and turn ids, another user
    assert store.history.admissions("alice") == [yes] and store.history.admissions("bob") == [no]


def test_rollback_leaves_neither_memory_nor_history(store: MemoryStore) -> None:
    store.vectors.add(rec("keep"), axis(0))
    store.vectors.add(rec("gone"), axis(2))
    with pytest.raises(RuntimeError), store.transaction():
        store.vectors.add(rec("new"), axis(1))
        store.history.append("alice", "new", Operation.ADD, None, "memory new", "r")
        store.vectors.update(rec("keep", text="changed"), axis(3))
        store.vectors.delete("alice", "gone")
        store.transcript.append(Routing.of("alice"), [msg("c", 1)])
        raise RuntimeError("model call failed")
    assert store.vectors.get("alice", "new") is None and store.history.entries("alice") == []
    assert store.vectors.get("alice", "keep") == rec("keep") and store.vectors.get("alice", "gone") == rec("gone")
    assert ids(store.vectors.search(["alice"], axis(1), 5, min_score=0.5)) == []
    assert ids(store.vectors.search(["alice"], axis(2), 1)) == ["gone"]
    assert store.transcript.count() == 0


def test_nested_transaction_failure_undoes_only_itself(store: MemoryStore) -> None:
    with store.transaction():
        store.vectors.add(rec("a"), axis(0))
        with pytest.raises(RuntimeError), store.transaction():
            store.vectors.add(rec("b"), axis(1))
            raise RuntimeError("inner step failed")
        store.history.append("alice", "a", Operation.ADD, None, "memory a", "kept")
    assert store.vectors.get("alice", "b") is None and store.vectors.get("alice", "a") == rec("a")
    assert ids(store.vectors.search(["alice"], axis(1), 5)) == ["a"]


def test_concurrent_threads_write_and_search(store: MemoryStore) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def work(t: int) -> None:
        try:
            start.wait()
            for i in range(15):
                with store.transaction():
                    store.vectors.add(rec(f"t{t}-{i}", ns=f"ns{t % 2}"), vec(100 * t + i))
                    store.history.append(f"ns{t % 2}", f"t{t}-{i}", Operation.ADD, None, "x", "thread")
                store.vectors.search(["ns0", "ns1"], vec(i), 3)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert store.vectors.count() == 60 and len(store.history.entries("ns0")) == 30


def test_import_records_refuses_ids_of_other_namespaces_whole(store: MemoryStore) -> None:
    store.vectors.add(rec("taken", ns="bob"), axis(0))
    with pytest.raises(StoreError, match="another namespace"):
        store.import_records("alice", [rec("fresh"), rec("taken")], [axis(1), axis(2)], "import")
    assert store.vectors.get("alice", "fresh") is None and store.vectors.get("bob", "taken") is not None
    with pytest.raises(StoreError, match="other namespaces"):
        store.import_records("alice", [rec("x", ns="bob")], [axis(1)], "import")
    assert store.import_records("alice", [rec("fresh")], [axis(1)], "import") == 1
    assert [e.operation for e in store.history.for_memory("alice", "fresh")] == [Operation.ADD]


# ---- transcript ------------------------------------------------------------------------------------


def test_same_conversation_and_turn_ids_never_meet_across_namespaces(store: MemoryStore) -> None:
    alice = store.transcript.append(Routing.of("alice"), [msg("chat", 1, "alice one"), msg("chat", 2, "alice two")])
    bob = store.transcript.append(Routing.of("bob"), [msg("chat", 1, "bob one")])  # same ids: not a duplicate
    assert [m.text for m in bob] == ["bob one"] and [m.seq for m in alice] == [0, 1] and bob[0].seq == 0
    assert [m.text for m in store.transcript.messages(["bob"])] == ["bob one"]
    assert [m.text for m in store.transcript.messages(["alice"])] == ["alice one", "alice two"]
    assert [m.text for m in store.transcript.before("bob", "chat", 99, 10)] == ["bob one"]
    assert store.transcript.conversations("bob") == ["chat"] and store.transcript.conversations("carol") == []
    assert store.transcript.count("alice") == 2 and store.transcript.namespaces() == ["alice", "bob"]


def test_has_turns_answers_as_messages_would_under_any_label_filter(store: MemoryStore) -> None:
    store.transcript.append(Routing.of("alice"), [msg("chat", 1, "alice one")], {"source": "chat", "week": 3})
    store.transcript.append(Routing.of("bob"), [msg("chat", 1, "bob one")])
    cases = [(["alice"], None), (["carol"], None), ([], None), (["alice", "carol"], {"source": "chat"}),
             (["alice"], {"source": "mail"}), (["bob"], {"source": "chat"}), (["alice"], {"week": 3}),
             (["alice"], {"week": 3.0}), (["alice"], {"week": "3"}), (["bob"], {})]
    for names, labels in cases:
        assert store.transcript.has_turns(names, labels) == bool(store.transcript.messages(names, labels)), labels
    assert store.transcript.has_turns(["alice"], {"week": 3}) and not store.transcript.has_turns(["carol"])


def test_async_reads_answer_exactly_as_the_sync_ones(store: MemoryStore) -> None:
    """asearch / ahas_turns / amessages (on the loop's async pool on PostgreSQL, a thread locally) == sync."""
    for i in range(12):
        ns = "alice" if i % 3 else "bob"
        store.vectors.add(rec(f"m{i}", ns=ns, categories=[Category.EVENT if i % 2 else Category.PREFERENCE],
                              metadata={"tier": "gold" if i % 4 == 0 else "plain"}), vec(i))
    store.transcript.append(Routing.of("alice"), [msg("chat", 1, "alice one", ts=T0), msg("chat", 2)],
                            {"source": "chat", "week": 3})
    store.transcript.append(Routing.of("bob"), [msg("mail", 1, "bob one")])
    searches = [(["alice"], {}), (["alice", "bob"], {}), (["bob", "carol"], {"min_score": 0.1}),
                (["alice", "bob"], {"where": SearchFilter.with_metadata({"tier": "gold"})}),
                (["alice"], {"where": SearchFilter(categories=frozenset({"preference"}))}), ([], {})]
    reads = [(["alice"], None), (["carol"], None), ([], None), (["alice", "bob"], {"source": "chat"}),
             (["alice"], {"week": 3.0}), (["bob"], {"source": "chat"}), (["alice", "bob"], {})]

    async def both() -> None:
        for q in range(3):
            for names, options in searches:
                sync = [(h.record, h.score) for h in store.vectors.search(names, vec(100 + q), 5, **options)]
                awaited = await store.vectors.asearch(names, vec(100 + q), 5, **options)
                assert [(h.record, h.score) for h in awaited] == sync, (names, options)
        for names, labels in reads:
            assert await store.transcript.amessages(names, labels) == store.transcript.messages(names, labels)
            assert await store.transcript.ahas_turns(names, labels) == store.transcript.has_turns(names, labels)
        assert len(await store.transcript.amessages(["alice", "bob"])) == 3

    asyncio.run(both())


def test_append_is_idempotent_and_refuses_a_changed_turn(store: MemoryStore) -> None:
    first = store.transcript.append(Routing.of("alice"), [msg("c", 1, ts=T0, image_caption="a cat")])
    assert store.transcript.append(Routing.of("alice"), [msg("c", 1, ts=T0, image_caption="a cat")]) == first
    with pytest.raises(DataError, match=r"turn 'c:1' of conversation 'c' in namespace 'alice'.*text"):
        store.transcript.append(Routing.of("alice"), [msg("c", 2), msg("c", 1, "something else")])
    assert store.transcript.count("alice") == 1  # the batch stored nothing
    assert store.transcript.messages(["alice"]) == first


def test_labels_join_the_unformed_turns_of_their_namespaces_only(store: MemoryStore) -> None:
    routing = Routing.of("conv", {"Ann": "conv/Ann"})
    store.transcript.append(routing, [msg("c", 1), msg("c", 2)], {"source": "chat", "week": 1})
    store.transcript.append(Routing.of("bob"), [msg("c", 1)])  # the same ids elsewhere: unlabelled
    store.transcript.mark_processed(routing.namespaces(), [("c", "c:2")])
    store.transcript.append(routing, [msg("c", 1), msg("c", 2)], {"week": 2, "ok": True})  # merged; c:2 is formed
    merged, kept = {"source": "chat", "week": 2, "ok": True}, {"source": "chat", "week": 1}
    assert store.transcript.labels(["conv", "conv/Ann", "bob"], [("c", "c:1"), ("c", "c:2")]) == {
        ("conv", "c", "c:1"): merged, ("conv/Ann", "c", "c:1"): merged,
        ("conv", "c", "c:2"): kept, ("conv/Ann", "c", "c:2"): kept}
    assert [u.labels for u in store.transcript.unformed("conv/Ann")] == [merged]
    assert [u.labels for u in store.transcript.unformed("bob")] == [{}]
    with pytest.raises(DataError):
        store.transcript.append(Routing.of("bob"), [msg("c", 3), msg("c", 1, "changed")], {"x": 1})
    assert store.transcript.labels(["bob"], [("c", "c:1"), ("c", "c:3")]) == {}  # the failed append labelled nothing
    assert store.transcript.label(["bob"], [("c", "c:1")], {"x": True}) == 1
    assert store.transcript.label(["bob"], [("c", "c:1")], {"x": True}) == 0  # nothing new
    assert store.transcript.labels(["bob"], [("c", "c:1")]) == {("bob", "c", "c:1"): {"x": True}}


def test_seq_is_assigned_in_order_and_explicit_collisions_are_refused(store: MemoryStore) -> None:
    store.transcript.append(Routing.of("alice"), [msg("c", 1, seq=5)])
    got = store.transcript.append(Routing.of("alice"), [msg("c", 2), msg("c", 3)])
    assert [m.seq for m in got] == [6, 7]
    with pytest.raises(DataError, match="seq 6, which turn 'c:2' already holds"):
        store.transcript.append(Routing.of("alice"), [msg("c", 4, seq=6)])
    with pytest.raises(DataError, match="out of range"):
        store.transcript.append(Routing.of("alice"), [msg("c", 9, seq=2**63 - 1)])


def test_parallel_appends_to_one_conversation_get_unique_ordered_seqs(store: MemoryStore) -> None:
    start = threading.Barrier(4)

    def work(t: int) -> None:
        start.wait()
        for i in range(10):
            store.transcript.append(Routing.of("alice"), [msg("c", 100 * t + i)])

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    seqs = [m.seq for m in store.transcript.messages(["alice"])]
    assert sorted(seqs) == list(range(40))
    for t in range(4):  # each thread's turns keep its order
        mine = [m.seq for m in store.transcript.messages(["alice"]) if m.turn_id.startswith(f"c:{t}")]
        assert mine == sorted(mine)


def test_a_speaker_map_records_the_turn_in_every_fed_namespace(store: MemoryStore) -> None:
    routing = Routing.of("conv", {"Ann": "conv/Ann", "Bo": "conv/Bo"})
    assert routing.namespaces() == ["conv", "conv/Ann", "conv/Bo"]
    store.transcript.append(routing, [msg("conv", 1, ts=T0)])
    for ns in routing.namespaces():
        assert [m.turn_id for m in store.transcript.messages([ns])] == ["conv:1"]
    assert len(store.transcript.messages(["conv/Ann", "conv/Bo"])) == 1  # identical turns merge
    store.transcript.append(Routing.of("conv/Ann"), [msg("other", 1, "only Ann's")])
    assert [m.text for m in store.transcript.messages(["conv/Bo"])] == ["conv says 1"]


def test_messages_are_chronological_and_stable(store: MemoryStore) -> None:
    plus2 = timezone(timedelta(hours=2))
    r = Routing.of("ns")
    store.transcript.append(r, [msg("b", 2, seq=2), msg("b", 1, ts=datetime(2024, 1, 1, 10, 0, tzinfo=plus2), seq=1),
                                msg("b", 3, ts=datetime(2024, 1, 1, 11, 0, tzinfo=UTC), seq=3)])
    store.transcript.append(r, [msg("a", 1, ts=datetime(2024, 1, 1, 9, 0, tzinfo=UTC), seq=1), msg("a", 2, seq=2),
                                msg("a", 0, seq=0)])
    store.transcript.append(r, [msg("z", 2, seq=2), msg("z", 1, seq=1)])  # no timestamps at all: last
    order = [m.turn_id for m in store.transcript.messages(["ns"])]
    assert order == ["b:1", "b:2", "a:0", "a:1", "a:2", "b:3", "z:1", "z:2"]


# ---- formation status and claims ------------------------------------------------------------------


def dead_worker() -> str:
    out = subprocess.run([sys.executable, "-c", "from dmem.store.claims import new_worker; print(new_worker())"],
                         capture_output=True, text=True, check=True, timeout=60)
    return out.stdout.strip()


def test_claims_give_each_turn_to_one_worker(store: MemoryStore) -> None:
    routing = Routing.of("conv", {"Ann": "conv/Ann"})
    names, turns = routing.namespaces(), [("conv", "conv:1"), ("conv", "conv:2")]
    store.transcript.append(routing, [msg("conv", 1), msg("conv", 2)])
    me, other = new_worker(), new_worker()
    assert store.transcript.claim(names, turns, me, 60).claimed == turns
    assert store.transcript.claim(names, turns, other, 60).held == turns
    assert store.transcript.holds(names, turns, me) and not store.transcript.holds(names, turns, other)
    store.transcript.mark_pending(names, turns[1:], "model timed out", worker=other)  # not other's: no effect
    assert store.transcript.pending("conv") == []
    store.transcript.mark_pending(names, turns[1:], "model timed out", worker=me)
    store.transcript.mark_processed(names, turns[:1])
    assert store.transcript.is_processed("conv/Ann", "conv", "conv:1")
    assert [(m.turn_id, why) for m, why in store.transcript.pending("conv/Ann")] == [("conv:2", "model timed out")]
    [left] = store.transcript.unformed("conv/Ann")
    assert (left.status, left.reason, left.routing) == ("pending", "model timed out", routing)
    assert store.transcript.claim(names, turns, other, 60).done == turns[:1]
    store.transcript.release(names, turns, other)
    assert store.transcript.claim(names, turns, me, 60).claimed == turns[1:]


def test_a_dead_or_expired_claim_is_taken_over(store: MemoryStore) -> None:
    names, turns = ["alice"], [("c", "c:1")]
    store.transcript.append(Routing.of("alice"), [msg("c", 1)])
    assert store.transcript.claim(names, turns, dead_worker(), 3600).claimed == turns
    me = new_worker()
    assert store.transcript.claim(names, turns, me, 0.0).claimed == turns  # its process is gone
    assert store.transcript.claim(names, turns, new_worker(), 60).claimed == turns  # my lease ran out
    assert not store.transcript.holds(names, turns, me)
