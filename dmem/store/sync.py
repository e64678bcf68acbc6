"""Keep a process's in-memory FAISS indexes equal to SQLite, whoever wrote it.

SQLite is authoritative. Every memory row carries ``rev``, the store version of its last write,
and the store version only grows. An index that reflects version V catches up by reading the
rows with ``rev > V`` (new, changed or soft-deleted): before each search, and at the start of
each write transaction (under the write lock, so nothing can slip in between). Opening loads
the snapshot saved by some process and catches up from its version the same way; a snapshot
that disagrees with SQLite is discarded and the index rebuilt.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

import numpy as np

from dmem.errors import StoreError
from dmem.store.sqlite import Database, TxState
from dmem.store.vectors import FaissIndexes, Snapshot, load_snapshot, save_snapshot

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL_S = 30.0
"""Seconds between vector snapshot saves while writing; close() always saves."""


def decode(blob: bytes, memory_id: str, dim: int) -> np.ndarray:
    """A stored little-endian float32 vector, checked against the store's dimension."""
    unit = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    if unit.shape[0] != dim:
        raise StoreError(f"memory {memory_id} has a {unit.shape[0]}-dim vector in a {dim}-dim store")
    return unit


class IndexSync:
    """Loads, refreshes and snapshots one process's FAISS indexes for a store."""

    def __init__(self, db: Database, faiss: FaissIndexes, dim: int, directory: Path) -> None:
        self._db = db
        self._faiss = faiss
        self.dim = dim
        self._directory = directory
        self.version = -1
        """The store version the indexes reflect."""
        self._dirty = False
        self._saved_at = time.monotonic()
        db.on_begin.append(self._before_write)
        db.on_commit.append(self._after_commit)
        db.on_rollback.append(self._after_rollback)

    def load(self) -> str:
        """Fill the indexes from the snapshot plus newer rows when it matches SQLite, else rebuild."""
        with self._db.reading():
            version = self._db.version()
            snap = load_snapshot(self._directory, self.dim)
            if snap is not None and snap.version <= version:
                self._faiss.reset(snap.ids, snap.namespaces, snap.vectors)
                changed = self._apply_changes(snap.version)
                if self._faiss.keys() == self._live_keys():
                    self.version = version
                    self._dirty = changed > 0  # close() saves the caught-up snapshot
                    log.log(logging.INFO if changed else logging.DEBUG, "vector index of %s: snapshot v%d "
                            "caught up with %d newer rows", self._directory, snap.version, changed)
                    return "snapshot"
            why = "missing or unreadable" if snap is None else f"inconsistent with the database (v{snap.version})"
            log.info("rebuilding vector index of %s from SQLite: snapshot %s", self._directory, why)
            self._rebuild(version)
        if not self._db.read_only:
            self.save()
        return "rebuilt"

    def refresh(self) -> int:
        """Catch up with commits made since our version (by any process); returns the rows read."""
        with self._db.reading():
            version = self._db.version()
            if version == self.version:
                return 0
            changed = self._apply_changes(self.version)
            self.version = version
        return changed

    def _before_write(self, tx: TxState) -> None:
        """At BEGIN, under the write lock: take in other processes' commits before writing."""
        self.refresh()

    def _apply_changes(self, since: int) -> int:
        rows = self._db.query("SELECT id, namespace, vector, deleted FROM memories WHERE rev > ?", (since,))
        for row in rows:
            if row["deleted"]:
                self._faiss.remove(row["id"])
            else:
                self._faiss.put(row["id"], row["namespace"], decode(row["vector"], row["id"], self.dim))
        return len(rows)

    def _live_keys(self) -> set[tuple[str, str]]:
        rows = self._db.query("SELECT id, namespace FROM memories WHERE deleted = 0")
        return {(r[0], r[1]) for r in rows}

    def _rebuild(self, version: int) -> None:
        rows = self._db.query("SELECT id, namespace, vector FROM memories WHERE deleted = 0 ORDER BY rowid")
        units = np.zeros((len(rows), self.dim), dtype=np.float32)
        for i, row in enumerate(rows):
            units[i] = decode(row["vector"], row["id"], self.dim)
        self._faiss.reset([r["id"] for r in rows], [r["namespace"] for r in rows], units)
        self.version = version

    def flush(self) -> None:
        """Save the snapshot if commits happened since the last save (called on close)."""
        if self._dirty and not self._db.read_only:
            self.save()

    def save(self) -> None:
        """Write the snapshot now (a failure only costs a slower next open)."""
        self._dirty = False
        self._saved_at = time.monotonic()
        ids, namespaces, units = self._faiss.export()
        try:
            save_snapshot(self._directory, Snapshot(self.version, ids, namespaces, units))
        except OSError as exc:  # the snapshot is only a cache: the next open rebuilds from SQLite
            log.warning("could not save vector snapshot in %s: %s", self._directory, exc)

    def _after_commit(self, tx: TxState) -> None:
        # Saving the whole index on every commit is O(N) per write; SQLite is authoritative, so a
        # snapshot older than the data only costs a catch-up on the next open.
        if tx.rev is not None:
            self.version = tx.rev
            self._dirty = True
            if time.monotonic() - self._saved_at >= SNAPSHOT_INTERVAL_S:
                self.save()

    def _after_rollback(self, tx: TxState) -> None:
        """Re-sync the vectors of every memory the failed transaction touched with SQLite."""
        for memory_id in tx.memory_ids:
            rows: list[sqlite3.Row] = self._db.query(
                "SELECT namespace, vector FROM memories WHERE id = ? AND deleted = 0", (memory_id,))
            if rows:
                self._faiss.put(memory_id, rows[0]["namespace"], decode(rows[0]["vector"], memory_id, self.dim))
            else:
                self._faiss.remove(memory_id)
