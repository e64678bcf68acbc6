"""The default VectorIndex: memory rows in SQLite, their vectors mirrored in per-namespace FAISS indexes.

A namespace's index is loaded on its first search (see :mod:`dmem.store.local.sync`); writes keep the
loaded ones in step and leave the others to SQLite.

Every by-id read and write names the namespace and filters by it in SQL: an id of another
namespace is indistinguishable from an unknown one. Ids stay unique over the whole store.
The reads that need no vectors are shared with PostgreSQL (:mod:`dmem.store.records`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from dmem.errors import StoreError
from dmem.state.namespaces import validate_namespace
from dmem.state.schemas import MemoryRecord
from dmem.store.dialect import SQLITE
from dmem.store.filters import Hit, SearchFilter
from dmem.store.local.sqlite import Database
from dmem.store.local.sync import DEFAULT_BUDGET, IndexSync, decode
from dmem.store.local.vectors import FaissIndexes
from dmem.store.records import MemoryRows, record_from_row, record_json
from dmem.store.sql import Sql, iter_batches
from dmem.store.unit import normalize

log = logging.getLogger(__name__)

_FETCH_BATCH = 256


class LocalVectorIndex(MemoryRows):
    """VectorIndex over the ``memories`` table; deletes are soft (the row stays, flagged deleted)."""

    def __init__(self, db: Database, dim: int, directory: Path, budget: int = DEFAULT_BUDGET) -> None:
        self._db = db
        self._sql = Sql(db, SQLITE)
        self.dim = dim
        self._faiss = FaissIndexes(dim)
        self.sync = IndexSync(db, self._faiss, dim, directory, budget)

    # ---- writes -------------------------------------------------------------------------------

    def add(self, record: MemoryRecord, vector: Sequence[float]) -> None:
        """Insert a new record in ``record.namespace``; its id must be new to the whole store."""
        validate_namespace(record.namespace, "memory namespace")
        unit = normalize(vector, self.dim)
        with self._db.transaction() as tx:
            if self._db.scalar("SELECT 1 FROM memories WHERE id = ?", (record.id,)) is not None:
                raise StoreError(f"memory id {record.id!r} already exists; use update() to change it")
            self._db.execute(
                "INSERT INTO memories (id, namespace, text, json, vector, deleted, rev) VALUES (?, ?, ?, ?, ?, 0, ?)",
                (record.id, record.namespace, record.text, record_json(record), unit.astype("<f4").tobytes(),
                 self._db.next_rev(tx)),
            )
            tx.touch(record.id)
            self._faiss.put(record.id, record.namespace, unit)

    def update(self, record: MemoryRecord, vector: Sequence[float] | None) -> None:
        """Replace a live record of ``record.namespace`` (and its vector, when given); never moves it."""
        unit = None if vector is None else normalize(vector, self.dim)
        with self._db.transaction() as tx:
            rows = self._db.query("SELECT vector FROM memories WHERE id = ? AND namespace = ? AND deleted = 0",
                                  (record.id, record.namespace))
            if not rows:
                raise StoreError(f"no live memory {record.id!r} in namespace {record.namespace!r} to update")
            if unit is None:
                unit = decode(rows[0]["vector"], record.id, self.dim)
            self._db.execute(
                "UPDATE memories SET text = ?, json = ?, vector = ?, rev = ? WHERE id = ? AND namespace = ?",
                (record.text, record_json(record), unit.astype("<f4").tobytes(), self._db.next_rev(tx), record.id,
                 record.namespace),
            )
            tx.touch(record.id)
            self._faiss.put(record.id, record.namespace, unit)

    def delete(self, namespace: str, memory_id: str) -> MemoryRecord | None:
        """Soft-delete a record of the namespace (row and vector stay in SQLite); returns it, or None."""
        with self._db.transaction() as tx:
            record = self.get(namespace, memory_id)
            if record is None:
                return None
            self._db.execute("UPDATE memories SET deleted = 1, rev = ? WHERE id = ? AND namespace = ?",
                             (self._db.next_rev(tx), memory_id, namespace))
            tx.touch(memory_id)
            self._faiss.remove(memory_id)
            return record

    # ---- reads --------------------------------------------------------------------------------

    def vector(self, namespace: str, memory_id: str) -> list[float] | None:
        """Return the stored unit vector of a live record of the namespace, or None."""
        blob = self._db.scalar("SELECT vector FROM memories WHERE id = ? AND namespace = ? AND deleted = 0",
                               (memory_id, namespace))
        return None if blob is None else decode(blob, memory_id, self.dim).tolist()

    @contextmanager
    def _searching(self) -> Iterator[None]:
        """A search holds the store's lock, on the vectors as other processes last wrote them."""
        with self._db.lock:
            self._db.check_open()
            self.sync.refresh()
            yield

    def _search_one(self, handle: None, namespace: str, unit: np.ndarray, k: int, where: SearchFilter | None,
                    min_score: float | None) -> list[Hit]:
        self.sync.use(namespace)
        # With a filter, rank the whole (flat, small) namespace so filtered hits still fill k.
        pairs = self._faiss.search(namespace, unit, None if where else k)
        if min_score is not None:
            pairs = [(mid, score) for mid, score in pairs if score >= min_score]
        hits: list[Hit] = []
        for batch in iter_batches(pairs, _FETCH_BATCH):
            records = self._fetch(namespace, [mid for mid, _ in batch])
            for mid, score in batch:
                record = records.get(mid)
                if record is not None and (where is None or where.matches(record)):
                    hits.append(Hit(record=record, score=score))
                    if len(hits) >= k:
                        return hits
        return hits

    def _unit(self, value: Any, memory_id: str) -> np.ndarray:
        return decode(value, memory_id, self.dim)

    def _fetch(self, namespace: str, ids: list[str]) -> dict[str, MemoryRecord]:
        # '+namespace' keeps SQLite on the primary key: the (namespace, deleted) index would scan the namespace.
        in_ids, params = SQLITE.in_list("id", ids)
        sql = f"SELECT * FROM memories WHERE {in_ids} AND +namespace = ? AND deleted = 0"
        return {row["id"]: record_from_row(row) for row in self._db.query(sql, [*params, namespace])}

    def index_size(self, namespace: str | None = None) -> int:
        """Vectors in a namespace's FAISS index, or in every namespace's (equals ``count`` when consistent).

        A consistency check: it loads each namespace it counts, in turn, within the loaded-vector
        budget (``loaded_vectors`` reports what is in memory without loading anything).
        """
        with self._db.lock, self._db.reading():
            self._db.check_open()
            self.sync.refresh()
            total = 0
            for name in self.namespaces() if namespace is None else [namespace]:
                self.sync.use(name)
                total += self._faiss.size(name)
            return total

    def loaded_namespaces(self) -> list[str]:
        """Namespaces whose vector index this process holds in memory, least recently used first."""
        with self._db.lock:
            return self._faiss.namespaces()

    def loaded_vectors(self) -> int:
        """Vectors this process holds in memory, over its loaded namespaces (loads nothing)."""
        with self._db.lock:
            return self._faiss.size()
