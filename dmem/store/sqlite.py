"""The store's SQLite database: schema, one shared connection, re-entrant transactions and meta keys."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dmem.errors import StoreError

log = logging.getLogger(__name__)

DB_FILE = "dmem.sqlite"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    id TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    text TEXT NOT NULL,
    json TEXT NOT NULL,
    vector BLOB NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS memories_ns ON memories (namespace, deleted);
CREATE TABLE IF NOT EXISTS history (
    memory_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    operation TEXT NOT NULL,
    old_text TEXT,
    new_text TEXT,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_memory ON history (memory_id);
CREATE INDEX IF NOT EXISTS history_ns ON history (namespace);
CREATE TABLE IF NOT EXISTS admissions (
    conversation_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    speaker TEXT NOT NULL,
    utterance TEXT NOT NULL,
    admitted INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    conversation_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    speaker TEXT NOT NULL,
    text TEXT NOT NULL,
    timestamp TEXT,
    image_caption TEXT,
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'processed', 'pending')),
    pending_reason TEXT,
    PRIMARY KEY (conversation_id, turn_id)
);
CREATE INDEX IF NOT EXISTS messages_status ON messages (status);
CREATE TABLE IF NOT EXISTS conversation_namespaces (
    conversation_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    PRIMARY KEY (conversation_id, namespace)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def utc_now() -> datetime:
    """Return the current time, timezone-aware in UTC."""
    return datetime.now(UTC)


def placeholders(values: Sequence[Any]) -> str:
    """``?, ?, ?`` for an ``IN (...)`` clause with one slot per value."""
    return ", ".join("?" for _ in values)


@dataclass
class TxState:
    """What the open transaction has touched, for the commit and rollback hooks."""

    memory_ids: set[str] = field(default_factory=set)
    """Ids of memories written in this transaction; their vectors must be re-synced on rollback."""
    scopes: list[set[str]] = field(default_factory=list)
    """Ids written inside each open nested transaction (savepoint), innermost last."""

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

    def __init__(self, directory: Path, *, read_only: bool) -> None:
        self.path = directory / DB_FILE
        self.read_only = read_only
        self.lock = threading.RLock()
        self._tx: TxState | None = None
        self.on_commit: list[Hook] = []
        self.on_rollback: list[Hook] = []
        self.closed = False
        self.conn = self._connect()

    def _connect(self) -> sqlite3.Connection:
        if self.read_only and not self.path.exists():
            raise StoreError(f"no store at {self.path.parent} (missing {DB_FILE}); open it for writing first")
        try:
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30.0)
            conn.row_factory = sqlite3.Row
            if self.read_only:
                conn.execute("PRAGMA query_only = ON")
            else:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                conn.executescript(SCHEMA)
                conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('version', '0')")
                sql = "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)"
                conn.execute(sql, (str(SCHEMA_VERSION),))
            conn.execute("SELECT count(*) FROM memories").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open store database {self.path}: {exc}") from exc
        return conn

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
    def transaction(self) -> Iterator[TxState]:
        """Group writes atomically; a nested call joins the outer transaction.

        A nested call is also a savepoint: if it fails, its own writes are undone before the error
        propagates, so a caller that catches the error can still commit the rest consistently.
        """
        self.require_writable()
        with self.lock:
            scope = self._outermost() if self._tx is None else self._savepoint(self._tx)
            with scope as tx:
                yield tx

    @contextmanager
    def _outermost(self) -> Iterator[TxState]:
        self.conn.execute("BEGIN IMMEDIATE")
        tx = self._tx = TxState()
        try:
            yield tx
            self._commit(tx)
        except BaseException:
            self._rollback(tx)
            raise
        finally:
            self._tx = None
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
            self.conn.execute(f"ROLLBACK TO {name}")
            self.conn.execute(f"RELEASE {name}")
            for hook in self.on_rollback:
                hook(TxState(memory_ids=undone))
            raise
        tx.scopes.pop()
        self.conn.execute(f"RELEASE {name}")

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Run several reads against one consistent database snapshot (joins an open transaction)."""
        with self.lock:
            self.check_open()
            if self.conn.in_transaction:
                yield
                return
            self.conn.execute("BEGIN")
            try:
                yield
            finally:
                self.conn.execute("COMMIT")

    def _commit(self, tx: TxState) -> None:
        if tx.memory_ids:
            self.conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'version'")
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"could not commit to {self.path}: {exc}") from exc

    def _rollback(self, tx: TxState) -> None:
        try:
            self.conn.execute("ROLLBACK")
        except sqlite3.Error as exc:  # the transaction may already be gone (e.g. a failed COMMIT)
            log.warning("rollback failed: %s", exc)
        for hook in self.on_rollback:
            hook(tx)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run a read and return every row."""
        with self.lock:
            self.check_open()
            return self.conn.execute(sql, params).fetchall()

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

    def close(self) -> None:
        """Close the connection; safe to call twice."""
        with self.lock:
            if not self.closed:
                self.closed = True
                self.conn.close()
