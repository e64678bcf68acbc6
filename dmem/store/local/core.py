"""One open local store, shared by every handle of a process: its database, parts and checks."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path

from dmem.errors import StoreError
from dmem.state.schemas import MemoryRecord
from dmem.store.base import StoreInfo
from dmem.store.dialect import SQLITE
from dmem.store.embedding_meta import check_embedding, recorded_embedding
from dmem.store.history import History
from dmem.store.importing import import_records
from dmem.store.local.files import private_dir, tighten
from dmem.store.local.memories import LocalVectorIndex
from dmem.store.local.migrate import check_schema
from dmem.store.local.schema import SCHEMA_VERSION
from dmem.store.local.snapshots import remove_snapshots, remove_stale_files
from dmem.store.local.sqlite import DB_FILE, Database
from dmem.store.local.sync import DEFAULT_BUDGET
from dmem.store.local.writelock import HOLDER_FILE, LOCK_FILE
from dmem.store.purging import PURGE_KEY, purge_rows
from dmem.store.sql import Sql
from dmem.store.transcript import Transcript

log = logging.getLogger(__name__)

STORE_FILES = [DB_FILE, f"{DB_FILE}-wal", f"{DB_FILE}-shm", LOCK_FILE, HOLDER_FILE]


class StoreCore:
    """The shared state behind every handle on one store directory in this process."""

    def __init__(self, path: Path, db: Database, dim: int, vector_cache: int = DEFAULT_BUDGET) -> None:
        self.path = path
        self.db = db
        self.dim = dim
        self.pid = os.getpid()
        self.refs = 0
        self.vectors = LocalVectorIndex(db, dim, path, vector_cache)
        self.sql = Sql(db, SQLITE)
        self.history = History(self.sql)
        self.transcript = Transcript(self.sql)

    @property
    def closed(self) -> bool:
        """True once the database is closed."""
        return self.db.closed

    def check_dim(self, dim: int | None) -> None:
        """Refuse a handle that asks for another vector dimension than the store's."""
        if dim is not None and dim != self.dim:
            raise StoreError(
                f"store {self.path} holds {self.dim}-dimensional vectors but dim={dim} was requested; "
                f"open it with dim={self.dim} (or dim=None), or use a new directory for this embedding model"
            )

    def check_embedding(self, embedding: str | None) -> None:
        """Record the embedding model of a new store; refuse to mix models in one store."""
        if embedding is None:
            return
        stored = self.db.meta("embedding")
        if stored is None:
            if not self.db.read_only:
                self.db.set_meta("embedding", embedding)
            return
        check_embedding(str(self.path), stored, embedding)

    def info(self) -> StoreInfo:
        """Counts over every namespace from SQLite, and what this process holds in memory; loads no vectors."""
        with self.db.reading():
            return StoreInfo(
                path=str(self.path),
                memories=self.vectors.counts(),
                messages=self.transcript.count(),
                history_rows=self.history.count(),
                pending_turns=self.transcript.pending_count(),
                extra={
                    "dim": self.dim,
                    "version": self.db.version(),
                    "schema_version": self.db.schema_version(),
                    "embedding": recorded_embedding(self.db.meta("embedding")),
                    "read_only": self.db.read_only,
                    "loaded_namespaces": len(self.vectors.loaded_namespaces()),
                    "loaded_vectors": self.vectors.loaded_vectors(),
                    "admissions": self.history.admission_count(),
                },
            )

    def import_records(
        self, namespace: str, records: Sequence[MemoryRecord], vectors: Sequence[Sequence[float]], reason: str
    ) -> int:
        """Add or replace records of ``namespace`` with history rows, in one transaction (see ``importing``)."""
        return import_records(self.vectors, self.history, self.db.transaction(), namespace, records, vectors, reason)

    def purge(self, namespace: str | None) -> int:
        """Erase a namespace (None: all) for good: its rows, its loaded vectors and its snapshot file.

        Deleted rows are overwritten with zeros (SQLite's ``secure_delete``) and the write-ahead log
        is checkpointed after the commit, so the text leaves the database files too. Other processes
        see the purge version and drop the vectors they hold (``IndexSync.refresh``).
        """
        with self.db.lock:  # other threads' transactions end first; one still open is this thread's own
            if self.db.in_transaction():
                raise StoreError("a reset runs in a transaction of its own; call it outside store.transaction()")
            with self.db.transaction() as tx:
                self.db.execute("PRAGMA secure_delete = ON")
                try:
                    purged = purge_rows(self.sql, namespace)
                    self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                    (PURGE_KEY, str(self.db.next_rev(tx))))
                    self.vectors.sync.drop_loaded(namespace)
                finally:
                    self.db.execute("PRAGMA secure_delete = OFF")
        remove_snapshots(self.path, namespace)
        self.db.checkpoint()
        log.info("reset %s of store %s: %d memories, rows %s", "everything" if namespace is None else repr(namespace),
                 self.path, purged.memories, purged.rows)
        return purged.memories

    def close(self) -> None:
        """Save the changed vector snapshots and close the database; safe to call twice."""
        if not self.db.closed:
            self.vectors.sync.flush()
        self.db.close()


def open_core(directory: Path, read_only: bool, lock_timeout: float, new_dim: int,
              vector_cache: int = DEFAULT_BUDGET) -> StoreCore:
    """Open the store in ``directory``: schema current, dimension known, no namespace's vectors loaded yet."""
    if not read_only:
        private_dir(directory)
    db = _database(directory, read_only, lock_timeout)
    try:
        core = StoreCore(directory, db, _dimension(db, directory, new_dim), vector_cache)
        if not read_only:
            remove_stale_files(directory)
            tighten(directory, STORE_FILES)
        core.vectors.sync.start()
        log.debug("opened store %s (%s)", directory, "read-only" if read_only else "writer")
        return core
    except BaseException:
        db.close()
        raise


def _database(directory: Path, read_only: bool, lock_timeout: float) -> Database:
    """A database at the current schema; a read-only open of an older store upgrades it first."""
    db = Database(directory, read_only=read_only, lock_timeout=lock_timeout)
    try:
        if not read_only:
            check_schema(db)
            return db
        found = db.schema_version()
        if found >= SCHEMA_VERSION:
            check_schema(db)  # refuses a newer schema
            return db
    except BaseException:
        db.close()
        raise
    db.close()
    try:
        writer = Database(directory, read_only=False, lock_timeout=lock_timeout)
        try:
            check_schema(writer)
        finally:
            writer.close()
    except StoreError as exc:
        raise StoreError(f"store {directory} uses schema version {found} and could not be upgraded to "
                         f"{SCHEMA_VERSION} for reading: {exc}") from exc
    return Database(directory, read_only=True, lock_timeout=lock_timeout)


def _dimension(db: Database, directory: Path, new_dim: int) -> int:
    """The store's vector dimension; a new store records ``new_dim``."""
    stored = db.meta("dim")
    if stored is not None:
        return int(stored)
    if new_dim <= 0:
        raise StoreError(f"dim must be a positive number of dimensions, got {new_dim}")
    if not db.read_only:
        db.set_meta("dim", str(new_dim))
    return new_dim
