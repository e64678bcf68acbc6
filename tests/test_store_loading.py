"""The local store loads a namespace's vectors on its first search and drops them beyond its budget.

A process holds only the namespaces it searches; a dropped one comes back identical; writes to a
namespace that is not loaded, or made by another process, are seen when it is searched.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from dmem import Memory
from dmem.errors import ConfigError, StoreError
from dmem.state.schemas import MemoryRecord
from dmem.store import LocalStore, open_store
from dmem.store.local.snapshots import snapshot_path
from tests.holders import say, start

DIM = 8
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
NAMESPACES = ["ns0", "ns1", "ns2", "ns3"]


def vec(seed: int) -> list[float]:
    return np.random.default_rng(seed).normal(size=DIM).tolist()


def rec(mid: str, ns: str, minutes: int = 0) -> MemoryRecord:
    when = T0 + timedelta(minutes=minutes)
    return MemoryRecord(id=mid, namespace=ns, text=f"memory {mid}", created_at=when, updated_at=when)


def loaded(store: LocalStore) -> list[str]:
    return store._vectors.loaded_namespaces()


def table(store: LocalStore, ns: str) -> list[list[tuple[str, float]]]:
    """Top-10 (id, score) lists of one namespace for three fixed queries."""
    return [[(h.record.id, round(h.score, 6)) for h in store.vectors.search([ns], vec(q), 10)] for q in (900, 901, 902)]


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    """A store of 4 namespaces with 10 memories each, written without loading any index."""
    path = tmp_path / "store"
    with open_store(path, dim=DIM) as s, s.transaction():
        for i in range(40):
            s.vectors.add(rec(f"m{i}", NAMESPACES[i % 4], minutes=i), vec(i))
    return path


def test_a_process_loads_only_the_namespaces_it_searches(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM) as s:
        assert loaded(s) == []  # opening loads nothing
        assert len(s.vectors.search(["ns1"], vec(0), 3)) == 3
        assert loaded(s) == ["ns1"] and s._vectors._faiss.size() == 10
        s.vectors.add(rec("new", "ns2"), vec(100))  # writing another namespace does not load it
        s.vectors.delete("ns3", "m3")
        assert loaded(s) == ["ns1"] and s._vectors._faiss.size() == 10
        assert [h.record.id for h in s.vectors.search(["ns2"], vec(100), 1)] == ["new"]
        assert loaded(s) == ["ns1", "ns2"] and s._vectors._faiss.size() == 21


def test_a_dropped_namespace_reloads_with_identical_results(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM, vector_cache=0) as unbounded:
        expected = {ns: table(unbounded, ns) for ns in NAMESPACES}
        assert loaded(unbounded) == NAMESPACES  # no budget: nothing is dropped
    with open_store(store_dir, dim=DIM, vector_cache=20) as s:
        for ns in NAMESPACES:
            assert table(s, ns) == expected[ns]
        assert loaded(s) == ["ns2", "ns3"]  # 20 vectors: the two most recently searched
        assert table(s, "ns0") == expected["ns0"]  # reloaded from its snapshot
        assert loaded(s) == ["ns3", "ns0"]
        assert s.vectors.index_size() == s.vectors.count() == 40  # loads each in turn
        assert len(loaded(s)) == 2


def test_writes_to_loaded_namespaces_stay_within_the_vector_cache(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM, vector_cache=25) as s:
        table(s, "ns0")
        table(s, "ns1")  # 20 vectors: both fit, so no later load comes to check the budget
        for i in range(12):  # 6 new memories in each loaded namespace: 32 vectors without the bound
            s.vectors.add(rec(f"w{i}", NAMESPACES[i % 2], minutes=100 + i), vec(200 + i))
            assert s._vectors._faiss.size() <= 25
        assert loaded(s) == ["ns1"]  # the least recently used was dropped, its snapshot saved
        assert s._vectors._faiss.size() == 16
        assert "w10" in [h.record.id for h in s.vectors.search(["ns0"], vec(210), 1)]  # reloaded with its writes
        assert s.vectors.index_size("ns0") == s.vectors.count("ns0") == 16


@pytest.mark.parametrize("read_only", [False, True])
def test_info_counts_every_namespace_without_loading_one(store_dir: Path, read_only: bool) -> None:
    with open_store(store_dir, dim=DIM) as writer:
        writer.vectors.delete("ns3", "m3")
        writer.vectors.add(rec("extra", "ns4"), vec(99))
    with open_store(store_dir, dim=DIM, read_only=read_only) as s:  # a fresh handle, as an operator's
        info = s.info()
        assert loaded(s) == [] and s._vectors._faiss.size() == 0
        assert info.memories == {"ns0": 10, "ns1": 10, "ns2": 10, "ns3": 9, "ns4": 1}
        assert (info.extra["loaded_namespaces"], info.extra["loaded_vectors"]) == (0, 0)
        table(s, "ns1")
        table(s, "ns3")
        info = s.info()
        assert loaded(s) == ["ns1", "ns3"]
        assert (info.extra["loaded_namespaces"], info.extra["loaded_vectors"]) == (2, 19)


def test_writes_while_a_namespace_is_dropped_are_seen_when_it_reloads(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM, vector_cache=10) as s:
        before = table(s, "ns0")
        table(s, "ns1")
        assert loaded(s) == ["ns1"]
        with s.transaction():
            s.vectors.add(rec("late", "ns0"), vec(900))
            s.vectors.update(rec("m4", "ns0"), vec(901))
            s.vectors.delete("ns0", "m8")
        after = table(s, "ns0")
        assert after != before and after[0][0][0] == "late" and after[1][0][0] == "m4"
        assert all(mid != "m8" for row in after for mid, _ in row)
        assert s.vectors.index_size("ns0") == s.vectors.count("ns0") == 10
    with open_store(store_dir, dim=DIM) as again:  # the snapshot saved on close matches SQLite
        assert table(again, "ns0") == after


def test_a_namespace_loaded_and_dropped_inside_a_failed_transaction_keeps_sqlite_state(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM, vector_cache=10) as s:
        expected = table(s, "ns0")
        with pytest.raises(RuntimeError), s.transaction():
            s.vectors.update(rec("m4", "ns0"), vec(900))  # same ids, so only the vectors tell
            assert table(s, "ns0")[0][0][0] == "m4"  # the transaction sees its own write
            table(s, "ns1")  # drops ns0 mid-transaction: no snapshot of uncommitted vectors
            assert loaded(s) == ["ns1"]
            raise RuntimeError("step failed")
        assert table(s, "ns0") == expected
    with open_store(store_dir, dim=DIM) as again:
        assert table(again, "ns0") == expected


def test_a_snapshot_of_another_namespace_under_the_file_name_is_ignored(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM) as s:
        expected = {ns: table(s, ns) for ns in ("ns0", "ns1")}
    snapshot_path(store_dir, "ns1").replace(snapshot_path(store_dir, "ns0"))
    with open_store(store_dir, dim=DIM) as s:
        assert table(s, "ns0") == expected["ns0"] and table(s, "ns1") == expected["ns1"]


def test_two_processes_with_a_namespace_loaded_see_each_others_writes(store_dir: Path) -> None:
    other = start(store_dir, "idle", ready=("ready",))
    try:
        assert say(other, "loaded") == "[]"
        assert len(json.loads(say(other, "count ns0"))) == 10
        assert json.loads(say(other, "loaded")) == ["ns0"]  # the other namespaces stay on disk
        with open_store(store_dir, dim=DIM) as here:
            assert len(table(here, "ns0")[0]) == 10  # both processes hold ns0 now
            here.vectors.add(rec("from-here", "ns0"), [1.0] * DIM)
            assert "memory from-here" in json.loads(say(other, "count ns0"))
            assert say(other, "add ns0 from-there") == "added"
            top = here.vectors.search(["ns0"], [1.0] * DIM, 2)
            assert {h.record.id for h in top} == {"from-here", "from-there"}
            assert say(other, "delete ns0 from-here") == "deleted"
            assert "from-here" not in [h.record.id for h in here.vectors.search(["ns0"], [1.0] * DIM, 11)]
            assert here.vectors.index_size("ns0") == here.vectors.count("ns0") == 11
        assert json.loads(say(other, "loaded")) == ["ns0"]
    finally:
        assert other.stdin is not None
        other.stdin.write("quit\n")
        other.stdin.flush()
        other.communicate(timeout=60)
    assert other.returncode == 0


def test_the_vector_cache_setting_reaches_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(tmp_path / "a", embeddings="hash", vector_cache=7) as mem:
        assert mem.store._vectors.sync.budget == 7  # type: ignore[attr-defined]
    monkeypatch.setenv("DMEM_VECTOR_CACHE", "0")
    with Memory(tmp_path / "b", embeddings="hash") as mem:
        assert mem.store._vectors.sync.budget == 0  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="vector_cache"):
        Memory(tmp_path / "c", embeddings="hash", vector_cache=-1)


def test_a_snapshot_torn_inside_its_vectors_is_detected_and_rebuilt(store_dir: Path) -> None:
    with open_store(store_dir, dim=DIM) as s:
        expected = table(s, "ns0")
    path = snapshot_path(store_dir, "ns0")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # snapshots are written without fsync: the zip checksum must catch this
    path.write_bytes(bytes(data))
    with open_store(store_dir, dim=DIM) as s:
        assert table(s, "ns0") == expected


def test_a_stored_vector_of_the_wrong_size_is_named_when_its_namespace_loads(store_dir: Path) -> None:
    with sqlite3.connect(store_dir / "dmem.sqlite") as db:  # a torn write made by something else
        db.execute("UPDATE memories SET vector = ? WHERE id = 'm5'", (np.zeros(DIM + 1, dtype="<f4").tobytes(),))
    with open_store(store_dir, dim=DIM) as s:
        assert len(s.vectors.search(["ns0"], vec(0), 3)) == 3  # other namespaces load as usual
        with pytest.raises(StoreError, match=r"memory m5 has a 9-dim vector in a 8-dim store"):
            s.vectors.search(["ns1"], vec(0), 3)
