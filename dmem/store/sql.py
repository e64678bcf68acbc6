"""The handle the shared queries run through: one backend's database plus its dialect.

Each backend keeps its own connection, transaction and locking rules (the SQLite write lock,
PostgreSQL's pool and advisory locks); ``Sql`` only turns the queries' ``?`` placeholders into
the backend's style before handing them over, so every query is written once.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from dmem.store.dialect import Dialect

Row = sqlite3.Row | Mapping[str, Any]
"""A row from SQLite or PostgreSQL (both read by column name)."""


class Cursor(Protocol):
    """The part of a DB-API cursor the shared queries read."""

    @property
    def rowcount(self) -> int:
        """Rows the statement changed."""
        ...


class SqlDatabase(Protocol):
    """What a backend's database offers the shared queries (see ``Database`` and ``PgDatabase``)."""

    def query(self, sql: Any, params: Sequence[Any] = ...) -> Sequence[Any]:
        """Run a read (inside the open transaction, if any) and return every row."""
        ...

    def fetch(self, sql: str, params: Sequence[Any] = ...) -> Sequence[Any]:
        """Run a read inside the open write transaction; its failure fails the transaction."""
        ...

    def execute(self, sql: Any, params: Sequence[Any] = ...) -> Cursor:
        """Run one statement inside the open transaction."""
        ...

    def scalar(self, sql: Any, params: Sequence[Any] = ...) -> Any:
        """The first column of the first row of a read (None when there is none)."""
        ...

    def transaction(self, savepoint: bool = True) -> AbstractContextManager[Any]:
        """Group writes atomically; nested calls join the open one."""
        ...

    def lock_namespaces(self, namespaces: Sequence[str]) -> None:
        """Serialise writers of these namespaces until the transaction ends."""
        ...

    def in_transaction(self) -> bool:
        """True while the calling thread has a transaction open."""
        ...


class Sql:
    """Runs queries written with ``?`` placeholders on one backend."""

    def __init__(self, db: SqlDatabase, dialect: Dialect) -> None:
        self.db = db
        self.dialect = dialect

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read."""
        return list(self.db.query(self.dialect.sql(sql), params))

    async def aquery(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read, awaited: on the loop's async pool (PostgreSQL), else in a worker thread (SQLite)."""
        native = getattr(self.db, "aquery", None)
        if native is None:
            return await asyncio.to_thread(self.query, sql, params)
        return list(await native(self.dialect.sql(sql), params))

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read inside the open write transaction."""
        return list(self.db.fetch(self.dialect.sql(sql), params))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a write inside the open transaction; return how many rows it changed."""
        return self.db.execute(self.dialect.sql(sql), params).rowcount

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row of a read (None when there is none)."""
        return self.db.scalar(self.dialect.sql(sql), params)

    def transaction(self, savepoint: bool = True) -> AbstractContextManager[Any]:
        """The backend's transaction (``savepoint=False``: a single statement needs no savepoint)."""
        return self.db.transaction(savepoint=savepoint)

    def lock(self, namespaces: Sequence[str]) -> None:
        """Take the backend's write locks of these namespaces (inside a transaction)."""
        self.db.lock_namespaces(namespaces)

    def in_transaction(self) -> bool:
        """True while the calling thread has a transaction open."""
        return self.db.in_transaction()


def iter_batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    """Consecutive slices of at most ``size`` items."""
    for start in range(0, len(items), size):
        yield items[start:start + size]
