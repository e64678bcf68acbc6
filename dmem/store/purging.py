"""Erasing a namespace for good, the rows both backends share: memories, history, admissions and turns.

``Memory.reset`` is mem0's reset: unlike ``delete`` (a soft delete, kept in history) it leaves no
row of the namespace behind. Each backend runs ``purge_rows`` inside its own write transaction and
adds what only it holds (the local store's FAISS indexes and their snapshots, PostgreSQL's HNSW
indexes), and records ``PURGE_KEY``: the store version of the last purge, so that versions keep
growing (caches keyed on them never mistake an emptied namespace for an older state) and other
processes know to drop the vectors they hold in memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from dmem.store.sql import Sql

PURGE_KEY = "purged"
"""Meta key holding the store version (memory write number) of the last purge."""
TABLES = ("memories", "history", "admissions", "messages")
"""Every table with per-namespace rows; ``messages`` carries the turns' labels, claims and pending reasons."""


@dataclass(frozen=True)
class Purged:
    """What a purge removed: live memories, and rows per table (soft-deleted memories included)."""

    memories: int
    rows: dict[str, int]


def purge_mark(sql: Sql) -> int:
    """The store version of the last purge (0: none): rows read before it may be gone."""
    return int(sql.scalar(f"SELECT value FROM {sql.dialect.meta} WHERE key = ?", (PURGE_KEY,)) or 0)


def purge_rows(sql: Sql, namespace: str | None) -> Purged:
    """Delete every row of ``namespace`` (None: of all) from every table, in the caller's transaction."""
    where, params = ("WHERE namespace = ?", [namespace]) if namespace is not None else ("", [])
    live = f"{where} {'AND' if where else 'WHERE'} {sql.dialect.live}"
    memories = int(sql.fetch(f"SELECT count(*) AS n FROM memories {live}", params)[0]["n"])
    rows = {table: sql.execute(f"DELETE FROM {table} {where}", params) for table in TABLES}
    return Purged(memories=memories, rows=rows)
