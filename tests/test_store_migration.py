"""Opening a schema-1 or schema-2 store (built here with the old schema SQL) upgrades it in place, losing nothing."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from dmem.errors import StoreError
from dmem.store import Routing, open_store
from dmem.store.local.schema import SCHEMA_VERSION
from dmem.store.local.sqlite import DB_FILE

DIM = 8
V1_SQL = (Path(__file__).parent / "fixtures" / "schema_v1.sql").read_text(encoding="utf-8")
V2_SQL = (Path(__file__).parent / "fixtures" / "schema_v2.sql").read_text(encoding="utf-8")
AT = datetime(2024, 1, 2, 3, 4, tzinfo=UTC).isoformat()


def unit(i: int) -> bytes:
    v = np.zeros(DIM, dtype="<f4")
    v[i] = 1.0
    return v.tobytes()


def memory_row(mid: str, ns: str, text: str, speaker: str, conv: str, axis: int) -> tuple[object, ...]:
    extra = {"speaker": speaker, "conversation_id": conv, "created_at": AT, "updated_at": AT}
    return (mid, ns, text, json.dumps(extra), unit(axis), 0)


def build_v1(directory: Path) -> None:
    directory.mkdir()
    conn = sqlite3.connect(directory / DB_FILE)
    conn.executescript(V1_SQL)
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                     [("version", "3"), ("schema_version", "1"), ("dim", str(DIM))])
    conn.executemany("INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?)", [
        memory_row("m1", "alice", "Ines grows tomatoes", "Ines", "chat", 0),
        memory_row("m2", "conv/Ann", "Ann rows on Sundays", "Ann", "conv", 1),
    ])
    conn.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?)", [
        ("m1", "alice", "ADD", None, "Ines grows tomatoes", "new", AT),
        ("m2", "conv/Ann", "ADD", None, "Ann rows on Sundays", "new", AT)])
    conn.execute("INSERT INTO admissions VALUES ('chat', 'alice', 't1', 'Ines', 'I grow tomatoes', 1, 'lasting', ?)",
                 (AT,))
    turns = [  # conversation, turn, seq (two parallel adds collided on seq 1 in v1), speaker, status, reason
        ("chat", "t1", 0, "Ines", "processed", None), ("chat", "t2", 1, "assistant", "processed", None),
        ("chat", "t3", 1, "Ines", "pending", "model timed out"), ("chat", "t4", 2, "assistant", "new", None),
        ("conv", "D1:1", 0, "Ann", "processed", None), ("conv", "D1:2", 1, "Bo", "new", None),
    ]
    conn.executemany(
        "INSERT INTO messages (conversation_id, turn_id, seq, speaker, text, timestamp, status, pending_reason)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(c, t, s, who, f"{who} says {t}", AT, st, why) for c, t, s, who, st, why in turns])
    conn.executemany("INSERT INTO conversation_namespaces VALUES (?, ?)",
                     [("chat", "alice"), ("conv", "conv/Ann"), ("conv", "conv/Bo")])
    conn.commit()
    conn.close()


def test_a_v1_store_is_upgraded_in_place(tmp_path: Path) -> None:
    directory = tmp_path / "store"
    build_v1(directory)
    with open_store(directory, dim=DIM) as store:
        assert store.info().extra["schema_version"] == SCHEMA_VERSION == 3
        assert [h.record.id for h in store.vectors.search(["alice"], list(np.eye(DIM)[0]), 5)] == ["m1"]
        assert store.vectors.get("conv/Ann", "m2") is not None and store.vectors.get("alice", "m2") is None
        assert [e.new_text for e in store.history.for_memory("alice", "m1")] == ["Ines grows tomatoes"]
        assert [a.turn_id for a in store.history.admissions("alice")] == ["t1"]
        chat = store.transcript.messages(["alice"])
        assert [m.turn_id for m in chat] == ["t1", "t2", "t3", "t4"]
        assert len({m.seq for m in chat}) == 4  # the v1 collision is renumbered, order kept
        assert [(m.turn_id, why) for m, why in store.transcript.pending("alice")] == [("t3", "model timed out")]
        # A conversation two speaker namespaces shared: one copy each, its speaker map rebuilt.
        [bo] = store.transcript.unformed("conv/Bo")
        assert bo.routing == Routing.of("conv/Ann", {"Ann": "conv/Ann", "Bo": "conv/Bo"})
        assert [m.turn_id for m in store.transcript.messages(["conv/Ann", "conv/Bo"])] == ["D1:1", "D1:2"]
        assert store.transcript.is_processed("conv/Bo", "conv", "D1:1")
        store.transcript.append(Routing.of("alice"), [store.transcript.messages(["alice"])[0]])  # still idempotent
        assert store.transcript.count("alice") == 4
        assert [u.labels for u in store.transcript.unformed("alice")] == [{}, {}]  # v3: turns keep labels
    assert (directory / f"{DB_FILE}.v1.bak").is_file()
    with open_store(directory, dim=DIM) as store:  # once: a second open finds it current
        assert store.info().extra["schema_version"] == 3


def build_v2(directory: Path) -> None:
    """A schema-2 store: one memory, a formed turn and a pending one (turns had no labels then)."""
    directory.mkdir()
    conn = sqlite3.connect(directory / DB_FILE)
    conn.executescript(V2_SQL)
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                     [("version", "1"), ("schema_version", "2"), ("dim", str(DIM))])
    conn.execute("INSERT INTO memories (id, namespace, text, json, vector, deleted, rev) VALUES (?, ?, ?, ?, ?, ?, 1)",
                 memory_row("m1", "alice", "Ines grows tomatoes", "Ines", "chat", 0))
    conn.executemany(
        "INSERT INTO messages (namespace, conversation_id, turn_id, seq, speaker, text, timestamp, origin, status,"
        " pending_reason) VALUES ('alice', 'chat', ?, ?, 'Ines', ?, ?, 'alice', ?, ?)",
        [("t1", 0, "I grow tomatoes", AT, "processed", None), ("t2", 1, "I sail on Fridays", AT, "pending", "timeout")])
    conn.commit()
    conn.close()


def test_a_v2_store_is_upgraded_in_place_and_its_unformed_turns_take_labels(tmp_path: Path) -> None:
    directory = tmp_path / "store"
    build_v2(directory)
    with open_store(directory, dim=DIM) as store:
        assert store.info().extra["schema_version"] == SCHEMA_VERSION
        assert store.vectors.get("alice", "m1") is not None
        [pending] = store.transcript.unformed("alice")
        assert (pending.message.turn_id, pending.reason, pending.labels) == ("t2", "timeout", {})
        store.transcript.append(Routing.of("alice"), store.transcript.messages(["alice"]), {"source": "chat"})
        assert [u.labels for u in store.transcript.unformed("alice")] == [{"source": "chat"}]
        assert store.transcript.labels(["alice"], [("chat", "t1"), ("chat", "t2")]) == {
            ("alice", "chat", "t2"): {"source": "chat"}}  # a formed turn takes no labels: nothing forms it again
    assert (directory / f"{DB_FILE}.v2.bak").is_file()
    with open_store(directory, dim=DIM, read_only=True) as store:
        assert store.info().extra["schema_version"] == SCHEMA_VERSION
        assert [u.labels for u in store.transcript.unformed("alice")] == [{"source": "chat"}]


def test_a_read_only_open_of_a_v1_store_upgrades_it_first(tmp_path: Path) -> None:
    directory = tmp_path / "store"
    build_v1(directory)
    with open_store(directory, dim=DIM, read_only=True) as store:
        assert store.read_only and [m.turn_id for m, _ in store.transcript.pending("alice")] == ["t3"]


def test_a_store_from_a_newer_dmem_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "store"
    with open_store(directory, dim=DIM):
        pass
    conn = sqlite3.connect(directory / DB_FILE)
    conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    for read_only in (False, True):
        with pytest.raises(StoreError, match="schema version 4, but this dmem reads up to version 3; upgrade dmem"):
            open_store(directory, dim=DIM, read_only=read_only)
