"""An async pool's connection seen as a sync one by a bridged store body (``dmem.store.postgres.bridge``).

``PgDatabase`` and the shared queries call ``execute(...).fetchall()``, ``rowcount``,
``transaction()`` and ``pipeline()`` on a connection; here each of those awaits the matching call
of psycopg's ``AsyncConnection`` on the loop (through ``bridge.wait``), so the same code runs on a
sync-pool connection in a thread and on the loop's async pool.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from typing import Any, TypeVar

import psycopg

from dmem.store.postgres.bridge import wait

Row = dict[str, Any]
T = TypeVar("T")


@contextmanager
def entered(manager: AbstractAsyncContextManager[T]) -> Iterator[T]:
    """``async with manager`` from a bridged body: entered and left on the loop."""
    value = wait(manager.__aenter__())
    try:
        yield value
    except BaseException:
        if not wait(manager.__aexit__(*sys.exc_info())):
            raise
    else:
        wait(manager.__aexit__(None, None, None))


class AwaitedCursor:
    """The part of a cursor the store reads: rows fetched on the loop, ``rowcount`` as is."""

    def __init__(self, cursor: psycopg.AsyncCursor[Row]) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        """Rows the statement changed."""
        return self._cursor.rowcount

    def fetchall(self) -> list[Row]:
        """Every row of the result."""
        return wait(self._cursor.fetchall())

    def fetchone(self) -> Row | None:
        """The next row of the result, or None."""
        return wait(self._cursor.fetchone())


class AwaitedConnection:
    """An ``AsyncConnection`` of the loop's pool with the sync connection's calls the store makes."""

    def __init__(self, conn: psycopg.AsyncConnection[Row]) -> None:
        self.conn = conn

    def execute(self, query: Any, params: Sequence[Any] | None = None) -> AwaitedCursor:
        """Run one statement, awaited on the loop."""
        return AwaitedCursor(wait(self.conn.execute(query, params)))

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A transaction (a savepoint inside one), committed or rolled back on the loop."""
        with entered(self.conn.transaction()) as tx:
            yield tx

    @contextmanager
    def pipeline(self) -> Iterator[Any]:
        """Pipeline mode: the statements inside go in one round trip."""
        with entered(self.conn.pipeline()) as pipe:
            yield pipe


@asynccontextmanager
async def _wrapped(manager: AbstractAsyncContextManager[psycopg.AsyncConnection[Row]],
                   ) -> AsyncIterator[AwaitedConnection]:
    async with manager as conn:
        yield AwaitedConnection(conn)


@contextmanager
def checked_out(manager: AbstractAsyncContextManager[psycopg.AsyncConnection[Row]]) -> Iterator[AwaitedConnection]:
    """A connection of the loop's async pool (``manager`` checks it out and back in) for a bridged body."""
    with entered(_wrapped(manager)) as conn:
        yield conn
