"""Work on a PostgreSQL store beyond single rows: HNSW indexes for crowded namespaces."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import psycopg

from dmem.errors import StoreError
from dmem.state.hnsw import HnswSettings
from dmem.store.postgres.db import PgDatabase, Row
from dmem.store.postgres.schema import create_namespace_index

if TYPE_CHECKING:
    from dmem.store.postgres.memories import PgVectorIndex

log = logging.getLogger(__name__)

_INDEX_LOCK = 0x686E7377  # 'hnsw': one builder per namespace at a time, over every process


def index_crowded_namespaces(db: PgDatabase, vectors: PgVectorIndex, namespaces: Iterable[str]) -> None:
    """After a commit: give each namespace that crossed the HNSW threshold its own index.

    Runs outside any transaction (``CREATE INDEX CONCURRENTLY`` lets other writers go on); a
    failure is logged, never raised, since the namespace stays searchable exactly meanwhile.
    """
    for ns in sorted(namespaces):
        if vectors.known_indexed(ns) or vectors.count(ns) < vectors.hnsw.threshold:
            continue
        try:
            with db.connect() as conn:
                if build_index(conn, db, ns, vectors.hnsw):
                    vectors.mark_indexed(ns)
        except (psycopg.Error, StoreError) as exc:
            log.warning("could not build the HNSW index of namespace %r in %s: %s", ns, db.where, exc)


def build_index(conn: psycopg.Connection[Row], db: PgDatabase, namespace: str, hnsw: HnswSettings) -> bool:
    """Build one namespace's HNSW index unless another process is at it; True once it exists."""
    if conn.execute("SELECT 1 FROM namespace_indexes WHERE namespace = %s", (namespace,)).fetchone():
        return True
    got = conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s)) AS ok", (_INDEX_LOCK, namespace)).fetchone()
    if not got or not got["ok"]:
        return False
    try:
        conn.execute("SELECT set_config('maintenance_work_mem', %s, false)", (hnsw.build_memory,))
        name = create_namespace_index(conn, namespace, hnsw.m, hnsw.ef_construction)
        log.info("built HNSW index %s for namespace %r in %s", name, namespace, db.where)
        return True
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (_INDEX_LOCK, namespace))
