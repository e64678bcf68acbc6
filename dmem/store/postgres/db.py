"""The PostgreSQL connection pool, per-thread transactions and namespace locks (async pools: ``aio``).

Each thread's outermost ``transaction()`` borrows one pooled connection until it ends; nested
calls join it as savepoints. A store body run bridged on an event loop (``bridge.run``) does the
same with a connection of that loop's async pool, awaited (``awaited``): one code path, two pools.
Lifecycle writes of one namespace are serialised across every process and machine by
transaction-scoped advisory locks (``lock_namespaces``), taken in sorted order so two writers
never deadlock; they are released by COMMIT or ROLLBACK, never leaked.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from dmem.errors import StoreError
from dmem.store.postgres import bridge
from dmem.store.postgres.aio import AsyncPools
from dmem.store.postgres.awaited import checked_out
from dmem.store.postgres.failures import redact_url, store_error
from dmem.store.postgres.handback import HandedBack

log = logging.getLogger(__name__)


Row = dict[str, Any]


@dataclass
class _Tx:
    """One thread's open transaction: its connection and the namespaces it has locked."""

    conn: Any
    """A sync-pool ``psycopg.Connection``, or an ``AwaitedConnection`` of a loop's async pool (bridged)."""
    depth: int = 0
    locked: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)
    """Namespaces whose memories this transaction added to (checked for an HNSW index after commit)."""


class PgDatabase:
    """A connection pool plus the calling thread's transaction, shared by every part of one store."""

    def __init__(self, url: str, *, read_only: bool, pool_size: int, timeout: float) -> None:
        self.url = url
        self.where = redact_url(url)
        self.read_only = read_only
        self.timeout = timeout
        self.closed = False
        self.store_key = 0
        """First key of this store's advisory locks (derived from its schema), set once the schema is known."""
        self.after_commit: list[Any] = []
        self._local = threading.local()
        self._pool: ConnectionPool[psycopg.Connection[Row]] | None = None
        self._pool_size = pool_size
        self._configure: Any = None
        self._handed_back = HandedBack()
        """When each pooled connection was last handed back (``_check`` skips fresh ones)."""
        self.aio = AsyncPools(url, self.where, pool_size=pool_size, timeout=timeout)
        """The async pools (one per event loop) that async reads await on the caller's loop."""

    def start_pool(self, configure: Any) -> None:
        """Open the pool; ``configure`` runs on every new connection (e.g. registering the vector type)."""
        self._configure = configure
        try:
            self._pool = ConnectionPool(
                self.url, min_size=1, max_size=self._pool_size, timeout=self.timeout, open=False,
                kwargs={"row_factory": dict_row, "autocommit": True}, configure=configure,
                check=self._check,  # after a restart, hand out live connections only
                name=f"dmem {self.where}",
            )
            self._pool.open(wait=True, timeout=self.timeout)
        except (psycopg.Error, PoolTimeout) as exc:
            if self._pool is not None:
                self._pool.close()
            raise self.error(exc, "open") from exc

    def connect(self) -> psycopg.Connection[Row]:
        """A single connection outside the pool (schema setup, index builds); the caller closes it."""
        try:
            return psycopg.connect(self.url, row_factory=dict_row, autocommit=True, connect_timeout=int(self.timeout))
        except psycopg.Error as exc:
            raise self.error(exc, "open") from exc

    def error(self, exc: BaseException, doing: str) -> StoreError:
        """``store_error`` for this store; a pool timeout first probes whether the server is up at all."""
        if bridge.awaiting():
            return bridge.wait(self.aio.error(exc, doing))
        return store_error(exc, self.where, doing, reachable=not isinstance(exc, PoolTimeout) or self.reachable())

    def reachable(self) -> bool:
        """True when a fresh connection to the server can be made now (a short probe outside the pool)."""
        try:
            with psycopg.connect(self.url, connect_timeout=max(1, min(int(self.timeout), 5))):
                return True
        except psycopg.Error:
            return False

    def check_open(self) -> None:
        """Raise StoreError when the store was closed."""
        if self.closed:
            raise StoreError(f"store {self.where} is closed; open it again")

    def require_writable(self) -> None:
        """Raise StoreError when the store is closed or was opened read-only."""
        self.check_open()
        if self.read_only:
            raise StoreError(f"store {self.where} is open read-only; reopen it with read_only=False to write")

    @property
    def _tx(self) -> _Tx | None:
        body = bridge.current()
        return getattr(self._local, "tx", None) if body is None else body.tx

    @_tx.setter
    def _tx(self, tx: _Tx | None) -> None:
        body = bridge.current()
        if body is None:
            self._local.tx = tx
        else:
            body.tx = tx

    def in_transaction(self) -> bool:
        """True while the calling thread has a transaction open."""
        return self._tx is not None

    @contextmanager
    def transaction(self, savepoint: bool = True) -> Iterator[_Tx]:
        """Group writes atomically; a nested call joins the thread's transaction as a savepoint.

        ``savepoint=False`` joins without one: for a single statement, which cannot half-succeed,
        it saves two round trips per write.
        """
        self.require_writable()
        tx = self._tx
        if tx is not None and not savepoint:
            yield tx
            return
        if tx is not None:
            tx.depth += 1
            try:
                with tx.conn.transaction():
                    yield tx
            finally:
                tx.depth -= 1
            return
        with self._outermost() as tx:
            yield tx
        for hook in self.after_commit:
            hook(tx)

    @contextmanager
    def _outermost(self) -> Iterator[_Tx]:
        try:
            with self._checkout("write to") as conn:
                tx = self._tx = _Tx(conn)
                try:
                    with conn.transaction():
                        yield tx
                finally:
                    self._tx = None
        except (psycopg.Error, PoolTimeout) as exc:
            raise self.error(exc, "write to") from exc

    def _checkout(self, doing: str) -> AbstractContextManager[Any]:
        """A connection: of the loop's async pool for a bridged body, else of the sync pool."""
        if bridge.awaiting():
            return checked_out(self.aio.connection())
        return self._connection(doing)

    @contextmanager
    def _connection(self, doing: str) -> Iterator[psycopg.Connection[Row]]:
        """A sync-pool connection; right after an outage, while the pool still backs off, a direct one."""
        assert self._pool is not None
        pooled = True
        try:
            conn = self._pool.getconn()
        except PoolTimeout as exc:
            conn, pooled = self._after_outage(exc, doing), False
        try:
            yield conn
        finally:
            if pooled:
                self._handed_back.note(conn, 4 * self._pool_size + 16)
                self._pool.putconn(conn)
            else:
                conn.close()

    def _check(self, conn: psycopg.Connection[Row]) -> None:
        """The pool's check before a checkout: a query on a connection idle for ``TRUSTED_SECONDS`` or more."""
        if self._handed_back.needs_check(conn):
            ConnectionPool.check_connection(conn)

    def _after_outage(self, exc: PoolTimeout, doing: str) -> psycopg.Connection[Row]:
        """A direct connection when the pool could grow but did not, and the server is back; else the error.

        After an outage the pool reconnects with an exponential backoff, so it can stay empty for
        seconds after the server returned; a caller should not wait for that.
        """
        assert self._pool is not None
        if self._pool.get_stats().get("pool_size", 0) >= self._pool_size or not self.reachable():
            raise self.error(exc, doing) from exc  # every connection is in use (contention), or an outage
        log.info("the pool of %s is still reconnecting after an outage; using a direct connection", self.where)
        conn = self.connect()
        if self._configure is not None:
            self._configure(conn)
        return conn

    def lock_namespaces(self, namespaces: Sequence[str]) -> None:
        """Serialise writers of these namespaces until the transaction ends (every process, every host)."""
        tx = self._tx
        assert tx is not None, "lock_namespaces runs inside transaction()"
        for ns in sorted(set(namespaces) - tx.locked):
            tx.conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (self.store_key, ns))
            tx.locked.add(ns)

    def execute(self, sql: Any, params: Sequence[Any] | None = None) -> psycopg.Cursor[Row]:
        """Run one statement inside the thread's open transaction."""
        tx = self._tx
        assert tx is not None, "execute runs inside transaction()"
        return tx.conn.execute(sql, params)

    def fetch(self, sql: Any, params: Sequence[Any] | None = None) -> list[Row]:
        """Run a read inside the thread's open transaction; a failure fails the transaction."""
        return self.execute(sql, params).fetchall()

    def query(self, sql: Any, params: Sequence[Any] | None = None) -> list[Row]:
        """Run a read (inside the thread's transaction, when one is open) and return every row."""
        self.check_open()
        tx = self._tx
        try:
            if tx is not None:
                return tx.conn.execute(sql, params).fetchall()
            with self._checkout("read") as conn:
                return conn.execute(sql, params).fetchall()
        except (psycopg.Error, PoolTimeout) as exc:
            raise self.error(exc, "read") from exc

    @contextmanager
    def reading(self) -> Iterator[psycopg.Connection[Row]]:
        """A connection for several reads (the thread's transaction's, or a pooled one)."""
        self.check_open()
        tx = self._tx
        if tx is not None:
            yield tx.conn
            return
        try:
            with self._checkout("read") as conn:
                yield conn
        except (psycopg.Error, PoolTimeout) as exc:
            raise self.error(exc, "read") from exc

    async def aquery(self, sql: Any, params: Sequence[Any] | None = None) -> list[Row]:
        """``query`` awaited on the running loop's async pool (never inside a thread's transaction)."""
        self.check_open()
        return await self.aio.query(sql, params)

    def areading(self) -> AbstractAsyncContextManager[psycopg.AsyncConnection[Row]]:
        """An async connection of the running loop's pool for several reads."""
        self.check_open()
        return self.aio.reading()

    def scalar(self, sql: Any, params: Sequence[Any] | None = None) -> Any:
        """Run a read and return the first column of the first row (None when there is none)."""
        rows = self.query(sql, params)
        return next(iter(rows[0].values())) if rows else None

    def close(self) -> None:
        """Close the pool; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        self.aio.close()
        if self._pool is not None:
            self._pool.close()
