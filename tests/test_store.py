"""Tests of the default store: SQLite + per-namespace FAISS, history, transcript, locking, crash safety."""

from __future__ import annotations

import logging
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from dmem.errors import StoreError, StoreLockedError
from dmem.state.schemas import (
    AdmissionDecision,
    Category,
    MemoryRecord,
    Message,
    Operation,
    Provenance,
    Scope,
)
from dmem.store import LocalStore, SearchFilter, StoreInfo, open_store
from dmem.store.sqlite import DB_FILE
from dmem.store.vectors import SNAPSHOT_FILE

DIM = 8
ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def vec(seed: int) -> list[float]:
    return np.random.default_rng(seed).normal(size=DIM).tolist()


def axis(i: int, scale: float = 1.0) -> list[float]:
    v = [0.0] * DIM
    v[i] = scale
    return v


def rec(
    mid: str, ns: str = "alice", text: str | None = None, minutes: int = 0, **fields: object
) -> MemoryRecord:
    when = T0 + timedelta(minutes=minutes)
    data: dict[str, object] = {"id": mid, "namespace": ns, "text": text or f"memory {mid}",
                               "created_at": when, "updated_at": when}
    data.update(fields)
    return MemoryRecord.model_validate(data)


def ids(hits: list) -> list[str]:
    return [h.record.id for h in hits]


def raw(store_dir: Path, sql: str, params: tuple = ()) -> list[tuple]:
    conn = sqlite3.connect(store_dir / DB_FILE)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    return tmp_path / "store"


@pytest.fixture
def store(store_dir: Path) -> Iterator[LocalStore]:
    s = open_store(store_dir, dim=DIM)
    yield s
    s.close()


def fill(store: LocalStore, n: int = 30) -> None:
    with store.transaction():
        for i in range(n):
            store.vectors.add(rec(f"m{i}", ns=f"ns{i % 3}", minutes=i), vec(i))


# ---- records and search ------------------------------------------------------------------------


def test_record_round_trip_keeps_every_field(store_dir: Path) -> None:
    full = MemoryRecord(
        id="r1", namespace="alice", text="Alice prefers green tea — très chaud 🍵",
        categories=[Category.PREFERENCE, Category.EVENT], provenance=Provenance.INFERRED,
        scope=Scope.USER_PII, source_turn_ids=["D1:3", "D1:4"], speaker="Alice",
        event_time=datetime(2023, 5, 7, 18, 30, tzinfo=timezone(timedelta(hours=2))),
        created_at=datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
        updated_at=datetime(2024, 1, 3, 4, 5, 6),  # naive stays naive
        language="fr", conversation_id="conv-9", enrichment={"wiki": "Green tea is...", "k": ""},
    )
    with open_store(store_dir, dim=DIM) as s:
        s.vectors.add(full, vec(1))
        assert s.vectors.get("r1") == full
        assert s.vectors.search(["alice"], vec(1), 1)[0].record == full
    with open_store(store_dir, dim=DIM) as s:
        got = s.vectors.get("r1")
        assert got == full and s.vectors.list("alice") == [full]
        assert got is not None and got.event_time is not None
        assert got.event_time.utcoffset() == timedelta(hours=2)
        assert got.updated_at.tzinfo is None and got.categories == [Category.PREFERENCE, Category.EVENT]


def test_reopen_restores_identical_search_results(store_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    queries = [vec(1000 + q) for q in range(5)]
    with open_store(store_dir, dim=DIM) as s:
        fill(s)
        before = [[(h.record.id, h.score) for h in s.vectors.search(["ns0", "ns1"], q, 7)] for q in queries]
    with caplog.at_level(logging.INFO, logger="dmem.store"), open_store(store_dir, dim=DIM) as s:
        after = [[(h.record.id, h.score) for h in s.vectors.search(["ns0", "ns1"], q, 7)] for q in queries]
        assert s.vectors.count() == 30
    assert "rebuilding" not in caplog.text  # loaded from the snapshot
    assert after == before and all(len(r) == 7 for r in after)


def test_search_orders_by_cosine_and_reports_true_cosine(store: LocalStore) -> None:
    store.vectors.add(rec("same"), axis(0, 5.0))
    store.vectors.add(rec("diag"), [1.0, 1.0] + [0.0] * (DIM - 2))
    store.vectors.add(rec("far"), [1.0, -2.0] + [0.0] * (DIM - 2))
    store.vectors.add(rec("ortho"), axis(1))
    store.vectors.add(rec("opposite"), axis(0, -3.0))
    hits = store.vectors.search(["alice"], axis(0, 0.1), 10)
    assert ids(hits) == ["same", "diag", "far", "ortho", "opposite"]
    expected = [1.0, 1 / np.sqrt(2), 1 / np.sqrt(5), 0.0, -1.0]
    assert [h.score for h in hits] == pytest.approx(expected, abs=1e-6)
    assert ids(store.vectors.search(["alice"], axis(0), 2)) == ["same", "diag"]
    assert store.vectors.search(["alice"], axis(0), 0) == []
    assert store.vectors.search([], axis(0), 3) == []


def test_namespace_isolation_even_when_other_namespace_is_closest(store: LocalStore) -> None:
    store.vectors.add(rec("a1", ns="A"), axis(1))
    store.vectors.add(rec("a2", ns="A"), axis(2))
    store.vectors.add(rec("b1", ns="B"), axis(0))  # identical to the query
    hits = store.vectors.search(["A"], axis(0), 50)
    assert sorted(ids(hits)) == ["a1", "a2"] and all(h.record.namespace == "A" for h in hits)
    assert store.vectors.search(["A"], axis(0), 50, where=SearchFilter(speaker=None)) == hits
    assert ids(store.vectors.search(["A", "B"], axis(0), 1)) == ["b1"]
    assert store.vectors.search(["C"], axis(0), 5) == []
    assert store.vectors.namespaces() == ["A", "B"]
    assert [r.id for r in store.vectors.list("B")] == ["b1"]


FILTER_CASES = {
    "categories": (SearchFilter(categories=frozenset({"user_rule"})), {"categories": [Category.USER_RULE]}),
    "scopes": (SearchFilter(scopes=frozenset({"INTERNAL"})), {"scope": Scope.INTERNAL}),
    "provenance": (SearchFilter(provenance="inferred"), {"provenance": Provenance.INFERRED}),
    "speaker": (SearchFilter(speaker="BOB"), {"speaker": "Bob"}),
    "conversation_id": (SearchFilter(conversation_id="c7"), {"conversation_id": "c7"}),
}


@pytest.mark.parametrize("name", sorted(FILTER_CASES))
def test_each_filter_field_returns_k_matches_beyond_the_nearest(store: LocalStore, name: str) -> None:
    where, fields = FILTER_CASES[name]
    base = {"categories": [Category.EVENT], "speaker": "Alice", "conversation_id": "c1"}
    with store.transaction():
        for i in range(12):  # twelve non-matching records, all closer to the query
            store.vectors.add(rec(f"near{i}", **base), [1.0, 0.01 * i] + [0.0] * (DIM - 2))
        for i in range(3):
            store.vectors.add(rec(f"match{i}", **{**base, **fields}), [0.2, 1.0 + i] + [0.0] * (DIM - 2))
    hits = store.vectors.search(["alice"], axis(0), 2, where=where)
    assert ids(hits) == ["match0", "match1"]
    assert all(where.matches(h.record) for h in hits)
    assert len(store.vectors.search(["alice"], axis(0), 10, where=where)) == 3


def test_min_score_drops_weaker_hits(store: LocalStore) -> None:
    store.vectors.add(rec("x"), axis(0))
    store.vectors.add(rec("y"), [1.0, 1.0] + [0.0] * (DIM - 2))
    store.vectors.add(rec("z"), axis(1))
    assert ids(store.vectors.search(["alice"], axis(0), 5, min_score=0.5)) == ["x", "y"]
    assert ids(store.vectors.search(["alice"], axis(0), 5, min_score=0.99)) == ["x"]
    where = SearchFilter(speaker="nobody")
    assert store.vectors.search(["alice"], axis(0), 5, min_score=0.5, where=where) == []


def test_update_changes_text_and_vector(store: LocalStore) -> None:
    store.vectors.add(rec("u"), axis(0))
    store.vectors.add(rec("other"), axis(3))
    new = rec("u", text="moved", categories=[Category.PERSONA])
    store.vectors.update(new, axis(1))
    assert store.vectors.get("u") == new
    top = store.vectors.search(["alice"], axis(1), 1)[0]
    assert top.record == new and top.score == pytest.approx(1.0)
    assert store.vectors.search(["alice"], axis(0), 5, min_score=0.5) == []
    store.vectors.update(rec("u", text="text only"), None)  # keeps the vector
    assert store.vectors.search(["alice"], axis(1), 1)[0].record.text == "text only"
    assert store.vectors.vector("u") == pytest.approx(axis(1))
    with pytest.raises(StoreError, match="does not exist"):
        store.vectors.update(rec("ghost"), axis(0))
    with pytest.raises(StoreError, match="already exists"):
        store.vectors.add(rec("u"), axis(0))


def test_delete_hides_the_record_but_history_keeps_its_text(store: LocalStore, store_dir: Path) -> None:
    store.vectors.add(rec("d", ns="solo", text="old text"), axis(0))
    with store.transaction():
        removed = store.vectors.delete("d")
        assert removed is not None
        store.history.append("d", "solo", Operation.DELETE, removed.text, None, "user asked")
    assert removed.text == "old text"
    assert store.vectors.get("d") is None and store.vectors.list("solo") == []
    assert store.vectors.search(["solo"], axis(0), 5) == [] and store.vectors.namespaces() == []
    assert store.vectors.count() == 0 and store.vectors.delete("d") is None
    assert [e.old_text for e in store.history.for_memory("d")] == ["old text"]
    assert raw(store_dir, "SELECT deleted, text FROM memories WHERE id = 'd'") == [(1, "old text")]
    with pytest.raises(StoreError, match="already exists"):
        store.vectors.add(rec("d", ns="solo"), axis(0))


def test_rejects_bad_vectors(store: LocalStore) -> None:
    with pytest.raises(StoreError, match="dimensions"):
        store.vectors.add(rec("a"), [1.0, 0.0])
    with pytest.raises(StoreError, match="zeros"):
        store.vectors.add(rec("a"), [0.0] * DIM)
    with pytest.raises(StoreError, match="NaN"):
        store.vectors.search(["alice"], [float("nan")] * DIM, 3)
    assert store.vectors.count() == 0


# ---- transactions and history --------------------------------------------------------------------


def test_history_row_for_every_write_in_one_transaction(store: LocalStore) -> None:
    at = datetime(2024, 2, 2, 9, 0, tzinfo=timezone(timedelta(hours=-5)))
    with store.transaction():
        store.vectors.add(rec("h"), axis(0))
        store.history.append("h", "alice", Operation.ADD, None, "memory h", "new fact", at=at)
        store.vectors.update(rec("h", text="v2"), None)
        store.history.append("h", "alice", Operation.UPDATE, "memory h", "v2", "refined")
        store.vectors.add(rec("g", ns="bob"), axis(1))
        store.history.append("g", "bob", Operation.ADD, None, "memory g", "new fact")
        store.vectors.delete("h")
        store.history.append("h", "alice", Operation.DELETE, "v2", None, "contradicted")
    rows = store.history.for_memory("h")
    assert [(e.operation, e.old_text, e.new_text) for e in rows] == [
        (Operation.ADD, None, "memory h"),
        (Operation.UPDATE, "memory h", "v2"),
        (Operation.DELETE, "v2", None),
    ]
    assert rows[0].at == at and rows[1].at.tzinfo is not None
    assert [e.memory_id for e in store.history.entries()] == ["h", "h", "g", "h"]
    assert [e.memory_id for e in store.history.entries("bob")] == ["g"]
    assert not hasattr(store.history, "delete") and not hasattr(store.history, "update")
    yes = AdmissionDecision(turn_id="t1", speaker="Alice", utterance="I love tea", admitted=True, reason="x")
    no = AdmissionDecision(turn_id="t2", speaker="Bob", utterance="ok", admitted=False, reason="filler")
    store.history.record_admission(yes, "c1", "alice")
    store.history.record_admission(no, "c1", "bob")
    assert store.history.admissions() == [yes, no] and store.history.admissions("bob") == [no]


def test_rollback_leaves_neither_memory_nor_history(store: LocalStore, store_dir: Path) -> None:
    store.vectors.add(rec("keep"), axis(0))
    store.vectors.add(rec("gone"), axis(2))
    version = store.version()
    with pytest.raises(RuntimeError), store.transaction():
        store.vectors.add(rec("new"), axis(1))
        store.history.append("new", "alice", Operation.ADD, None, "memory new", "r")
        store.vectors.update(rec("keep", text="changed"), axis(3))
        store.vectors.delete("gone")
        raise RuntimeError("model call failed")
    assert store.vectors.get("new") is None and store.history.entries() == []
    assert store.vectors.get("keep") == rec("keep") and store.vectors.get("gone") == rec("gone")
    assert ids(store.vectors.search(["alice"], axis(1), 5, min_score=0.5)) == []
    assert store.vectors.search(["alice"], axis(0), 1)[0].score == pytest.approx(1.0)
    assert ids(store.vectors.search(["alice"], axis(2), 1)) == ["gone"]
    assert store.info().extra["indexed_vectors"] == 2 and store.version() == version
    assert raw(store_dir, "SELECT count(*) FROM history") == [(0,)]


def test_nested_transactions_join_the_outer_one(store: LocalStore, store_dir: Path) -> None:
    with store.transaction():
        store.vectors.add(rec("o1"), axis(0))
        with store.transaction():
            store.vectors.add(rec("i1"), axis(1))
        # not visible to another connection until the outer transaction ends
        assert raw(store_dir, "SELECT count(*) FROM memories") == [(0,)]
    assert raw(store_dir, "SELECT count(*) FROM memories") == [(2,)]
    with pytest.raises(ValueError), store.transaction():
        store.vectors.add(rec("o2"), axis(2))
        with store.transaction():
            store.vectors.add(rec("i2"), axis(3))
        raise ValueError("outer fails after inner finished")
    assert store.vectors.get("o2") is None and store.vectors.get("i2") is None
    assert store.vectors.count() == 2


def test_failed_nested_scope_is_undone_while_the_outer_one_commits(
    store: LocalStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_put = store._vectors._faiss.put

    def flaky_put(memory_id: str, namespace: str, unit: np.ndarray) -> None:
        if memory_id == "boom":
            raise MemoryError("faiss ran out of memory")
        real_put(memory_id, namespace, unit)

    monkeypatch.setattr(store._vectors._faiss, "put", flaky_put)
    with store.transaction():
        store.vectors.add(rec("a"), axis(0))
        with pytest.raises(RuntimeError), store.transaction():
            store.vectors.add(rec("b"), axis(1))
            store.vectors.update(rec("a", text="changed"), axis(2))
            raise RuntimeError("inner step failed")
        with pytest.raises(MemoryError):  # fails after its SQL insert: the row must not survive
            store.vectors.add(rec("boom"), axis(3))
        store.history.append("a", "alice", Operation.ADD, None, "memory a", "kept")
    assert store.vectors.get("b") is None and store.vectors.get("boom") is None
    assert store.vectors.get("a") == rec("a") and len(store.history.entries()) == 1
    top = store.vectors.search(["alice"], axis(0), 5)
    assert ids(top) == ["a"] and top[0].score == pytest.approx(1.0)
    assert store.vectors.count() == 1 == store.info().extra["indexed_vectors"]


def test_version_bumps_once_per_committed_memory_write(store: LocalStore) -> None:
    v0 = store.version()
    with store.transaction():
        store.vectors.add(rec("a"), axis(0))
        store.vectors.add(rec("b"), axis(1))
    assert store.version() == v0 + 1
    store.transcript.append([Message(turn_id="t", speaker="u", text="hi")], ["alice"])
    store.history.append("a", "alice", Operation.NOOP, None, None, "dup")
    assert store.version() == v0 + 1
    store.vectors.delete("a")
    assert store.version() == v0 + 2


def test_concurrent_threads_write_and_search(store: LocalStore) -> None:
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(15):
                with store.transaction():
                    store.vectors.add(rec(f"t{t}-{i}", ns=f"ns{t % 2}"), vec(100 * t + i))
                    store.history.append(f"t{t}-{i}", f"ns{t % 2}", Operation.ADD, None, "x", "thread")
                store.vectors.search(["ns0", "ns1"], vec(i), 3)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert store.vectors.count() == 60 and store.info().history_rows == 60
    assert store.info().extra["indexed_vectors"] == 60


# ---- transcript ----------------------------------------------------------------------------------


def msg(conv: str, seq: int, ts: datetime | None = None, **kw: object) -> Message:
    return Message(conversation_id=conv, turn_id=f"{conv}:{seq}", speaker="Alice", text=f"{conv} says {seq}",
                   timestamp=ts, seq=seq, **kw)


def test_transcript_append_is_idempotent_and_links_namespaces(store: LocalStore) -> None:
    first = [msg("c1", 1, T0, image_caption="a cat"), msg("c1", 2, T0)]
    assert store.transcript.append(first, ["alice", "bob"]) == first
    assert store.transcript.append([*first, msg("c1", 3, T0)], ["alice"]) == [msg("c1", 3, T0)]
    assert store.transcript.append([msg("c2", 1)], ["carol"]) == [msg("c2", 1)]
    assert store.transcript.count() == 4
    assert [m.turn_id for m in store.transcript.messages(["bob"])] == ["c1:1", "c1:2", "c1:3"]
    assert [m.conversation_id for m in store.transcript.messages(["carol"])] == ["c2"]
    assert len(store.transcript.messages(["alice", "carol"])) == 4
    assert store.transcript.messages(["nobody"]) == [] and store.transcript.messages([]) == []
    assert store.transcript.messages(["alice"])[0] == first[0]  # caption and timestamp survive
    store.transcript.append([msg("c2", 1)], ["alice"])  # an old message still links its conversation
    assert store.transcript.conversations("alice") == ["c1", "c2"]


def test_transcript_messages_are_chronological_and_stable(store: LocalStore) -> None:
    plus2 = timezone(timedelta(hours=2))
    store.transcript.append([
        msg("b", 2, None), msg("b", 1, datetime(2024, 1, 1, 10, 0, tzinfo=plus2)),  # = 08:00 UTC
        msg("b", 3, datetime(2024, 1, 1, 11, 0, tzinfo=UTC)),
    ], ["ns"])
    store.transcript.append([
        msg("a", 1, datetime(2024, 1, 1, 9, 0, tzinfo=UTC)), msg("a", 2, None), msg("a", 0, None),
    ], ["ns"])
    store.transcript.append([msg("z", 2), msg("z", 1)], ["ns"])  # no timestamps at all: last
    order = [m.turn_id for m in store.transcript.messages(["ns"])]
    assert order == ["b:1", "b:2", "a:0", "a:1", "a:2", "b:3", "z:1", "z:2"]
    assert [m.turn_id for m in store.transcript.messages(["ns"])] == order


def test_transcript_before_returns_the_last_messages_in_order(store: LocalStore) -> None:
    store.transcript.append([msg("c", i) for i in (5, 1, 3, 2, 4)] + [msg("d", 1)], ["ns"])
    assert [m.seq for m in store.transcript.before("c", 5, 2)] == [3, 4]
    assert [m.seq for m in store.transcript.before("c", 3, 10)] == [1, 2]
    assert store.transcript.before("c", 1, 5) == [] and store.transcript.before("c", 5, 0) == []


def test_transcript_pending_and_processed_flags(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM) as s:
        s.transcript.append([msg("c", i) for i in range(1, 5)] + [msg("d", 1)], ["ns"])
        s.transcript.mark_pending("c", ["c:3", "c:1"], "model timed out")
        s.transcript.mark_pending("d", ["d:1"], "bad json")
        assert [(m.turn_id, why) for m, why in s.transcript.pending()] == [
            ("c:1", "model timed out"), ("c:3", "model timed out"), ("d:1", "bad json")]
        s.transcript.mark_processed("c", ["c:1", "c:2"])
        s.transcript.clear_pending("c", ["c:3", "c:4"])
        assert s.transcript.is_processed("c", "c:1") and s.transcript.is_processed("c", "c:2")
        assert not s.transcript.is_processed("c", "c:3") and not s.transcript.is_processed("c", "c:404")
    with open_store(store_dir, dim=DIM) as s:
        assert [m.turn_id for m, _ in s.transcript.pending()] == ["d:1"]
        assert s.transcript.pending("c") == [] and s.info().pending_turns == 1
        assert s.transcript.is_processed("c", "c:1")


# ---- info, export, import --------------------------------------------------------------------------


def test_info_counts_everything(store: LocalStore) -> None:
    fill(store, 7)
    store.vectors.delete("m0")
    store.history.append("m1", "ns1", Operation.NOOP, None, None, "r")
    store.transcript.append([msg("c", 1), msg("c", 2)], ["ns0"])
    store.transcript.mark_pending("c", ["c:2"], "x")
    info = store.info()
    assert isinstance(info, StoreInfo)
    assert info.memories == {"ns0": 2, "ns1": 2, "ns2": 2} and info.messages == 2
    assert info.history_rows == 1 and info.pending_turns == 1 and info.extra["dim"] == DIM


def test_export_and_import_round_trip(store: LocalStore, tmp_path: Path) -> None:
    fill(store, 6)
    records = store.export_records()
    assert len(records) == 6 and [r.id for r in store.export_records("ns1")] == ["m1", "m4"]
    vectors = [store.vectors.vector(r.id) or [] for r in records]
    with open_store(tmp_path / "copy", dim=DIM) as other:
        assert other.import_records(records, vectors) == 6
        assert sorted(other.export_records(), key=lambda r: r.id) == sorted(records, key=lambda r: r.id)
        assert ids(other.vectors.search(["ns0"], vec(3), 1)) == ["m3"]
        changed = records[0].model_copy(update={"text": "changed"})
        assert other.import_records([changed], [vectors[0]]) == 1
        ops = [e.operation for e in other.history.for_memory(changed.id)]
        assert ops == [Operation.ADD, Operation.UPDATE]
        with pytest.raises(StoreError, match="pair them up"):
            other.import_records(records, vectors[:2])


# ---- snapshot persistence ----------------------------------------------------------------------------


def search_table(s: LocalStore) -> list[list[tuple[str, float]]]:
    return [[(h.record.id, round(h.score, 6)) for h in s.vectors.search(["ns0", "ns1", "ns2"], vec(q), 40)]
            for q in (500, 501, 502)]


@pytest.mark.parametrize("damage", ["missing", "corrupt", "stale", "edited_sqlite"])
def test_bad_snapshot_triggers_rebuild_matching_sqlite(
    store_dir: Path, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    with open_store(store_dir, dim=DIM) as s:
        fill(s, 12)
    snapshot = store_dir / SNAPSHOT_FILE
    old_copy = store_dir.parent / "old.npz"
    shutil.copy(snapshot, old_copy)
    with open_store(store_dir, dim=DIM) as s:
        s.vectors.add(rec("late", ns="ns0"), vec(500))
        expected = search_table(s)
    if damage == "missing":
        snapshot.unlink()
    elif damage == "corrupt":
        snapshot.write_bytes(b"PK\x03\x04 not really a zip")
    elif damage == "stale":
        shutil.copy(old_copy, snapshot)
    else:  # SQLite changed behind the snapshot's back, without a version bump
        raw_conn = sqlite3.connect(store_dir / DB_FILE)
        raw_conn.execute("UPDATE memories SET deleted = 1 WHERE id = 'late'")
        raw_conn.commit()
        raw_conn.close()
        expected = [[row for row in table if row[0] != "late"] for table in expected]
    with caplog.at_level(logging.INFO, logger="dmem.store"), open_store(store_dir, dim=DIM) as s:
        assert "rebuilding vector index" in caplog.text
        assert search_table(s) == expected
        assert s.info().extra["indexed_vectors"] == s.vectors.count()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="dmem.store"), open_store(store_dir, dim=DIM) as s:
        assert "rebuilding" not in caplog.text  # the rebuild saved a fresh snapshot
        assert search_table(s) == expected


def test_leftover_snapshot_temp_file_is_removed(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM) as s:
        fill(s, 3)
    leftover = store_dir / ".faiss.snapshot.99999.tmp"
    leftover.write_bytes(b"half written")
    with open_store(store_dir, dim=DIM) as s:
        assert s.vectors.count() == 3
    assert not leftover.exists()


# ---- crash safety ----------------------------------------------------------------------------------------


def check_consistent(store_dir: Path) -> int:
    """Open after a crash; every live memory is searchable and matches its history exactly."""
    with open_store(store_dir, dim=DIM) as s:
        rows = raw(store_dir, "SELECT id, namespace, text, deleted, vector FROM memories")
        live = [r for r in rows if r[3] == 0]
        assert s.vectors.count() == len(live) == s.info().extra["indexed_vectors"]
        for mid, ns, text, _, blob in live:
            top = s.vectors.search([ns], np.frombuffer(blob, dtype="<f4").tolist(), 1)[0]
            assert top.record.id == mid and top.score == pytest.approx(1.0, abs=1e-5)
            assert top.record.text == text
        for mid, _, text, deleted, _ in rows:  # replay the history: it must end in the stored state
            ops = s.history.for_memory(mid)
            assert ops and ops[0].operation == Operation.ADD
            final = ops[-1]
            assert (final.operation == Operation.DELETE) == bool(deleted)
            assert (final.old_text if deleted else final.new_text) == text
        history_ids = {e.memory_id for e in s.history.entries()}
        assert history_ids == {r[0] for r in rows}
        return len(live)


def test_write_killed_midway_leaves_a_consistent_store(store_dir: Path) -> None:
    rng = random.Random(7)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seen = 0
    for run in range(4):
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "store_writer.py"), str(store_dir), f"run{run}", str(DIM)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
        for _ in range(rng.randint(5, 60)):  # let a random number of transactions commit, then kill the next
            assert proc.stdout.readline().strip() == "committed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        live = check_consistent(store_dir)
        assert live > seen  # each run committed more work before dying
        seen = live


# ---- locking, modes, lifecycle -------------------------------------------------------------------------


def test_second_writer_in_another_process_gets_store_locked_error(store: LocalStore, store_dir: Path) -> None:
    code = (
        "import sys\n"
        "from dmem.errors import StoreLockedError\n"
        "from dmem.store import open_store\n"
        "try:\n"
        f"    open_store({str(store_dir)!r}, dim={DIM}, lock_timeout=0.3)\n"
        "except StoreLockedError as exc:\n"
        "    print(exc); sys.exit(3)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=30)
    assert out.returncode == 3, out.stderr
    assert f"pid {os.getpid()}" in out.stdout and "read_only=True" in out.stdout
    with pytest.raises(StoreLockedError, match=f"pid {os.getpid()}"):
        open_store(store_dir, dim=DIM, lock_timeout=0.1)


def test_read_only_open_works_while_locked_and_refuses_writes(store: LocalStore, store_dir: Path) -> None:
    store.vectors.add(rec("a"), axis(0))
    store.transcript.append([msg("c", 1)], ["alice"])
    with open_store(store_dir, dim=DIM, read_only=True) as ro:
        assert ids(ro.vectors.search(["alice"], axis(0), 3)) == ["a"] and ro.read_only
        assert [m.turn_id for m in ro.transcript.messages(["alice"])] == ["c:1"]
        for write in (
            lambda: ro.vectors.add(rec("b"), axis(1)),
            lambda: ro.vectors.delete("a"),
            lambda: ro.history.append("a", "alice", Operation.NOOP, None, None, "r"),
            lambda: ro.transcript.append([msg("c", 2)], ["alice"]),
            lambda: ro.transcript.mark_processed("c", ["c:1"]),
            ro.transaction().__enter__,
        ):
            with pytest.raises(StoreError, match="read-only"):
                write()
        store.vectors.add(rec("b"), axis(1))  # the writer carries on; the reader sees it
        assert ids(ro.vectors.search(["alice"], axis(1), 1)) == ["b"]
    assert store.vectors.count() == 2 and store.vectors.get("a") is not None


def test_lock_is_released_on_close(store_dir: Path) -> None:
    s = open_store(store_dir, dim=DIM)
    s.close()
    s.close()  # idempotent
    assert s.closed
    with pytest.raises(StoreError, match="closed"):
        s.vectors.get("x")
    with open_store(store_dir, dim=DIM, lock_timeout=0.1) as again:
        assert again.vectors.count() == 0


def test_read_only_on_missing_store_fails_without_creating_it(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no store"):
        open_store(tmp_path / "nope", read_only=True)
    assert not (tmp_path / "nope").exists()


def test_dimension_mismatch_names_both(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM):
        pass
    with pytest.raises(StoreError, match=f"holds {DIM}-dimensional.*dim=384"):
        open_store(store_dir, dim=384)
    with open_store(store_dir, dim=None, lock_timeout=0.1) as s:  # adopts the stored dimension
        assert s.dim == DIM


def test_store_refuses_another_embedding_model(tmp_path):
    from dmem.errors import StoreError
    from dmem.store import open_store

    with open_store(tmp_path / "s", embedding="hash:384"):
        pass
    with pytest.raises(StoreError, match="built with embedding model 'hash:384'"):
        open_store(tmp_path / "s", embedding="local:all-MiniLM-L6-v2")
    with open_store(tmp_path / "s", embedding="hash:384") as store:
        assert store.dim == 384
