"""Work on a PostgreSQL store beyond single rows: HNSW indexes for crowded namespaces, built and dropped."""

from __future__ import annotations

import logging

import psycopg
from psycopg import sql

from dmem.errors import StoreError
from dmem.state.hnsw import HnswSettings
from dmem.store.postgres.db import PgDatabase, Row
from dmem.store.postgres.schema import create_namespace_index

log = logging.getLogger(__name__)

_INDEX_LOCK = 0x686E7377  # 'hnsw': one builder per namespace at a time, over every process


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


def drop_indexes(db: PgDatabase, names: list[str]) -> None:
    """Drop these HNSW indexes without blocking searches or writers (after a reset); a failure is logged."""
    if not names:
        return
    try:
        with db.connect() as conn:
            for name in names:
                conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(name)))
    except (psycopg.Error, StoreError) as exc:
        log.warning("could not drop HNSW index(es) %s in %s: %s; drop them by hand", names, db.where, exc)
