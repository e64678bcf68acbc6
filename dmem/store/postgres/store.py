"""``PostgresStore``: a MemoryStore in PostgreSQL + pgvector that many processes and machines share.

Every write transaction is one PostgreSQL transaction on one pooled connection; writers of the
same namespace queue on its advisory lock, writers of other namespaces never wait for each
other, and readers never wait at all. Nothing is cached that another process could change.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from types import TracebackType
from typing import Any, TypeVar

import psycopg
from pgvector.psycopg import register_vector

from dmem.errors import StoreError
from dmem.state.hnsw import HnswSettings
from dmem.state.schemas import MemoryRecord
from dmem.store.base import HistoryLog, StoreInfo, TranscriptLog, VectorIndex
from dmem.store.dialect import POSTGRES
from dmem.store.embedding_meta import check_embedding, recorded_embedding
from dmem.store.history import History
from dmem.store.importing import import_records
from dmem.store.postgres import bridge
from dmem.store.postgres.db import PgDatabase, Row, store_error
from dmem.store.postgres.memories import PgVectorIndex
from dmem.store.postgres.schema import SCHEMA_VERSION, applied_version, ensure_schema
from dmem.store.postgres.upkeep import build_index, drop_indexes
from dmem.store.purging import PURGE_KEY, purge_rows
from dmem.store.sql import Sql
from dmem.store.transcript import Transcript
from dmem.store.urls import is_postgres_url

log = logging.getLogger(__name__)
T = TypeVar("T")


def index_crowded_namespaces(db: PgDatabase, vectors: PgVectorIndex, namespaces: Iterable[str]) -> None:
    """After a commit: give each namespace that crossed the HNSW threshold its own index.

    Runs outside any transaction (``CREATE INDEX CONCURRENTLY`` lets other writers go on); a
    failure (also of the count it reads first) is logged, never raised, since the namespace stays
    searchable exactly meanwhile and the run's commit already stands.
    """
    for ns in sorted(namespaces):
        try:  # the commit stands: a read failing here (the server went away just after it) is no run failure
            if vectors.known_indexed(ns) or vectors.count(ns) < vectors.hnsw.threshold:
                continue
            if bridge.blocking(_build_index, db, vectors, ns):  # a dedicated connection: off the loop
                vectors.mark_indexed(ns)
        except (psycopg.Error, StoreError) as exc:
            log.warning("could not build the HNSW index of namespace %r in %s: %s", ns, db.where, exc)


def _build_index(db: PgDatabase, vectors: PgVectorIndex, namespace: str) -> bool:
    with db.connect() as conn:
        return build_index(conn, db, namespace, vectors.hnsw)


class PostgresStore:
    """A handle on a dmem store in a PostgreSQL database; get one with ``open_postgres_store()``."""

    vectors: VectorIndex
    history: HistoryLog
    transcript: TranscriptLog

    def __init__(self, db: PgDatabase, dim: int, hnsw: HnswSettings) -> None:
        self._db = db
        self.dim = dim
        self.index = PgVectorIndex(db, dim, hnsw)
        """The vector index with its PostgreSQL-only extras (counts, HNSW namespaces)."""
        self._sql = Sql(db, POSTGRES)
        self.log = History(self._sql)
        self.turns = Transcript(self._sql)
        self.vectors, self.history, self.transcript = self.index, self.log, self.turns
        db.after_commit.append(lambda tx: index_crowded_namespaces(db, self.index, tx.touched))
        self._views: dict[int, PostgresStore] = {}
        self._origin = self
        """The store a view was made from (itself for the store): views of views are views of it."""

    def searching(self, ef_search: int) -> PostgresStore:
        """A handle on this store whose HNSW searches look ``ef_search`` wide (one run's own), sharing its pool.

        The handle is a view: writes, transactions and indexes are the store's; close the store, not it.
        """
        origin = self._origin
        if ef_search == origin.index.hnsw.ef_search:
            return origin
        found = origin._views.get(ef_search)
        if found is None:
            found = copy.copy(origin)
            found.index = found.vectors = origin.index.searching(ef_search)
            found = origin._views.setdefault(ef_search, found)
        return found

    @property
    def path(self) -> str:
        """Where the store lives (its URL without the password)."""
        return self._db.where

    @property
    def url(self) -> str:
        """The URL the store was opened with (with its password: keep it out of logs)."""
        return self._db.url

    @property
    def read_only(self) -> bool:
        """True when opened read-only; writes raise StoreError."""
        return self._db.read_only

    @property
    def closed(self) -> bool:
        """True after ``close()``."""
        return self._db.closed

    def transaction(self) -> Any:
        """Group writes so they land together or not at all (nested calls join the outer one)."""
        return self._transaction()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._db.transaction():
            yield

    async def arun(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the sync store body ``fn(*args)`` on the running loop, its queries awaited on the loop's async pool."""
        self._db.check_open()
        return await bridge.run(fn, *args)

    async def aoffload(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (mostly CPU work) in a worker thread, its queries awaited on the loop's async pool."""
        self._db.check_open()
        return await bridge.offload(fn, *args)

    def blocking(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (not store work): in a worker thread inside ``arun``, else right here."""
        return bridge.blocking(fn, *args)

    def info(self) -> StoreInfo:
        """Counts per namespace, messages, history rows and pending turns."""
        with self._db.reading() as conn:
            version = applied_version(conn)
        return StoreInfo(
            path=self.path, memories=self.index.counts(), messages=self.turns.count(),
            history_rows=self.log.count(), pending_turns=self.turns.pending_count(),
            extra={"backend": "postgres", "dim": self.dim, "schema_version": version,
                   "embedding": recorded_embedding(self.meta("embedding")), "read_only": self.read_only,
                   "admissions": self.log.admission_count(), "hnsw_namespaces": self.index.indexed_namespaces()},
        )

    def version(self, namespace: str | None = None) -> int:
        """The number of the last memory write, of ``namespace`` or of any namespace.

        A write's number is drawn under its namespace's advisory lock, so within a namespace a
        later commit always has a higher number: a namespace's cache is never older than its rows.
        A reset draws a number too (``dmem.store.purging``): an emptied namespace never reads as older.
        """
        purged = f"(SELECT value::bigint FROM dmem_meta WHERE key = '{PURGE_KEY}')"
        if namespace is None:
            value = self._db.scalar(f"SELECT greatest(coalesce(max(written), 0), {purged}) FROM memories")
        else:
            value = self._db.scalar(f"SELECT greatest(coalesce(max(written), 0), {purged}) FROM memories"
                                    " WHERE namespace = %s", (namespace,))
        return int(value or 0)

    def meta(self, key: str) -> str | None:
        """A value of the store's meta table (None when unset)."""
        value = self._db.scalar("SELECT value FROM dmem_meta WHERE key = %s", (key,))
        return None if value is None else str(value)

    def export_records(self, namespace: str) -> list[MemoryRecord]:
        """Live records of one namespace, oldest first."""
        return self.vectors.list(namespace)

    def import_records(self, namespace: str, records: Sequence[MemoryRecord], vectors: Sequence[Sequence[float]],
                       reason: str = "import") -> int:
        """Add or replace records of one namespace in one transaction; refuse ids of other namespaces."""
        return import_records(self.index, self.log, self.transaction(), namespace, records, vectors, reason)

    def purge(self, namespace: str | None) -> int:
        """Erase a namespace (None: every namespace) for good; returns how many live memories went.

        Its rows go in one transaction, under the namespace's lock (a whole-store reset locks the
        tables against writers); its HNSW index is dropped after the commit. PostgreSQL frees the
        deleted rows' space when (auto)vacuum runs: until then their bytes stay in the data files.
        """
        if self._db.in_transaction():
            raise StoreError("a reset runs in a transaction of its own; call it outside store.transaction()")
        with self._db.transaction():
            if namespace is None:
                self._db.execute("LOCK TABLE memories, history, admissions, messages IN EXCLUSIVE MODE")
            else:
                self._db.lock_namespaces([namespace])
            purged = purge_rows(self._sql, namespace)
            self._db.execute("INSERT INTO dmem_meta (key, value) VALUES (%s, nextval('memory_writes')::text)"
                             " ON CONFLICT (key) DO UPDATE SET value = greatest(dmem_meta.value::bigint,"
                             " EXCLUDED.value::bigint)::text", (PURGE_KEY,))  # concurrent resets: never back
            where, params = ("WHERE namespace = %s", [namespace]) if namespace is not None else ("", [])
            indexes = self._db.fetch(f"DELETE FROM namespace_indexes {where} RETURNING index_name", params)
        self.index.forget_indexed(namespace)
        bridge.blocking(drop_indexes, self._db, [row["index_name"] for row in indexes])
        log.info("reset %s of store %s: %d memories, rows %s", "everything" if namespace is None else repr(namespace),
                 self.path, purged.memories, purged.rows)
        return purged.memories

    def close(self) -> None:
        """Close the connection pool; safe to call twice."""
        self._db.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = "read-only" if self.read_only else "writer"
        return f"PostgresStore({self.path!r}, dim={self.dim}, {mode}{', closed' if self.closed else ''})"


def open_postgres_store(url: str, dim: int | None = 384, *, read_only: bool = False, embedding: str | None = None,
                        timeout: float = 10.0, pool_size: int = 8,
                        hnsw_threshold: int | None = None, hnsw: HnswSettings | None = None) -> PostgresStore:
    """Open (creating or upgrading its schema if needed) the store in the database at ``url``.

    ``dim``/``embedding`` are checked against the store's, as the local store does (``dim=None``
    adopts the store's). ``timeout`` bounds connecting and waiting for a pooled connection.
    ``hnsw`` sets how crowded namespaces are indexed and searched; ``hnsw_threshold`` overrides
    just its threshold.
    """
    settings = hnsw or HnswSettings()
    if hnsw_threshold is not None:
        settings = replace(settings, threshold=hnsw_threshold)
    if not is_postgres_url(url):
        raise StoreError(f"store_url must start with postgresql://, got a {url.partition(':')[0][:20]!r} URL")
    db = PgDatabase(url, read_only=read_only, pool_size=pool_size, timeout=timeout)
    try:
        with db.connect() as conn:
            stored_dim = _prepare(conn, db, dim, read_only)
            _check_embedding(conn, db.where, embedding, read_only)
        db.start_pool(_configure)
        return PostgresStore(db, stored_dim, settings)
    except psycopg.Error as exc:
        db.close()
        raise store_error(exc, db.where, "open") from exc
    except BaseException:
        db.close()
        raise


def _configure(conn: psycopg.Connection[Row]) -> None:
    register_vector(conn)


def _prepare(conn: psycopg.Connection[Row], db: PgDatabase, dim: int | None, read_only: bool) -> int:
    """Bring the schema up to date; return the store's dimension after checking the requested one."""
    ensure_schema(conn, db.where, dim or 384, read_only)
    row = conn.execute("SELECT value FROM dmem_meta WHERE key = 'dim'").fetchone()
    stored = int(row["value"]) if row else 0
    if dim is not None and dim != stored:
        raise StoreError(f"store {db.where} holds {stored}-dimensional vectors but dim={dim} was requested; "
                         f"open it with dim={stored} (or dim=None), or use another database for this embedding model")
    key = conn.execute("SELECT hashtext(current_schema()) AS k").fetchone()
    db.store_key = int(key["k"]) if key else 0
    return stored


def _check_embedding(conn: psycopg.Connection[Row], where: str, embedding: str | None, read_only: bool) -> None:
    """Record the embedding model of a new store; refuse to mix models in one store."""
    if embedding is None:
        return
    if not read_only:
        conn.execute("INSERT INTO dmem_meta (key, value) VALUES ('embedding', %s) ON CONFLICT DO NOTHING",
                     (embedding,))
    row = conn.execute("SELECT value FROM dmem_meta WHERE key = 'embedding'").fetchone()
    check_embedding(where, None if row is None else str(row["value"]), embedding)


__all__ = ["SCHEMA_VERSION", "HnswSettings", "PostgresStore", "is_postgres_url", "open_postgres_store"]
