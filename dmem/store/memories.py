"""The default VectorIndex: memory rows in SQLite, their vectors mirrored in per-namespace FAISS indexes."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from dmem.errors import StoreError
from dmem.state.schemas import MemoryRecord
from dmem.store.base import Hit, SearchFilter, iter_batches
from dmem.store.sqlite import Database, TxState, placeholders
from dmem.store.vectors import FaissIndexes, Snapshot, load_snapshot, normalize, save_snapshot

log = logging.getLogger(__name__)
SNAPSHOT_INTERVAL_S = 30.0
"""Seconds between vector snapshot saves while writing; close() always saves."""

_CORE_FIELDS = {"id", "namespace", "text"}
_FETCH_BATCH = 256


def record_from_row(row: sqlite3.Row) -> MemoryRecord:
    """Rebuild a MemoryRecord from its columns plus the JSON of its other fields."""
    try:
        data = json.loads(row["json"])
        data.update(id=row["id"], namespace=row["namespace"], text=row["text"])
        return MemoryRecord.model_validate_json(json.dumps(data))
    except ValueError as exc:
        raise StoreError(f"memory {row['id']} is unreadable in the database: {exc}") from exc


def _sort_time(rec: MemoryRecord) -> datetime:
    """created_at as an aware datetime (naive values are taken as UTC) so mixed values compare."""
    return rec.created_at if rec.created_at.tzinfo else rec.created_at.replace(tzinfo=UTC)


class LocalVectorIndex:
    """VectorIndex over the ``memories`` table; deletes are soft (the row stays, flagged deleted)."""

    def __init__(self, db: Database, dim: int, directory: Path) -> None:
        self._db = db
        self.dim = dim
        self._directory = directory
        self._faiss = FaissIndexes(dim)
        self._version = -1
        self._dirty = False
        self._saved_at = time.monotonic()
        db.on_commit.append(self._after_commit)
        db.on_rollback.append(self._after_rollback)

    # ---- writes -------------------------------------------------------------------------------

    def add(self, record: MemoryRecord, vector: Sequence[float]) -> None:
        """Insert a new record; its id must not exist yet (not even deleted)."""
        unit = normalize(vector, self.dim)
        with self._db.transaction() as tx:
            if self._db.scalar("SELECT 1 FROM memories WHERE id = ?", (record.id,)) is not None:
                raise StoreError(f"memory id {record.id!r} already exists; use update() to change it")
            self._db.conn.execute(
                "INSERT INTO memories (id, namespace, text, json, vector, deleted) VALUES (?, ?, ?, ?, ?, 0)",
                (record.id, record.namespace, record.text, self._json(record), unit.astype("<f4").tobytes()),
            )
            tx.touch(record.id)
            self._faiss.put(record.id, record.namespace, unit)

    def update(self, record: MemoryRecord, vector: Sequence[float] | None) -> None:
        """Replace a live record by id, and its vector when one is given."""
        unit = None if vector is None else normalize(vector, self.dim)
        with self._db.transaction() as tx:
            rows = self._db.query("SELECT vector FROM memories WHERE id = ? AND deleted = 0", (record.id,))
            if not rows:
                raise StoreError(f"memory {record.id!r} does not exist or was deleted; use add() instead")
            if unit is None:
                unit = self._decode(rows[0]["vector"], record.id)
            self._db.conn.execute(
                "UPDATE memories SET namespace = ?, text = ?, json = ?, vector = ? WHERE id = ?",
                (record.namespace, record.text, self._json(record), unit.astype("<f4").tobytes(), record.id),
            )
            tx.touch(record.id)
            self._faiss.put(record.id, record.namespace, unit)

    def delete(self, memory_id: str) -> MemoryRecord | None:
        """Soft-delete a record (its row and vector stay in SQLite); returns it, or None if not live."""
        with self._db.transaction() as tx:
            record = self.get(memory_id)
            if record is None:
                return None
            self._db.conn.execute("UPDATE memories SET deleted = 1 WHERE id = ?", (memory_id,))
            tx.touch(memory_id)
            self._faiss.remove(memory_id)
            return record

    # ---- reads --------------------------------------------------------------------------------

    def get(self, memory_id: str) -> MemoryRecord | None:
        """Return a live record by id, or None."""
        rows = self._db.query("SELECT * FROM memories WHERE id = ? AND deleted = 0", (memory_id,))
        return record_from_row(rows[0]) if rows else None

    def vector(self, memory_id: str) -> list[float] | None:
        """Return the stored unit vector of a live record, or None."""
        blob = self._db.scalar("SELECT vector FROM memories WHERE id = ? AND deleted = 0", (memory_id,))
        return None if blob is None else self._decode(blob, memory_id).tolist()

    def search(
        self,
        namespaces: Sequence[str],
        vector: Sequence[float],
        k: int,
        *,
        where: SearchFilter | None = None,
        min_score: float | None = None,
    ) -> list[Hit]:
        """Top-k live records of the given namespaces only, by cosine, best first."""
        if k <= 0 or not namespaces:
            return []
        unit = normalize(vector, self.dim)
        hits: list[Hit] = []
        with self._db.lock:
            self._refresh_if_stale()
            for namespace in dict.fromkeys(namespaces):
                hits.extend(self._search_one(namespace, unit, k, where, min_score))
        hits.sort(key=lambda hit: (-hit.score, hit.record.id))
        return hits[:k]

    def _search_one(
        self, namespace: str, unit: np.ndarray, k: int, where: SearchFilter | None, min_score: float | None
    ) -> list[Hit]:
        # With a filter, rank the whole (flat, small) namespace so filtered hits still fill k.
        pairs = self._faiss.search(namespace, unit, None if where else k)
        if min_score is not None:
            pairs = [(mid, score) for mid, score in pairs if score >= min_score]
        hits: list[Hit] = []
        for batch in iter_batches(pairs, _FETCH_BATCH):
            records = self._fetch([mid for mid, _ in batch])
            for mid, score in batch:
                record = records.get(mid)
                if record is not None and (where is None or where.matches(record)):
                    hits.append(Hit(record=record, score=score))
                    if len(hits) >= k:
                        return hits
        return hits

    def _fetch(self, ids: list[str]) -> dict[str, MemoryRecord]:
        sql = f"SELECT * FROM memories WHERE deleted = 0 AND id IN ({placeholders(ids)})"
        return {row["id"]: record_from_row(row) for row in self._db.query(sql, ids)}

    def namespaces(self) -> list[str]:
        """Namespaces that hold at least one live record, sorted."""
        rows = self._db.query("SELECT DISTINCT namespace FROM memories WHERE deleted = 0 ORDER BY namespace")
        return [row[0] for row in rows]

    def count(self, namespace: str | None = None) -> int:
        """Count live records, in one namespace or overall."""
        if namespace is None:
            return int(self._db.scalar("SELECT count(*) FROM memories WHERE deleted = 0"))
        sql = "SELECT count(*) FROM memories WHERE deleted = 0 AND namespace = ?"
        return int(self._db.scalar(sql, (namespace,)))

    def counts(self) -> dict[str, int]:
        """Live records per namespace."""
        rows = self._db.query(
            "SELECT namespace, count(*) FROM memories WHERE deleted = 0 GROUP BY namespace ORDER BY namespace"
        )
        return {row[0]: int(row[1]) for row in rows}

    def index_size(self, namespace: str | None = None) -> int:
        """Vectors in the in-memory FAISS indexes (equals ``count`` when consistent)."""
        return self._faiss.size(namespace)

    # ---- loading and persistence --------------------------------------------------------------

    def load(self, *, refresh: bool = False) -> str:
        """Fill the FAISS indexes from the snapshot when it matches SQLite, else rebuild; returns which."""
        with self._db.reading():
            version = self._db.version()
            live = self._db.query("SELECT id, namespace FROM memories WHERE deleted = 0")
            snap = load_snapshot(self._directory, self.dim)
            if snap is not None and snap.version == version and self._matches(snap, live):
                self._faiss.reset(snap.ids, snap.namespaces, snap.vectors)
                self._version = version
                return "snapshot"
            why = "missing or unreadable" if snap is None else f"stale (version {snap.version} != {version})"
            level = logging.DEBUG if refresh else logging.INFO
            log.log(level, "rebuilding vector index of %s from SQLite: snapshot %s", self._directory, why)
            self._rebuild(version)
        if not self._db.read_only:
            self._save_snapshot()
        return "rebuilt"

    @staticmethod
    def _matches(snap: Snapshot, live: list[sqlite3.Row]) -> bool:
        pairs = set(zip(snap.ids, snap.namespaces, strict=True))
        return len(pairs) == len(snap.ids) == len(live) and pairs == {(r[0], r[1]) for r in live}

    def _rebuild(self, version: int) -> None:
        rows = self._db.query("SELECT id, namespace, vector FROM memories WHERE deleted = 0 ORDER BY rowid")
        units = np.zeros((len(rows), self.dim), dtype=np.float32)
        for i, row in enumerate(rows):
            units[i] = self._decode(row["vector"], row["id"])
        self._faiss.reset([r["id"] for r in rows], [r["namespace"] for r in rows], units)
        self._version = version

    def _refresh_if_stale(self) -> None:
        # Only a read-only view can fall behind: the writer lock means every write goes through us.
        if self._db.read_only and self._db.version() != self._version:
            self.load(refresh=True)

    def flush(self) -> None:
        """Save the snapshot if commits happened since the last save (called on close)."""
        if self._dirty and not self._db.read_only:
            self._save_snapshot()

    def _save_snapshot(self) -> None:
        self._dirty = False
        self._saved_at = time.monotonic()
        ids, namespaces, units = self._faiss.export()
        try:
            save_snapshot(self._directory, Snapshot(self._version, ids, namespaces, units))
        except OSError as exc:  # the snapshot is only a cache: the next open rebuilds from SQLite
            log.warning("could not save vector snapshot in %s: %s", self._directory, exc)

    def _after_commit(self, tx: TxState) -> None:
        # Saving the whole index on every commit is O(N) per write; SQLite is authoritative, so a
        # snapshot older than the data only costs a rebuild on the next open.
        if tx.memory_ids:
            self._version = self._db.version()
            self._dirty = True
            if time.monotonic() - self._saved_at >= SNAPSHOT_INTERVAL_S:
                self._save_snapshot()

    def _after_rollback(self, tx: TxState) -> None:
        """Re-sync the vectors of every memory the failed transaction touched with SQLite."""
        for memory_id in tx.memory_ids:
            sql = "SELECT namespace, vector FROM memories WHERE id = ? AND deleted = 0"
            rows = self._db.query(sql, (memory_id,))
            if rows:
                self._faiss.put(memory_id, rows[0]["namespace"], self._decode(rows[0]["vector"], memory_id))
            else:
                self._faiss.remove(memory_id)

    def _json(self, record: MemoryRecord) -> str:
        return record.model_dump_json(exclude=_CORE_FIELDS)

    def _decode(self, blob: bytes, memory_id: str) -> np.ndarray:
        unit = np.frombuffer(blob, dtype="<f4").astype(np.float32)
        if unit.shape[0] != self.dim:
            raise StoreError(f"memory {memory_id} has a {unit.shape[0]}-dim vector in a {self.dim}-dim store")
        return unit

    # Defined last: inside the class body, a method named ``list`` would shadow the builtin in annotations.
    def list(self, namespace: str) -> list[MemoryRecord]:
        """Every live record of a namespace, oldest first (by created_at, then insertion order)."""
        rows = self._db.query(
            "SELECT * FROM memories WHERE namespace = ? AND deleted = 0 ORDER BY rowid", (namespace,)
        )
        return sorted((record_from_row(row) for row in rows), key=_sort_time)
