"""The async side of a PostgreSQL store: one ``AsyncConnectionPool`` per event loop, awaited on that loop.

An async pool belongs to the loop that opened it (its connections wait on that loop's selector),
so each loop that reads gets its own, opened lazily on first use. A pool ends with its loop:
``asyncio.run`` (and every runner that calls ``loop.shutdown_asyncgens()``) closes it on that loop;
``close()`` of the store closes the pools of loops still alive from any thread. Connections are in
autocommit; a write transaction of a bridged store body (``bridge``) opens its own on one of them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector_async
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from dmem.errors import StoreError
from dmem.store.postgres.failures import store_error
from dmem.store.postgres.handback import HandedBack

log = logging.getLogger(__name__)

Row = dict[str, Any]
AsyncConn = psycopg.AsyncConnection[Row]

async def _configure(conn: AsyncConn) -> None:
    await register_vector_async(conn)


async def _closed_with_loop(pools: AsyncPools, loop: asyncio.AbstractEventLoop,
                            pool: AsyncConnectionPool[AsyncConn]) -> AsyncGenerator[None, None]:
    """Kept suspended while the loop lives; the loop's ``shutdown_asyncgens()`` resumes it to close the pool."""
    try:
        yield
    finally:
        pools.forget(loop, pool)
        await pool.close()


class AsyncPools:
    """The async connection pools of one store, one per event loop that used it."""

    def __init__(self, url: str, where: str, *, pool_size: int, timeout: float) -> None:
        self.url = url
        self.where = where
        self.pool_size = pool_size
        self.timeout = timeout
        self._pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Any, Any]] = (
            weakref.WeakKeyDictionary())
        self._lock = threading.Lock()
        self._closing: set[asyncio.Future[Any]] = set()
        self._busy: dict[int, int] = {}
        """Connections each pool (by id) has handed out now: all of them busy is contention, not an outage."""
        self._handed_back = HandedBack()
        """When each pooled connection was last handed back (``_check`` skips fresh ones)."""

    def __len__(self) -> int:
        """How many loops have an open pool."""
        return len(self._pools)

    async def _pool(self) -> AsyncConnectionPool[AsyncConn]:
        """The running loop's pool, opened and filled (``pool_size`` connections) on first use."""
        loop = asyncio.get_running_loop()
        with self._lock:
            found = self._pools.get(loop)
            if found is not None:
                return found[0]  # type: ignore[no-any-return]
            pool: AsyncConnectionPool[AsyncConn] = AsyncConnectionPool(
                self.url, min_size=self.pool_size, max_size=self.pool_size, timeout=self.timeout, open=False,
                kwargs={"row_factory": dict_row, "autocommit": True}, configure=_configure,
                check=self._check, name=f"dmem async {self.where}",
            )
            keeper = _closed_with_loop(self, loop, pool)
            self._pools[loop] = (pool, keeper)
        try:  # filled now, never grown later: a connect in flight when the loop ends would hang its shutdown
            await pool.open(wait=True, timeout=self.timeout)
        except BaseException:
            self.forget(loop, pool)
            await pool.close()
            raise
        await keeper.asend(None)  # registers it with the loop, which closes it at shutdown
        return pool

    def forget(self, loop: asyncio.AbstractEventLoop, pool: AsyncConnectionPool[AsyncConn]) -> None:
        """Drop the loop's pool from the table (it is being closed)."""
        with self._lock:
            self._busy.pop(id(pool), None)
            if self._pools.get(loop, (None,))[0] is pool:
                del self._pools[loop]

    async def error(self, exc: BaseException, doing: str) -> StoreError:
        """``store_error`` for this store; a pool timeout first probes whether the server is up at all."""
        return store_error(exc, self.where, doing,
                           reachable=not isinstance(exc, PoolTimeout) or await self.reachable())

    async def reachable(self) -> bool:
        """True when a fresh connection to the server can be made now (a short probe outside the pool)."""
        try:
            conn = await psycopg.AsyncConnection.connect(self.url, connect_timeout=max(1, min(int(self.timeout), 5)))
        except psycopg.Error:
            return False
        await conn.close()
        return True

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConn]:
        """A pooled connection of the running loop for several reads; failures become StoreErrors."""
        try:
            pool = await self._pool()
            async with self._connection(pool) as conn:
                yield conn
        except (psycopg.Error, PoolTimeout) as exc:
            raise await self.error(exc, "read") from exc

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConn]:
        """A pooled connection of the running loop, errors unmapped (the caller maps them, as ``PgDatabase`` does)."""
        async with self._connection(await self._pool()) as conn:
            yield conn

    async def query(self, sql: Any, params: Sequence[Any] | None = None) -> list[Row]:
        """Run one read on the running loop's pool and return every row."""
        async with self.reading() as conn:
            cursor = await conn.execute(sql, params)
            return await cursor.fetchall()

    @asynccontextmanager
    async def _connection(self, pool: AsyncConnectionPool[AsyncConn]) -> AsyncIterator[AsyncConn]:
        """A pooled connection; right after an outage, while the pool still backs off, a direct one."""
        try:
            conn = await pool.getconn()
        except PoolTimeout:
            if self._busy.get(id(pool), 0) >= self.pool_size or not await self.reachable():
                raise  # every connection is in use (contention), or an outage: mapped by the caller
            log.info("the async pool of %s is still reconnecting after an outage; using a direct connection",
                     self.where)
            direct = await AsyncConn.connect(self.url, row_factory=dict_row, autocommit=True,
                                             connect_timeout=max(1, int(self.timeout)))
            await _configure(direct)
            try:
                yield direct
            finally:
                await direct.close()
            return
        self._busy[id(pool)] = self._busy.get(id(pool), 0) + 1
        try:
            yield conn
        finally:
            self._busy[id(pool)] -= 1
            self._handed_back.note(conn, 4 * self.pool_size * max(1, len(self._pools)) + 16)
            await pool.putconn(conn)

    async def _check(self, conn: AsyncConn) -> None:
        """The pool's check before a checkout: a query on a connection idle for ``TRUSTED_SECONDS`` or more."""
        if self._handed_back.needs_check(conn):
            await AsyncConnectionPool.check_connection(conn)

    def close(self) -> None:
        """Close every loop's pool: awaited on its loop when that loop still runs, else dropped with it."""
        with self._lock:
            pools = list(self._pools.items())
            self._pools.clear()
        for loop, (pool, keeper) in pools:
            self._close_on(loop, pool, keeper)

    def _close_on(self, loop: asyncio.AbstractEventLoop, pool: Any, keeper: Any) -> None:
        if loop.is_closed():  # its connections were left to the garbage collector with it
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:  # close() called from a coroutine of that very loop: cannot wait here
            task = loop.create_task(keeper.aclose())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        elif loop.is_running():
            asyncio.run_coroutine_threadsafe(keeper.aclose(), loop).result(timeout=self.timeout + 5)
        elif running is None:
            loop.run_until_complete(keeper.aclose())
        else:
            log.warning("cannot close the async pool of %s: its event loop is stopped and another one runs here",
                        self.where)
