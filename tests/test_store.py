"""The local store beyond the contract: SQLite rows, FAISS snapshots, persistence, crash safety, modes.

Backend-independent behaviour is in test_store_contract.py; several processes in test_store_processes.py.
"""

from __future__ import annotations

import logging
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from dmem.errors import StoreError
from dmem.state.schemas import Message, Operation
from dmem.store import LocalStore, Routing, StoreInfo, open_store
from dmem.store.local.snapshots import LEGACY_SNAPSHOT_FILE, SNAPSHOT_DIR, snapshot_path
from dmem.store.local.sqlite import DB_FILE
from dmem.store.local.store import open_handles
from tests.test_store_contract import DIM, axis, ids, rec, vec

ROOT = Path(__file__).resolve().parents[1]


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

def msg(conv: str, n: int) -> Message:
    return Message(conversation_id=conv, turn_id=f"{conv}:{n}", speaker="Ann", text=f"{conv} says {n}")


# ---- persistence and SQLite rows --------------------------------------------------------------


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


def test_delete_is_soft_in_sqlite(store: LocalStore, store_dir: Path) -> None:
    store.vectors.add(rec("d", ns="solo", text="old text"), axis(0))
    assert store.vectors.delete("solo", "d") is not None
    assert raw(store_dir, "SELECT deleted, text FROM memories WHERE id = 'd'") == [(1, "old text")]
    assert store.vectors.namespaces() == [] and store.vectors.index_size("solo") == 0


def test_nested_transactions_join_the_outer_one(store: LocalStore, store_dir: Path) -> None:
    with store.transaction():
        store.vectors.add(rec("o1"), axis(0))
        with store.transaction():
            store.vectors.add(rec("i1"), axis(1))
        # not visible to another connection until the outer transaction ends
        assert raw(store_dir, "SELECT count(*) FROM memories") == [(0,)]
    assert raw(store_dir, "SELECT count(*) FROM memories") == [(2,)]


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
        store.history.append("alice", "a", Operation.ADD, None, "memory a", "kept")
    assert store.vectors.get("alice", "b") is None and store.vectors.get("alice", "boom") is None
    assert store.vectors.get("alice", "a") == rec("a") and len(store.history.entries("alice")) == 1
    top = store.vectors.search(["alice"], axis(0), 5)
    assert ids(top) == ["a"] and top[0].score == pytest.approx(1.0)
    assert store.vectors.count() == 1 == store.vectors.index_size()


def test_version_bumps_once_per_committed_memory_write_and_stamps_rows(store: LocalStore, store_dir: Path) -> None:
    v0 = store.version()
    with store.transaction():
        store.vectors.add(rec("a"), axis(0))
        store.vectors.add(rec("b"), axis(1))
    assert store.version() == v0 + 1
    store.transcript.append(Routing.of("alice"), [Message(turn_id="t", speaker="u", text="hi")])
    store.history.append("alice", "a", Operation.NOOP, None, None, "dup")
    assert store.version() == v0 + 1
    store.vectors.delete("alice", "a")
    assert store.version() == v0 + 2
    assert raw(store_dir, "SELECT id, rev, deleted FROM memories ORDER BY id") == [("a", v0 + 2, 1), ("b", v0 + 1, 0)]


def test_turn_status_survives_reopen(store_dir: Path) -> None:
    routing = Routing.of("ns")
    turns = [("c", f"c:{i}") for i in range(1, 4)]
    with open_store(store_dir, dim=DIM) as s:
        s.transcript.append(routing, [msg("c", i) for i in range(1, 4)])
        s.transcript.mark_pending(["ns"], turns[2:], "model timed out")
        s.transcript.mark_processed(["ns"], turns[:1])
    with open_store(store_dir, dim=DIM) as s:
        assert [(m.turn_id, why) for m, why in s.transcript.pending("ns")] == [("c:3", "model timed out")]
        assert [(t.message.turn_id, t.status) for t in s.transcript.unformed("ns")] == [("c:2", "new"),
                                                                                        ("c:3", "pending")]
        assert s.transcript.is_processed("ns", "c", "c:1") and s.info().pending_turns == 1


def test_info_counts_everything(store: LocalStore) -> None:
    fill(store, 7)
    store.vectors.delete("ns0", "m0")
    store.history.append("ns1", "m1", Operation.NOOP, None, None, "r")
    store.transcript.append(Routing.of("ns0"), [msg("c", 1), msg("c", 2)])
    store.transcript.mark_pending(["ns0"], [("c", "c:2")], "x")
    info = store.info()
    assert isinstance(info, StoreInfo)
    assert info.memories == {"ns0": 2, "ns1": 2, "ns2": 2} and info.messages == 2
    assert info.history_rows == 1 and info.pending_turns == 1 and info.extra["dim"] == DIM
    assert info.extra["schema_version"] == 3


def test_export_and_import_round_trip_between_stores(store: LocalStore, tmp_path: Path) -> None:
    fill(store, 6)
    records = store.export_records("ns1")
    assert [r.id for r in records] == ["m1", "m4"]
    vectors = [store.vectors.vector("ns1", r.id) or [] for r in records]
    with open_store(tmp_path / "copy", dim=DIM) as other:
        assert other.import_records("ns1", records, vectors) == 2
        assert other.export_records("ns1") == records
        assert ids(other.vectors.search(["ns1"], vec(4), 1)) == ["m4"]
        changed = records[0].model_copy(update={"text": "changed"})
        assert other.import_records("ns1", [changed], [vectors[0]]) == 1
        assert [e.operation for e in other.history.for_memory("ns1", changed.id)] == [Operation.ADD, Operation.UPDATE]
        other.vectors.delete("ns1", "m4")
        assert other.import_records("ns1", records[1:], vectors[1:]) == 0  # the deletion wins
        with pytest.raises(StoreError, match="pair them up"):
            other.import_records("ns1", records, vectors[:1])


def test_store_files_are_private(tmp_path: Path) -> None:
    store_dir = tmp_path / "fresh" / "store"
    with open_store(store_dir, dim=DIM) as s:
        s.vectors.search(["alice"], axis(0), 1)  # loads alice's index, so closing saves its snapshot
        s.vectors.add(rec("a"), axis(0))
        s.transcript.append(Routing.of("alice"), [msg("c", 1)])
    assert stat.S_IMODE(store_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((store_dir / SNAPSHOT_DIR).stat().st_mode) == 0o700
    files = [p for p in store_dir.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {DB_FILE, snapshot_path(store_dir, "alice").name}
    assert {p.name: oct(stat.S_IMODE(p.stat().st_mode)) for p in files} == {p.name: "0o600" for p in files}


def test_existing_store_files_are_made_private(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM) as s:
        s.vectors.add(rec("a"), axis(0))
    os.chmod(store_dir / DB_FILE, 0o644)
    with open_store(store_dir, dim=DIM):
        assert stat.S_IMODE((store_dir / DB_FILE).stat().st_mode) == 0o600


# ---- handles -------------------------------------------------------------------------------------------


def test_handles_on_one_directory_share_one_open_store(store_dir: Path) -> None:
    first = open_store(store_dir, dim=DIM)
    second = open_store(str(store_dir) + "/", dim=None)
    assert first._core is second._core and open_handles() == {str(store_dir.resolve()): 2}
    first.vectors.add(rec("a"), axis(0))
    assert second.vectors.get("alice", "a") is not None
    first.close()
    with pytest.raises(StoreError, match="closed"):
        first.vectors.get("alice", "a")
    assert second.vectors.count() == 1 and not second.closed
    second.close()
    assert open_handles() == {} and second.closed


def test_lock_free_handles_close_cleanly(store_dir: Path) -> None:
    s = open_store(store_dir, dim=DIM)
    s.close()
    s.close()  # idempotent
    assert s.closed
    with pytest.raises(StoreError, match="closed"):
        s.vectors.get("alice", "x")
    with open_store(store_dir, dim=DIM, lock_timeout=0.1) as again:
        assert again.vectors.count() == 0


def test_read_only_handle_refuses_writes_and_sees_the_writer(store: LocalStore, store_dir: Path) -> None:
    store.vectors.add(rec("a"), axis(0))
    store.transcript.append(Routing.of("alice"), [msg("c", 1)])
    with open_store(store_dir, dim=DIM, read_only=True) as ro:
        assert ids(ro.vectors.search(["alice"], axis(0), 3)) == ["a"] and ro.read_only
        assert [m.turn_id for m in ro.transcript.messages(["alice"])] == ["c:1"]
        for write in (
            lambda: ro.vectors.add(rec("b"), axis(1)),
            lambda: ro.vectors.delete("alice", "a"),
            lambda: ro.history.append("alice", "a", Operation.NOOP, None, None, "r"),
            lambda: ro.transcript.append(Routing.of("alice"), [msg("c", 2)]),
            lambda: ro.transcript.mark_processed(["alice"], [("c", "c:1")]),
            ro.transaction().__enter__,
        ):
            with pytest.raises(StoreError, match="read-only"):
                write()
        store.vectors.add(rec("b"), axis(1))  # the writer carries on; the reader catches up
        assert ids(ro.vectors.search(["alice"], axis(1), 1)) == ["b"]
    assert store.vectors.count() == 2


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
    assert open_handles() == {}


def test_store_refuses_another_embedding_model(tmp_path: Path) -> None:
    with open_store(tmp_path / "s", embedding="hash:384"):
        pass
    with pytest.raises(StoreError, match="built with embedding model 'hash:384'"):
        open_store(tmp_path / "s", embedding="local:all-MiniLM-L6-v2")
    with open_store(tmp_path / "s", embedding="hash:384") as store:
        assert store.dim == 384


def test_a_full_disk_is_one_store_error_and_keeps_the_store_whole(store: LocalStore, store_dir: Path) -> None:
    store.vectors.add(rec("before"), axis(0))
    pages = int(raw(store_dir, "PRAGMA page_count")[0][0])
    store._core.db.conn.execute(f"PRAGMA max_page_count = {pages + 1}")  # what SQLITE_FULL looks like
    big = "x" * 20000
    with pytest.raises(StoreError, match="disk is full") as caught, store.transaction():
        for i in range(20):
            store.vectors.add(rec(f"big{i}", text=big), vec(i))
    assert "\n" not in str(caught.value) and not isinstance(caught.value, sqlite3.Error)
    assert store.vectors.count() == 1 and ids(store.vectors.search(["alice"], axis(0), 5)) == ["before"]
    store._core.db.conn.execute("PRAGMA max_page_count = 1073741823")
    store.vectors.add(rec("after"), axis(1))
    assert store.vectors.count() == 2


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
        search_table(s)  # loads every namespace, which saves its snapshot
    snapshot = snapshot_path(store_dir, "ns0")
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
        assert search_table(s) == expected  # the first search loads the namespaces
        if damage == "stale":  # an older snapshot is caught up from the rows written since
            assert "caught up with 1 newer rows" in caplog.text and "rebuilding" not in caplog.text
        else:
            assert "rebuilding vector index of namespace 'ns0'" in caplog.text
        assert s.vectors.index_size() == s.vectors.count()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="dmem.store"), open_store(store_dir, dim=DIM) as s:
        assert search_table(s) == expected
        assert "rebuilding" not in caplog.text  # the rebuild saved a fresh snapshot


def test_leftover_snapshot_temp_files_and_the_legacy_snapshot_are_removed(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM) as s:
        fill(s, 3)
        search_table(s)
    leftovers = [store_dir / SNAPSHOT_DIR / f".{snapshot_path(store_dir, 'ns0').stem}.99999.tmp",
                 store_dir / ".faiss.snapshot.99998.tmp", store_dir / LEGACY_SNAPSHOT_FILE]
    for leftover in leftovers:
        leftover.write_bytes(b"half written")
    with open_store(store_dir, dim=DIM) as s:
        assert s.vectors.count() == 3 and len(s.vectors.search(["ns0"], vec(1), 5)) == 1
    assert not any(leftover.exists() for leftover in leftovers)


# ---- crash safety ----------------------------------------------------------------------------------------


def check_consistent(store_dir: Path) -> int:
    """Open after a crash; every live memory is searchable and matches its history exactly."""
    with open_store(store_dir, dim=DIM) as s:
        rows = raw(store_dir, "SELECT id, namespace, text, deleted, vector FROM memories")
        live = [r for r in rows if r[3] == 0]
        assert s.vectors.count() == len(live) == s.vectors.index_size()
        for mid, ns, text, _, blob in live:
            top = s.vectors.search([ns], np.frombuffer(blob, dtype="<f4").tolist(), 1)[0]
            assert top.record.id == mid and top.score == pytest.approx(1.0, abs=1e-5)
            assert top.record.text == text
        for mid, ns, text, deleted, _ in rows:  # replay the history: it must end in the stored state
            ops = s.history.for_memory(ns, mid)
            assert ops and ops[0].operation == Operation.ADD
            final = ops[-1]
            assert (final.operation == Operation.DELETE) == bool(deleted)
            assert (final.old_text if deleted else final.new_text) == text
        history_ids = {e.memory_id for ns in ("ns0", "ns1") for e in s.history.entries(ns)}
        assert history_ids == {r[0] for r in rows}
        return len(live)


@pytest.mark.slow
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


