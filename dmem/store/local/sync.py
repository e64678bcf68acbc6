"""Keep a process's in-memory FAISS indexes equal to SQLite, whoever wrote it, for the namespaces it uses.

SQLite is authoritative. Every memory row carries ``rev``, the store version of its last write,
and the store version only grows. The loaded indexes reflect version V and catch up by reading
the rows with ``rev > V`` (new, changed or soft-deleted): before each search, and at the start of
each write transaction (under the write lock, so nothing can slip in between). A namespace is
loaded on its first search, inside the same read as that catch-up: from its snapshot (saved by
some process, caught up from the snapshot's version the same way) or, when the snapshot is
missing or disagrees with SQLite, from its rows. Beyond ``budget`` vectors the least recently
used namespaces are dropped (their snapshots saved first); dropping loses nothing, since the next
search loads them again.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

import numpy as np

from dmem.errors import StoreError
from dmem.store.local.snapshots import Snapshot, load_snapshot, remove_snapshots, save_snapshot
from dmem.store.local.sqlite import Database, TxState
from dmem.store.local.vectors import FaissIndexes
from dmem.store.purging import PURGE_KEY

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL_S = 30.0
"""Seconds between saves of the changed or rebuilt namespaces' snapshots (checked on commits and
loads); close() always saves."""
DEFAULT_BUDGET = 250_000
"""Vectors a process keeps loaded before it drops least recently used namespaces (about 0.5 GB at 384 dims)."""


def decode(blob: bytes, memory_id: str, dim: int) -> np.ndarray:
    """A stored little-endian float32 vector, checked against the store's dimension."""
    unit = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    if unit.shape[0] != dim:
        raise StoreError(f"memory {memory_id} has a {unit.shape[0]}-dim vector in a {dim}-dim store")
    return unit


def decode_all(blobs: list[bytes], memory_ids: list[str], dim: int) -> np.ndarray:
    """Stored vectors as one (n, dim) float32 matrix, in one pass; a wrong-sized one is named (``decode``)."""
    if set(map(len, blobs)) - {dim * 4}:
        for blob, memory_id in zip(blobs, memory_ids, strict=True):
            decode(blob, memory_id, dim)
    return np.frombuffer(b"".join(blobs), dtype="<f4").astype(np.float32).reshape(len(blobs), dim)


class IndexSync:
    """Loads, refreshes, drops and snapshots one process's FAISS indexes for a store."""

    def __init__(self, db: Database, faiss: FaissIndexes, dim: int, directory: Path,
                 budget: int = DEFAULT_BUDGET) -> None:
        self._db = db
        self._faiss = faiss
        self.dim = dim
        self._directory = directory
        self.budget = budget
        """Vectors kept loaded before least recently used namespaces are dropped; 0: no bound."""
        self.version = -1
        """The store version the loaded indexes reflect."""
        self._saved_at = time.monotonic()
        db.on_begin.append(self._before_write)
        db.on_commit.append(self._after_commit)
        db.on_rollback.append(self._after_rollback)

    def start(self) -> None:
        """Begin at the store's current version with no namespace loaded."""
        with self._db.reading():
            self.version = self._db.version()

    def use(self, namespace: str) -> None:
        """Have the namespace's index loaded and caught up, dropping others beyond the budget."""
        if self._faiss.loaded(namespace):
            self._faiss.touch(namespace)
            return
        with self._db.reading():
            self.refresh()  # the new namespace joins the others at this read's version
            source = self._load(namespace)
        if source == "rebuilt":  # saved by the next flush: a search should not wait for an fsync
            self._faiss.changed.add(namespace)
        self._evict(keep=namespace)
        self._flush_when_due()

    def refresh(self) -> int:
        """Catch up with commits made since our version (by any process); returns the rows read."""
        with self._db.reading():
            version = self._db.version()
            if version == self.version:
                return 0
            if self._faiss.namespaces() and self._purged_since(self.version):
                self.drop_loaded(None)  # a reset deleted rows: no ``rev`` tells which, so reload when used
            changed = self._apply_changes(self.version) if self._faiss.namespaces() else 0
            self.version = version
        return changed

    def drop_loaded(self, namespace: str | None) -> None:
        """Forget a loaded namespace's vectors (None: every namespace's), unsaved changes included."""
        for name in self._faiss.namespaces() if namespace is None else [namespace]:
            self._faiss.drop(name)

    def _purged_since(self, version: int) -> bool:
        """Whether a reset committed after store version ``version`` (see ``dmem.store.purging``)."""
        return int(self._db.meta(PURGE_KEY) or 0) > version

    def _before_write(self, tx: TxState) -> None:
        """At BEGIN, under the write lock: take in other processes' commits before writing."""
        self.refresh()

    def _apply_changes(self, since: int, namespace: str | None = None) -> int:
        sql = "SELECT id, namespace, vector, deleted FROM memories WHERE rev > ?"
        params: list[object] = [since]
        if namespace is not None:
            sql, params = sql + " AND namespace = ?", [since, namespace]
        rows = self._db.query(sql, params)
        for row in rows:
            if row["deleted"]:
                self._faiss.remove(row["id"])
            elif self._faiss.loaded(row["namespace"]):  # other namespaces are read from SQLite when loaded
                self._faiss.put(row["id"], row["namespace"], decode(row["vector"], row["id"], self.dim))
        return len(rows)

    def _load(self, namespace: str) -> str:
        """Load one namespace at ``self.version``: its snapshot caught up, else its rows."""
        snap = load_snapshot(self._directory, namespace, self.dim)
        if snap is not None and snap.version <= self.version:
            self._faiss.load(namespace, snap.ids, snap.vectors)
            changed = self._apply_changes(snap.version, namespace)
            live = {r[0] for r in self._db.query(
                "SELECT id FROM memories WHERE namespace = ? AND deleted = 0", (namespace,))}
            if self._faiss.ids(namespace) == live:
                log.log(logging.INFO if changed else logging.DEBUG, "vector index of namespace %r in %s: "
                        "snapshot v%d caught up with %d newer rows", namespace, self._directory, snap.version, changed)
                return "snapshot"
        rows = self._db.query(
            "SELECT id, vector FROM memories WHERE namespace = ? AND deleted = 0 ORDER BY rowid", (namespace,))
        if rows or snap is not None:
            why = "missing or unreadable" if snap is None else f"inconsistent with the database (v{snap.version})"
            log.info("rebuilding vector index of namespace %r in %s from SQLite: snapshot %s",
                     namespace, self._directory, why)
        ids = [r["id"] for r in rows]
        self._faiss.load(namespace, ids, decode_all([r["vector"] for r in rows], ids, self.dim))
        return "rebuilt"

    def _evict(self, keep: str) -> None:
        """Drop least recently used namespaces (never ``keep``) while more than ``budget`` vectors are loaded.

        Checked when a namespace loads and after each commit that wrote memories (keeping the most recently
        used namespace): once every namespace a process uses fits, no load comes to check it, and writes
        to the loaded namespaces would otherwise grow them past the budget with the data.
        """
        if self.budget <= 0:
            return
        sizes = {ns: max(1, self._faiss.size(ns)) for ns in self._faiss.namespaces()}
        total = sum(sizes.values())
        for namespace, size in sizes.items():
            if total <= self.budget:
                break
            if namespace == keep:
                continue
            if namespace in self._faiss.changed and self._can_save():
                self.save([namespace])
            self._faiss.drop(namespace)
            total -= size
            log.debug("dropped the vector index of namespace %r (%d vectors) to stay within %d",
                      namespace, size, self.budget)

    def _can_save(self) -> bool:
        # Inside a write transaction the indexes may hold uncommitted vectors: never save those.
        return not self._db.read_only and not self._db.in_transaction()

    def flush(self) -> None:
        """Save the snapshots of namespaces changed since their last save (called on close)."""
        if self._can_save():
            self._saved_at = time.monotonic()
            self.save(sorted(self._faiss.changed))

    def save(self, namespaces: list[str]) -> None:
        """Write these loaded namespaces' snapshots now (a failure only costs a slower next load)."""
        for namespace in namespaces:
            self._faiss.changed.discard(namespace)
            ids, units = self._faiss.export(namespace)
            try:
                save_snapshot(self._directory, Snapshot(self.version, namespace, ids, units))
                if self._purged_since(self.version):  # a reset committed meanwhile may have erased these vectors
                    remove_snapshots(self._directory, namespace)
            except OSError as exc:  # the snapshot is only a cache: the next load rebuilds from SQLite
                log.warning("could not save vector snapshot of %r in %s: %s", namespace, self._directory, exc)

    def _after_commit(self, tx: TxState) -> None:
        # Saving on every commit would rewrite a namespace per write; SQLite is authoritative, so a
        # snapshot older than the data only costs a catch-up on the next load.
        if tx.rev is not None:
            self.version = tx.rev
            if names := self._faiss.namespaces():  # writes grow loaded namespaces: hold the budget here too
                self._evict(keep=names[-1])
            self._flush_when_due()

    def _flush_when_due(self) -> None:
        if time.monotonic() - self._saved_at >= SNAPSHOT_INTERVAL_S:
            self.flush()

    def _after_rollback(self, tx: TxState) -> None:
        """Re-sync the vectors of every memory the failed transaction touched with SQLite."""
        for memory_id in tx.memory_ids:
            rows: list[sqlite3.Row] = self._db.query(
                "SELECT namespace, vector FROM memories WHERE id = ? AND deleted = 0", (memory_id,))
            if rows:
                self._faiss.put(memory_id, rows[0]["namespace"], decode(rows[0]["vector"], memory_id, self.dim))
            else:
                self._faiss.remove(memory_id)
