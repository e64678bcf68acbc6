"""Memory rows both vector indexes share: rebuilding records, and the reads that need no vectors.

Every by-id read names the namespace and filters by it in SQL: an id of another namespace is
indistinguishable from an unknown one. Ids stay unique over the whole store.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

import numpy as np

from dmem.errors import StoreError
from dmem.state.schemas import MemoryRecord
from dmem.store.filters import Hit, SearchFilter
from dmem.store.purging import purge_mark
from dmem.store.sql import Row, Sql, iter_batches
from dmem.store.unit import query_unit

RECORD_COLUMNS = "id, namespace, text, json"
"""The columns a record is rebuilt from."""
CORE_FIELDS = {"id", "namespace", "text"}
"""Record fields kept in their own columns rather than in the ``json`` column."""
ID_BATCH = 256
"""Ids looked up per query (SQLite bounds the parameters of one statement)."""


def record_from_row(row: Row) -> MemoryRecord:
    """Rebuild a MemoryRecord from its columns plus the JSON of its other fields."""
    try:
        data = json.loads(row["json"])
        data.update(id=row["id"], namespace=row["namespace"], text=row["text"])
        return MemoryRecord.model_validate_json(json.dumps(data))
    except ValueError as exc:
        raise StoreError(f"memory {row['id']} is unreadable in the database: {exc}") from exc


def record_json(record: MemoryRecord) -> str:
    """The ``json`` column of a record: every field but the core ones."""
    return record.model_dump_json(exclude=CORE_FIELDS)


def sort_time(rec: MemoryRecord) -> datetime:
    """created_at as an aware datetime (naive values are taken as UTC) so mixed values compare."""
    return rec.created_at if rec.created_at.tzinfo else rec.created_at.replace(tzinfo=UTC)


def best_hits(hits: list[Hit], k: int) -> list[Hit]:
    """The ``k`` best of several namespaces' hits, best first (ties by id, so both paths agree)."""
    hits.sort(key=lambda hit: (-hit.score, hit.record.id))
    return hits[:k]


class MemoryRows:
    """The reads of the ``memories`` table both backends share, and the shape of a search.

    A vector index sets ``_sql`` and ``dim``, and supplies ``_searching`` (what a search holds
    while it runs) and ``_search_one`` (one namespace's hits).
    """

    _sql: Sql
    dim: int

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
        unit = self._query(namespaces, vector, k)
        if unit is None:
            return []
        with self._searching() as handle:
            hits = [hit for namespace in dict.fromkeys(namespaces)
                    for hit in self._search_one(handle, namespace, unit, k, where, min_score)]
        return best_hits(hits, k)

    async def asearch(
        self,
        namespaces: Sequence[str],
        vector: Sequence[float],
        k: int,
        *,
        where: SearchFilter | None = None,
        min_score: float | None = None,
    ) -> list[Hit]:
        """``search`` awaited: in a worker thread here; a backend with an async pool searches on the loop."""
        return await asyncio.to_thread(self.search, namespaces, vector, k, where=where, min_score=min_score)

    def _query(self, namespaces: Sequence[str], vector: Sequence[float], k: int) -> np.ndarray | None:
        """The search's unit query vector, or None when the search finds nothing whatever the rows.

        None for k <= 0, no namespace, or an all-zero query (``query_unit``); ``search`` and a
        backend's async twin both start here.
        """
        if k <= 0 or not namespaces:
            return None
        return query_unit(vector, self.dim)

    def _searching(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _search_one(self, handle: Any, namespace: str, unit: np.ndarray, k: int, where: SearchFilter | None,
                    min_score: float | None) -> list[Hit]:
        raise NotImplementedError

    def get(self, namespace: str, memory_id: str) -> MemoryRecord | None:
        """A live record of the namespace by id, or None."""
        rows = self._sql.query(f"SELECT {RECORD_COLUMNS} FROM memories WHERE id = ? AND namespace = ?"
                               f" AND {self._sql.dialect.live}", (memory_id, namespace))
        return record_from_row(rows[0]) if rows else None

    def owners(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """Namespace of each id known to the store, live or deleted (for import collision checks)."""
        out: dict[str, str] = {}
        for batch in iter_batches(list(memory_ids), ID_BATCH):
            in_ids, params = self._sql.dialect.in_list("id", batch)
            rows = self._sql.query(f"SELECT id, namespace FROM memories WHERE {in_ids}", params)
            out.update({row["id"]: row["namespace"] for row in rows})
        return out

    def namespaces(self) -> list[str]:
        """Namespaces that hold at least one live record, sorted."""
        rows = self._sql.query(f"SELECT namespace FROM memories WHERE {self._sql.dialect.live} GROUP BY namespace"
                               f" ORDER BY namespace{self._sql.dialect.collate}")
        return [row["namespace"] for row in rows]

    def count(self, namespace: str | None = None) -> int:
        """Live records, in one namespace or overall."""
        if namespace is None:
            return int(self._sql.scalar(f"SELECT count(*) FROM memories WHERE {self._sql.dialect.live}"))
        return int(self._sql.scalar(f"SELECT count(*) FROM memories WHERE {self._sql.dialect.live}"
                                    " AND namespace = ?", (namespace,)))

    def counts(self) -> dict[str, int]:
        """Live records per namespace."""
        rows = self._sql.query(f"SELECT namespace, count(*) AS n FROM memories WHERE {self._sql.dialect.live}"
                               f" GROUP BY namespace ORDER BY namespace{self._sql.dialect.collate}")
        return {row["namespace"]: int(row["n"]) for row in rows}

    def pages(self, namespace: str, size: int = ID_BATCH) -> Iterator[list[tuple[MemoryRecord, np.ndarray]]]:
        """Every live record of a namespace with its unit vector (float32), ``size`` at a time, in insertion order.

        Each page is its own query (keyset on the insertion column), so a caller writing a large
        namespace out holds one page at a time, never the namespace.
        """
        order = self._sql.dialect.insertion
        after = -1
        while True:
            rows = self._sql.query(f"SELECT {order} AS pos, {RECORD_COLUMNS}, {self._vector_column} AS vector"
                                   f" FROM memories WHERE namespace = ? AND {self._sql.dialect.live} AND {order} > ?"
                                   f" ORDER BY {order} LIMIT ?", (namespace, after, size))
            if not rows:
                return
            yield [(record_from_row(row), self._unit(row["vector"], row["id"])) for row in rows]
            after = rows[-1]["pos"]

    def changes(self, namespace: str, since: int) -> list[tuple[int, MemoryRecord, bool]] | None:
        """The namespace's memory rows written after store version ``since``, deleted ones included.

        Each as (insertion position, record, deleted), in insertion order; None when a reset
        (``dmem.store.purging``) committed after ``since``: rows were erased and no row tells which,
        so the caller reads the namespace again. ``since`` -1 reads every row. An incremental index
        (``dmem.evidence.growing``) catches up with these instead of reading the whole namespace.
        """
        if since >= 0 and purge_mark(self._sql) > since:
            return None
        d = self._sql.dialect
        rows = self._sql.query(f"SELECT {d.insertion} AS pos, {RECORD_COLUMNS}, {d.live} AS alive FROM memories"
                               f" WHERE namespace = ? AND {d.written} > ? ORDER BY {d.insertion}", (namespace, since))
        return [(int(row["pos"]), record_from_row(row), not row["alive"]) for row in rows]

    _vector_column = "vector"
    """The column holding a memory's vector."""

    def _unit(self, value: Any, memory_id: str) -> np.ndarray:
        """A stored vector as float32 (each backend decodes its column)."""
        raise NotImplementedError

    # Defined last: inside the class body, a method named ``list`` would shadow the builtin in annotations.
    def list(self, namespace: str) -> list[MemoryRecord]:
        """Every live record of a namespace, oldest first (by created_at, then insertion order)."""
        rows = self._sql.query(f"SELECT {RECORD_COLUMNS} FROM memories WHERE namespace = ?"
                               f" AND {self._sql.dialect.live} ORDER BY {self._sql.dialect.insertion}", (namespace,))
        return sorted((record_from_row(row) for row in rows), key=sort_time)
