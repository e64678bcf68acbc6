"""The PostgreSQL VectorIndex: memory rows with pgvector embeddings, searched inside SQL per namespace.

Search filters by namespace and metadata in the WHERE clause, so its cost follows the namespaces
searched, not the table. A namespace below ``hnsw_threshold`` live memories is ranked exactly
(its rows come from the (namespace) index); a larger one gets its own partial HNSW index (cosine),
built once it crosses the threshold, and is searched through it (falling back to the exact
ranking when metadata filters leave fewer than ``k`` of the HNSW candidates).
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from typing import Any

import numpy as np
from psycopg import sql

from dmem.errors import StoreError
from dmem.state.hnsw import HnswSettings
from dmem.state.namespaces import validate_namespace
from dmem.state.schemas import MemoryRecord
from dmem.store.dialect import POSTGRES
from dmem.store.filters import Hit, SearchFilter
from dmem.store.postgres.db import PgDatabase, Row
from dmem.store.postgres.filters import filter_columns, filter_sql
from dmem.store.postgres.schema import namespace_index_name
from dmem.store.records import MemoryRows, best_hits, record_from_row, record_json
from dmem.store.sql import Sql
from dmem.store.unit import normalize

log = logging.getLogger(__name__)

_COLUMNS = "id, namespace, text, json"
_INDEXED = "SELECT namespace FROM namespace_indexes"
_INDEX_REFRESH_S = 2.0
"""Seconds a process trusts its list of HNSW-indexed namespaces (another one may have added one)."""


class PgVectorIndex(MemoryRows):
    """VectorIndex over the ``memories`` table; deletes are soft (the row stays, flagged deleted)."""

    def __init__(self, db: PgDatabase, dim: int, hnsw: HnswSettings) -> None:
        self._db = db
        self._sql = Sql(db, POSTGRES)
        self.dim = dim
        self.hnsw = hnsw
        """When a namespace gets its HNSW index, how it is built and searched (replace it to change;
        ``searching`` gives a handle with another ``ef_search`` instead)."""
        self._indexed: set[str] = set()
        self._indexed_at = -_INDEX_REFRESH_S

    # ---- writes -------------------------------------------------------------------------------

    def add(self, record: MemoryRecord, vector: Sequence[float]) -> None:
        """Insert a new record in ``record.namespace``; its id must be new to the whole store."""
        validate_namespace(record.namespace, "memory namespace")
        unit = normalize(vector, self.dim)
        with self._db.transaction(savepoint=False) as tx:
            self._db.lock_namespaces([record.namespace])
            inserted = self._db.execute(
                "INSERT INTO memories (id, namespace, text, json, categories, scope, provenance, speaker,"
                " conversation_id, embedding) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (id) DO NOTHING",
                (record.id, record.namespace, record.text, record_json(record), *filter_columns(record), unit),
            ).rowcount
            if not inserted:
                raise StoreError(f"memory id {record.id!r} already exists; use update() to change it")
            tx.touched.add(record.namespace)

    def update(self, record: MemoryRecord, vector: Sequence[float] | None) -> None:
        """Replace a live record of ``record.namespace`` (and its vector, when given); never moves it."""
        unit = None if vector is None else normalize(vector, self.dim)
        with self._db.transaction(savepoint=False):
            self._db.lock_namespaces([record.namespace])
            changed = self._db.execute(
                "UPDATE memories SET text = %s, json = %s, categories = %s, scope = %s, provenance = %s,"
                " speaker = %s, conversation_id = %s, embedding = coalesce(%s, embedding),"
                " written = nextval('memory_writes')"
                " WHERE id = %s AND namespace = %s AND NOT deleted",
                (record.text, record_json(record), *filter_columns(record), unit, record.id, record.namespace),
            ).rowcount
            if not changed:
                raise StoreError(f"no live memory {record.id!r} in namespace {record.namespace!r} to update")

    def delete(self, namespace: str, memory_id: str) -> MemoryRecord | None:
        """Soft-delete a record of the namespace; returns it, or None when it is not live there."""
        with self._db.transaction(savepoint=False):
            self._db.lock_namespaces([namespace])
            rows = self._db.execute(
                "UPDATE memories SET deleted = true, written = nextval('memory_writes')"
                f" WHERE id = %s AND namespace = %s AND NOT deleted"
                f" RETURNING {_COLUMNS}", (memory_id, namespace),
            ).fetchall()
        return record_from_row(rows[0]) if rows else None

    # ---- reads --------------------------------------------------------------------------------

    def vector(self, namespace: str, memory_id: str) -> list[float] | None:
        """The stored unit vector of a live record of the namespace, or None."""
        value = self._db.scalar("SELECT embedding FROM memories WHERE id = %s AND namespace = %s AND NOT deleted",
                                (memory_id, namespace))
        return None if value is None else self._unit(value, memory_id).tolist()

    _vector_column = "embedding"

    def _unit(self, value: Any, memory_id: str) -> np.ndarray:
        return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)

    def _searching(self) -> AbstractContextManager[Any]:
        """A search reads on one pooled connection, for all its namespaces."""
        return self._db.reading()

    def _search_one(self, conn: Any, namespace: str, unit: np.ndarray, k: int, where: SearchFilter | None,
                    min_score: float | None) -> list[Hit]:
        conditions, params = self._conditions(unit, where, min_score)
        if self._has_index(conn, namespace):
            rows = self._search_hnsw(conn, namespace, unit, k, conditions, params)
            if len(rows) >= k or (where is None and min_score is None):
                return [self._hit(row) for row in rows]
        rows = conn.execute(self._exact_sql(conditions), [unit, namespace, *params, k]).fetchall()
        return [self._hit(row) for row in rows]

    async def asearch(self, namespaces: Sequence[str], vector: Sequence[float], k: int, *,
                      where: SearchFilter | None = None, min_score: float | None = None) -> list[Hit]:
        """``search`` awaited on the running loop's async pool: the same queries, settings and order."""
        unit = self._query(namespaces, vector, k)
        if unit is None:
            return []
        async with self._db.areading() as conn:
            hits = [hit for namespace in dict.fromkeys(namespaces)
                    for hit in await self._asearch_one(conn, namespace, unit, k, where, min_score)]
        return best_hits(hits, k)

    async def _asearch_one(self, conn: Any, namespace: str, unit: np.ndarray, k: int, where: SearchFilter | None,
                           min_score: float | None) -> list[Hit]:
        conditions, params = self._conditions(unit, where, min_score)
        if self._index_stale(namespace):
            self._note_indexed(await (await conn.execute(_INDEXED)).fetchall())
        if namespace in self._indexed:
            async with conn.pipeline(), conn.transaction():
                for setting in self._hnsw_settings(k):
                    await conn.execute(setting)
                rows = await (await conn.execute(*self._hnsw_query(namespace, unit, k, conditions, params))).fetchall()
            if len(rows) >= k or (where is None and min_score is None):
                return [self._hit(row) for row in rows]
        cursor = await conn.execute(self._exact_sql(conditions), [unit, namespace, *params, k])
        return [self._hit(row) for row in await cursor.fetchall()]

    @staticmethod
    def _conditions(unit: np.ndarray, where: SearchFilter | None,
                    min_score: float | None) -> tuple[sql.Composable, list[Any]]:
        """The WHERE conditions and parameters of a search's metadata filter and score floor."""
        conditions, params = filter_sql(where)
        if min_score is not None:
            conditions = sql.Composed([conditions, sql.SQL(" AND (embedding <=> %s) <= %s")])
            params += [unit, 1.0 - min_score]
        return conditions, params

    def _search_hnsw(self, conn: Any, namespace: str, unit: np.ndarray, k: int, conditions: sql.Composable,
                     params: list[Any], explain: bool = False) -> list[Row]:
        with self.hnsw_session(conn, k):
            query, values = self._hnsw_query(namespace, unit, k, conditions, params, explain)
            rows: list[Row] = conn.execute(query, values).fetchall()
        return rows

    @staticmethod
    def _hnsw_query(namespace: str, unit: np.ndarray, k: int, conditions: sql.Composable, params: list[Any],
                    explain: bool = False) -> tuple[sql.Composable, list[Any]]:
        # The namespace is a literal so the planner can match the partial index's predicate; sorting
        # is disabled (``_hnsw_settings``) so it walks the HNSW graph instead of ranking the rows itself.
        query = sql.SQL("{explain}SELECT {cols}, embedding <=> %s AS distance FROM memories WHERE namespace = {ns}"
                        " AND NOT deleted{cond} ORDER BY embedding <=> %s LIMIT %s").format(
            explain=sql.SQL("EXPLAIN " if explain else ""), cols=sql.SQL(_COLUMNS), ns=sql.Literal(namespace),
            cond=conditions)
        return query, [unit, *params, unit, k]

    def _hnsw_settings(self, k: int) -> list[sql.Composable]:
        """What an HNSW search sets for its own transaction: the search width for top-``k``, no sorting."""
        return [sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(self.hnsw.search_width(k))),
                sql.SQL("SET LOCAL enable_sort = off")]

    @contextmanager
    def hnsw_session(self, conn: Any, k: int) -> Iterator[None]:
        """One transaction whose top-``k`` searches walk an HNSW graph ``self.hnsw.search_width(k)`` wide."""
        with conn.pipeline(), conn.transaction():  # one round trip for the settings and the search
            for setting in self._hnsw_settings(k):
                conn.execute(setting)
            yield

    def searching(self, ef_search: int) -> PgVectorIndex:
        """A handle on this index whose searches look ``ef_search`` wide: the same database, rows and HNSW indexes."""
        if ef_search == self.hnsw.ef_search:
            return self
        view = copy.copy(self)
        view.hnsw = replace(self.hnsw, ef_search=ef_search)
        return view

    def explain(self, namespace: str, vector: Sequence[float], k: int = 30) -> str:
        """The plan PostgreSQL runs for a search of one namespace (for operators: which index it uses)."""
        unit = normalize(vector, self.dim)
        with self._db.reading() as conn:
            if self._has_index(conn, namespace):
                rows = self._search_hnsw(conn, namespace, unit, k, sql.SQL(""), [], explain=True)
            else:
                rows = conn.execute(sql.Composed([sql.SQL("EXPLAIN "), self._exact_sql(sql.SQL(""))]),
                                    [unit, namespace, k]).fetchall()
        return "\n".join(str(next(iter(row.values()))) for row in rows)

    @staticmethod
    def _exact_sql(conditions: sql.Composable) -> sql.Composable:
        return sql.SQL("SELECT {cols}, embedding <=> %s AS distance FROM memories"
                       " WHERE namespace = %s AND NOT deleted{cond} ORDER BY distance, id LIMIT %s").format(
            cols=sql.SQL(_COLUMNS), cond=conditions)

    def _has_index(self, conn: Any, namespace: str) -> bool:
        """Whether the namespace has its HNSW index (the list is re-read at most every few seconds)."""
        if self._index_stale(namespace):
            self._note_indexed(conn.execute(_INDEXED).fetchall())
        return namespace in self._indexed

    def _index_stale(self, namespace: str) -> bool:
        """True when the namespace is not known indexed and the list is older than ``_INDEX_REFRESH_S``."""
        return namespace not in self._indexed and time.monotonic() - self._indexed_at > _INDEX_REFRESH_S

    def _note_indexed(self, rows: Sequence[Row]) -> None:
        self._indexed, self._indexed_at = {row["namespace"] for row in rows}, time.monotonic()

    def known_indexed(self, namespace: str) -> bool:
        """Whether this process already knows the namespace has its HNSW index (no query)."""
        return namespace in self._indexed

    def forget_indexed(self, namespace: str | None) -> None:
        """Note that the namespace's (None: every namespace's) HNSW index is gone (after a reset)."""
        if namespace is None:
            self._indexed.clear()
        else:
            self._indexed.discard(namespace)

    def mark_indexed(self, namespace: str) -> None:
        """Note that the namespace's HNSW index now exists."""
        self._indexed.add(namespace)

    def build_index(self, namespace: str) -> bool:
        """Build the namespace's HNSW index now, whatever its size (e.g. after a bulk load); True once it exists.

        Bulk loads are faster with a high ``hnsw_threshold`` and this call at the end: inserting
        into an existing HNSW index costs far more per row than building it once.
        """
        from dmem.store.postgres.upkeep import build_index

        with self._db.connect() as conn:
            done = build_index(conn, self._db, namespace, self.hnsw)
        if done:
            self.mark_indexed(namespace)
        return done

    @staticmethod
    def _hit(row: Row) -> Hit:
        return Hit(record=record_from_row(row), score=min(1.0, max(-1.0, 1.0 - float(row["distance"]))))

    def indexed_namespaces(self) -> list[str]:
        """Namespaces searched through their own HNSW index."""
        rows = self._db.query('SELECT namespace FROM namespace_indexes ORDER BY namespace COLLATE "C"')
        return [row["namespace"] for row in rows]

    def index_name(self, namespace: str) -> str:
        """The name the namespace's HNSW index has (or will have)."""
        return namespace_index_name(namespace)
