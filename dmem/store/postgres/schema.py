"""The PostgreSQL schema, its versioned migrations table, and how an open brings it up to date.

Tables live in the first schema of the connection's ``search_path`` (``public`` unless the URL
says ``options=-csearch_path=...``), so one database can hold several stores. ``dmem_migrations``
lists every applied version; an open applies the missing steps in one transaction under an
advisory lock (another process opening meanwhile waits, then finds them applied), and refuses a
database migrated by a newer dmem. The vector column's dimension is fixed when the store is made.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import psycopg
from psycopg import sql

from dmem.errors import StoreError
from dmem.store.postgres.db import Row

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
_MIGRATION_LOCK = 0x646D656D  # 'dmem': the advisory lock key taken while migrating

_V1 = """
CREATE TABLE dmem_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE SEQUENCE memory_writes;
CREATE TABLE memories (
    id text PRIMARY KEY,
    namespace text NOT NULL,
    text text NOT NULL,
    json text NOT NULL,
    categories text[] NOT NULL DEFAULT '{{}}',
    scope text,
    provenance text,
    speaker text,
    conversation_id text,
    embedding vector({dim}) NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    seq bigserial NOT NULL,
    written bigint NOT NULL DEFAULT nextval('memory_writes')
);
CREATE INDEX memories_live ON memories (namespace, seq) WHERE NOT deleted;
CREATE INDEX memories_written ON memories (namespace, written);
CREATE INDEX memories_last_write ON memories (written);
CREATE TABLE namespace_indexes (namespace text PRIMARY KEY, index_name text NOT NULL UNIQUE);
CREATE TABLE history (
    seq bigserial PRIMARY KEY,
    namespace text NOT NULL,
    memory_id text NOT NULL,
    operation text NOT NULL,
    old_text text,
    new_text text,
    reason text NOT NULL,
    at text NOT NULL
);
CREATE INDEX history_memory ON history (namespace, memory_id, seq);
CREATE TABLE admissions (
    seq bigserial PRIMARY KEY,
    namespace text NOT NULL,
    conversation_id text NOT NULL,
    turn_id text NOT NULL,
    speaker text NOT NULL,
    utterance text NOT NULL,
    admitted boolean NOT NULL,
    reason text NOT NULL,
    at text NOT NULL
);
CREATE INDEX admissions_ns ON admissions (namespace, seq);
CREATE TABLE messages (
    rowid bigserial NOT NULL,
    namespace text NOT NULL,
    conversation_id text NOT NULL,
    turn_id text NOT NULL,
    seq bigint NOT NULL,
    speaker text NOT NULL,
    text text NOT NULL,
    timestamp text,
    image_caption text,
    origin text NOT NULL,
    routes text NOT NULL DEFAULT '{{}}',
    status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'processed', 'pending')),
    pending_reason text,
    claimed_by text,
    claim_expires double precision,
    PRIMARY KEY (namespace, conversation_id, turn_id),
    UNIQUE (namespace, conversation_id, seq)
);
CREATE INDEX messages_status ON messages (namespace, status) WHERE status != 'processed';
"""


def _create_v1(conn: psycopg.Connection[Row], dim: int) -> None:
    for statement in _V1.format(dim=int(dim)).split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO dmem_meta (key, value) VALUES ('dim', %s)", (str(dim),))


def _turn_labels_v2(conn: psycopg.Connection[Row], dim: int) -> None:
    """Keep the caller's metadata (``labels``, JSON) on each turn, for whoever forms it later."""
    conn.execute("ALTER TABLE messages ADD COLUMN labels text NOT NULL DEFAULT '{}'")


MIGRATIONS: dict[int, Callable[[psycopg.Connection[Row], int], None]] = {1: _create_v1, 2: _turn_labels_v2}
"""Version -> the step that brings a database from the version before it to this one."""


def applied_version(conn: psycopg.Connection[Row]) -> int:
    """The newest migration applied in the current schema (0 for a database dmem never used)."""
    exists = conn.execute("SELECT to_regclass('dmem_migrations') IS NOT NULL AS present").fetchone()
    if not exists or not exists["present"]:
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) AS v FROM dmem_migrations").fetchone()
    return int(row["v"]) if row else 0


def ensure_schema(conn: psycopg.Connection[Row], where: str, dim: int, read_only: bool) -> None:
    """Create or upgrade the schema (autocommit connection); refuse one written by a newer dmem."""
    found = applied_version(conn)
    if found > SCHEMA_VERSION:
        raise StoreError(f"store {where} uses schema version {found}, but this dmem reads up to version "
                         f"{SCHEMA_VERSION}; upgrade dmem to open it")
    if found == SCHEMA_VERSION:
        return
    if read_only:
        raise StoreError(f"store {where} has schema version {found}, not {SCHEMA_VERSION}; open it once for "
                         "writing to create or upgrade it")
    _ensure_extension(conn, where)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS dmem_migrations (version integer PRIMARY KEY,"
                     " applied_at timestamptz NOT NULL DEFAULT now())")
        found = applied_version(conn)  # another process may have migrated while we waited
        for version in range(found + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[version](conn, dim)
            conn.execute("INSERT INTO dmem_migrations (version) VALUES (%s)", (version,))
    if found:
        log.warning("upgraded store %s from schema %d to %d", where, found, SCHEMA_VERSION)
    else:
        log.info("created the dmem schema (version %d) in %s", SCHEMA_VERSION, where)


def _ensure_extension(conn: psycopg.Connection[Row], where: str) -> None:
    """Install pgvector in the database if it is missing (needs the right to create extensions)."""
    present = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
    if present:
        return
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.Error as exc:
        raise StoreError(f"store {where} needs the pgvector extension and this user cannot install it ({exc}); "
                         "ask the administrator to run CREATE EXTENSION vector in this database") from exc


def namespace_index_name(namespace: str) -> str:
    """A stable, SQL-safe name for a namespace's HNSW index."""
    import hashlib

    return "memories_hnsw_" + hashlib.sha1(namespace.encode("utf-8")).hexdigest()[:16]


def create_namespace_index(conn: psycopg.Connection[Row], namespace: str, m: int, ef_construction: int) -> str:
    """Build one namespace's HNSW (cosine) index without blocking writers (autocommit connection)."""
    name = namespace_index_name(namespace)
    conn.execute(sql.SQL(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS {} ON memories USING hnsw (embedding vector_cosine_ops)"
        " WITH (m = {}, ef_construction = {}) WHERE namespace = {} AND NOT deleted"
    ).format(sql.Identifier(name), sql.Literal(m), sql.Literal(ef_construction), sql.Literal(namespace)))
    conn.execute("INSERT INTO namespace_indexes (namespace, index_name) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                 (namespace, name))
    return name
