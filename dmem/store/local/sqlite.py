"""The store's SQLite database: one shared connection, re-entrant transactions, meta keys, errors.

Each outermost write transaction takes the store's cross-process write lock, then ``BEGIN
IMMEDIATE``, and releases both at its end: processes take turns per transaction, and readers
(WAL) are never blocked. SQLite failures (a full disk, a read-only file) surface as one
``StoreError`` line, never as a raw ``sqlite3`` traceback.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmem.errors import StoreError, StoreLockedError
from dmem.store.local.files import private_file
from dmem.store.local.writelock import WriteLock

log = logging.getLogger(__name__)

DB_FILE = "dmem.sqlite"


def store_error(exc: sqlite3.Error, path: Path, doing: str) -> StoreError:
    """One actionable line for a SQLite failure."""
    text = str(exc)
    low = text.lower()
    if "disk is full" in low or "disk i/o" in low:
        return StoreError(f"cannot {doing} store {path.parent}: the disk is full or failing ({text}); "
                          "free space and retry (this write was not saved)")
    if "readonly" in low or "read-only" in low:
        return StoreError(f"cannot {doing} store {path.parent}: its files are read-only ({text})")
    if "locked" in low or "busy" in low:
        return StoreLockedError(f"cannot {doing} store {path.parent}: another process kept the database "
                                f"busy ({text}); try again")
    return StoreError(f"cannot {doing} store {path.parent}: {text}")


@dataclass
class TxState:
    """What the open transaction has touched, for the commit and rollback hooks."""

    memory_ids: set[str] = field(default_factory=set)
    """Ids of memories written in this transaction; their vectors must be re-synced on rollback."""
    scopes: list[set[str]] = field(default_factory=list)
    """Ids written inside each open nested transaction (savepoint), innermost last."""
    rev: int | None = None
    """The store version this transaction commits as, once it wrote a memory row."""

    def touch(self, memory_id: str) -> None:
        """Note that a memory row was written, in this transaction and every open nested one."""
        self.memory_ids.add(memory_id)
        for scope in self.scopes:
            scope.add(memory_id)


Hook = Callable[[TxState], None]


class Database:
    """One SQLite connection shared by every thread, serialised by a re-entrant lock.

    A transaction holds the lock from ``BEGIN`` to ``COMMIT``, so other threads never see (or join)
    half-done work. Writes to memories bump the ``version`` meta key inside the same transaction.
    """

    def __init__(self, directory: Path, *, read_only: bool, lock_timeout: float = 10.0) -> None:
        self.path = directory / DB_FILE
        self.read_only = read_only
        self.lock = threading.RLock()
        self.write_lock = WriteLock(directory, lock_timeout)
        self._tx: TxState | None = None
        self.on_begin: list[Hook] = []
        self.on_commit: list[Hook] = []
        self.on_rollback: list[Hook] = []
        self.closed = False
        self.conn = self._connect(lock_timeout)

    def _connect(self, lock_timeout: float) -> sqlite3.Connection:
        if self.read_only and not self.path.exists():
            raise StoreError(f"no store at {self.path.parent} (missing {DB_FILE}); open it for writing first")
        if not self.read_only:
            private_file(self.path)
        try:
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=max(lock_timeout, 1.0))
            conn.row_factory = sqlite3.Row
            if self.read_only:
                conn.execute("PRAGMA query_only = ON")
            else:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as exc:
            raise store_error(exc, self.path, "open") from exc
        return conn

    def schema_version(self) -> int:
        """The schema version written in the database (0 for an empty one)."""
        try:
            has_meta = self.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open store database {self.path}: {exc}") from exc
        if not has_meta:
            return 0
        return int(self.meta("schema_version") or 1)

    def check_open(self) -> None:
        """Raise StoreError when the store was closed."""
        if self.closed:
            raise StoreError(f"store {self.path.parent} is closed; open it again with open_store()")

    def require_writable(self) -> None:
        """Raise StoreError when the store is closed or was opened read-only."""
        self.check_open()
        if self.read_only:
            raise StoreError(
                f"store {self.path.parent} is open read-only; reopen it with read_only=False to write"
            )

    @contextmanager
    def transaction(self, savepoint: bool = True) -> Iterator[TxState]:
        """Group writes atomically; a nested call joins the outer transaction.

        A nested call is also a savepoint: if it fails, its own writes are undone before the error
        propagates, so a caller that catches the error can still commit the rest consistently.
        SQLite savepoints cost no round trip, so one is taken even when ``savepoint`` is False.
        """
        self.require_writable()
        with self.lock:
            scope = self._outermost() if self._tx is None else self._savepoint(self._tx)
            with scope as tx:
                yield tx

    @contextmanager
    def _outermost(self) -> Iterator[TxState]:
        self.write_lock.acquire()
        try:
            self._execute("BEGIN IMMEDIATE")
            tx = self._tx = TxState()
            try:
                for hook in self.on_begin:
                    hook(tx)
                yield tx
                self._commit(tx)
            except sqlite3.Error as exc:
                self._rollback(tx)
                raise store_error(exc, self.path, "write to") from exc
            except BaseException:
                self._rollback(tx)
                raise
            finally:
                self._tx = None
        finally:
            self.write_lock.release()
        for hook in self.on_commit:
            hook(tx)

    @contextmanager
    def _savepoint(self, tx: TxState) -> Iterator[TxState]:
        name = f"dmem_sp{len(tx.scopes)}"
        self.conn.execute(f"SAVEPOINT {name}")
        tx.scopes.append(set())
        try:
            yield tx
        except BaseException:
            undone = tx.scopes.pop()
            try:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")
            except sqlite3.Error as exc:  # SQLite already rolled the whole transaction back (e.g. disk full)
                log.debug("savepoint %s is gone: %s", name, exc)
            for hook in self.on_rollback:
                hook(TxState(memory_ids=undone))
            raise
        tx.scopes.pop()
        self.conn.execute(f"RELEASE {name}")

    def next_rev(self, tx: TxState) -> int:
        """The version this transaction's memory writes are stamped with (the current one plus one)."""
        if tx.rev is None:
            tx.rev = int(self.meta("version") or 0) + 1
        return tx.rev

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Run several reads against one consistent database snapshot (joins an open transaction)."""
        with self.lock:
            self.check_open()
            if self.conn.in_transaction:
                yield
                return
            self._execute("BEGIN")
            try:
                yield
            finally:
                self._execute("COMMIT")

    def _commit(self, tx: TxState) -> None:
        if tx.rev is not None:
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'version'", (str(tx.rev),))
        self.conn.execute("COMMIT")

    def _rollback(self, tx: TxState) -> None:
        try:
            self.conn.execute("ROLLBACK")
        except sqlite3.Error as exc:  # the transaction may already be gone (e.g. a failed COMMIT)
            log.debug("rollback after a failed write: %s", exc)
        for hook in self.on_rollback:
            hook(tx)

    def _execute(self, sql: str) -> None:
        try:
            self.conn.execute(sql)
        except sqlite3.Error as exc:
            raise store_error(exc, self.path, "read" if self.read_only else "write to") from exc

    def in_transaction(self) -> bool:
        """True while a write transaction is open."""
        return self._tx is not None

    def lock_namespaces(self, namespaces: Sequence[str]) -> None:
        """Nothing to do: the outermost transaction already holds the store-wide write lock."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run one statement inside the open transaction (the caller holds ``transaction()``)."""
        return self.conn.execute(sql, params)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run a read and return every row."""
        with self.lock:
            self.check_open()
            try:
                return self.conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise store_error(exc, self.path, "read") from exc

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run a read inside the open write transaction (a read like any other on this connection)."""
        return self.query(sql, params)

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a read and return the first column of the first row (None when there is none)."""
        rows = self.query(sql, params)
        return rows[0][0] if rows else None

    def meta(self, key: str) -> str | None:
        """Read a value from the meta table (None when unset)."""
        value = self.scalar("SELECT value FROM meta WHERE key = ?", (key,))
        return None if value is None else str(value)

    def set_meta(self, key: str, value: str) -> None:
        """Write a value to the meta table (in its own or the current transaction)."""
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def version(self) -> int:
        """Return the memories version, bumped by every committed write to memories."""
        return int(self.meta("version") or 0)

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file and empty it (best effort: readers may hold it)."""
        with self.lock:
            try:
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.info("could not checkpoint %s: %s", self.path, exc)

    def close(self) -> None:
        """Close the connection; safe to call twice."""
        with self.lock:
            if not self.closed:
                self.closed = True
                self.conn.close()

