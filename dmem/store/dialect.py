"""What differs between the SQL of the two backends, so the queries themselves are written once.

Shared queries use ``?`` placeholders; a dialect turns them into its own and spells the few
constructs SQLite and PostgreSQL write differently (list membership, conditional counts, byte
order for text, the insertion-order column, the live-row test, a JSON label filter).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dmem.store.labelsql import LabelQuery, postgres_labels, sqlite_labels


@dataclass(frozen=True)
class Dialect:
    """The SQLite spelling; ``PostgresDialect`` overrides what PostgreSQL writes differently."""

    name: str = "sqlite"
    collate: str = ""
    """Appended to a text ORDER BY for byte order (SQLite's default BINARY collation already is)."""
    insertion: str = "rowid"
    """The column that orders memories, history and admission rows by insertion."""
    live: str = "deleted = 0"
    """The condition of a memory row that is not soft-deleted."""
    written: str = "rev"
    """The memory column holding the store version (write number) of the row's last write."""
    meta: str = "meta"
    """The table of the store's key-value settings (``dmem.store.purging.PURGE_KEY`` among them)."""

    def sql(self, text: str) -> str:
        """The query with its ``?`` placeholders in this dialect's style."""
        return text

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column`` is one of ``values``: the condition and its one parameter, the values as a JSON array.

        One statement text whatever the count: a ``?`` per value made a new prepared statement for every
        length, each the larger the longer the list, and the connection's statement cache (128) kept the
        largest ones (growing with the data the lists name). Same plan: SQLite searches the index by each value.
        A text holding NUL, which ``json_each`` cuts short, still gets a ``?`` per value.
        """
        values = list(values)
        if any(isinstance(v, str) and "\x00" in v for v in values):
            return f"{column} IN ({', '.join('?' for _ in values)})", values
        return f"{column} IN (SELECT value FROM json_each(?))", [json.dumps(values, ensure_ascii=False)]

    def count_if(self, condition: str) -> str:
        """An aggregate counting the group's rows where ``condition`` holds."""
        return f"sum({condition})"

    def labels_filter(self, column: str, wanted: Mapping[str, Any]) -> LabelQuery:
        """Rows whose JSON ``column`` holds every wanted label exactly (see ``dmem.store.labelsql``)."""
        return sqlite_labels(column, wanted)


@dataclass(frozen=True)
class PostgresDialect(Dialect):
    """PostgreSQL: ``%s`` placeholders, arrays for lists, FILTER counts, booleans, C collation."""

    name: str = "postgres"
    collate: str = ' COLLATE "C"'
    insertion: str = "seq"
    live: str = "NOT deleted"
    written: str = "written"
    meta: str = "dmem_meta"

    def sql(self, text: str) -> str:
        """The query with ``%s`` placeholders (a literal ``%`` doubled, as psycopg wants)."""
        return text.replace("%", "%%").replace("?", "%s")

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column = ANY(?)`` with the values as one array parameter."""
        return f"{column} = ANY(?)", [list(values)]

    def count_if(self, condition: str) -> str:
        """``count(*) FILTER (WHERE condition)``."""
        return f"count(*) FILTER (WHERE {condition})"

    def labels_filter(self, column: str, wanted: Mapping[str, Any]) -> LabelQuery:
        """PostgreSQL: jsonb containment plus the JSON text of numbers (see ``dmem.store.labelsql``)."""
        return postgres_labels(column, wanted)


SQLITE = Dialect()
POSTGRES = PostgresDialect()
