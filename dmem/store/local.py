"""The default MemoryStore: one directory, one SQLite file, FAISS indexes in memory, one writer."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from filelock import FileLock, Timeout

from dmem.errors import StoreError, StoreLockedError
from dmem.state.schemas import MemoryRecord, Operation
from dmem.store.base import HistoryLog, StoreInfo, TranscriptLog, VectorIndex
from dmem.store.history import LocalHistory
from dmem.store.memories import LocalVectorIndex
from dmem.store.sqlite import Database
from dmem.store.transcript import LocalTranscript
from dmem.store.vectors import remove_stale_temp_files

log = logging.getLogger(__name__)

DEFAULT_DIM = 384
LOCK_FILE = ".lock"
PID_FILE = ".lock.pid"


class LocalStore:
    """FAISS + SQLite store in one directory; use ``open_store()`` to get one.

    ``vectors``, ``history`` and ``transcript`` share one SQLite connection, so a memory change and
    its history row written inside ``transaction()`` commit together or not at all.
    """

    # Typed as the protocols (MemoryStore's members are settable, hence invariant); the concrete
    # classes add count(), conversations() and more, which this class reaches via its private refs.
    vectors: VectorIndex
    history: HistoryLog
    transcript: TranscriptLog

    def __init__(self, path: Path, db: Database, dim: int, lock: FileLock | None) -> None:
        self.path = path
        self.dim = dim
        self._db = db
        self._lock = lock
        self._vectors = LocalVectorIndex(db, dim, path)
        self._history = LocalHistory(db)
        self._transcript = LocalTranscript(db)
        self.vectors, self.history, self.transcript = self._vectors, self._history, self._transcript

    @property
    def read_only(self) -> bool:
        """True when opened without the writer lock; writes raise StoreError."""
        return self._db.read_only

    @property
    def closed(self) -> bool:
        """True after ``close()``."""
        return self._db.closed

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group writes so they land together or not at all (nested calls join the outer one).

        The transaction holds the store's lock, so other threads wait until it ends: keep it short.
        """
        with self._db.transaction():
            yield

    def version(self) -> int:
        """Return the memories version, bumped by every committed write to memories."""
        return self._db.version()

    def info(self) -> StoreInfo:
        """Count memories per namespace, messages, history rows and pending turns."""
        with self._db.reading():
            return StoreInfo(
                path=str(self.path),
                memories=self._vectors.counts(),
                messages=self._transcript.count(),
                history_rows=self._history.count(),
                pending_turns=self._transcript.pending_count(),
                extra={
                    "dim": self.dim,
                    "version": self._db.version(),
                    "read_only": self.read_only,
                    "indexed_vectors": self._vectors.index_size(),
                    "admissions": int(self._db.scalar("SELECT count(*) FROM admissions")),
                },
            )

    def export_records(self, namespace: str | None = None) -> list[MemoryRecord]:
        """Live records of one namespace or of all (namespace by namespace, oldest first)."""
        with self._db.reading():
            names = [namespace] if namespace is not None else self.vectors.namespaces()
            return [record for name in names for record in self.vectors.list(name)]

    def import_records(self, records: Sequence[MemoryRecord], vectors: Sequence[Sequence[float]]) -> int:
        """Add new records and replace live ones, with history rows, in one transaction.

        Ids that were deleted in this store are skipped (the deletion wins). Returns how many
        records were written.
        """
        if len(records) != len(vectors):
            raise StoreError(f"import got {len(records)} records but {len(vectors)} vectors; pair them up")
        written = 0
        with self.transaction():
            for record, vector in zip(records, vectors, strict=True):
                deleted = self._db.scalar("SELECT deleted FROM memories WHERE id = ?", (record.id,))
                if deleted:
                    log.warning("import skips memory %s: it was deleted in this store", record.id)
                    continue
                old = self.vectors.get(record.id)
                if old is None:
                    self.vectors.add(record, vector)
                else:
                    self.vectors.update(record, vector)
                op = Operation.ADD if old is None else Operation.UPDATE
                old_text = None if old is None else old.text
                self.history.append(record.id, record.namespace, op, old_text, record.text, "import")
                written += 1
        return written

    def close(self) -> None:
        """Save the vector snapshot, close the database and release the writer lock; safe to call twice."""
        if not self._db.closed:
            self._vectors.flush()
        self._db.close()
        if self._lock is not None and self._lock.is_locked:
            try:
                (self.path / PID_FILE).unlink(missing_ok=True)
            except OSError as exc:
                log.debug("could not remove %s: %s", self.path / PID_FILE, exc)
            self._lock.release()

    def __enter__(self) -> LocalStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = "read-only" if self.read_only else "writer"
        return f"LocalStore({str(self.path)!r}, dim={self.dim}, {mode}{', closed' if self.closed else ''})"


def open_store(
    path: str | os.PathLike[str],
    dim: int | None = DEFAULT_DIM,
    read_only: bool = False,
    lock_timeout: float = 10.0,
    embedding: str | None = None,
) -> LocalStore:
    """Open (creating if needed) the store in directory ``path``.

    ``embedding`` names the embedding model; a store refuses vectors from another model.

    Writers take an exclusive lock on ``path/.lock``, waiting up to ``lock_timeout`` seconds, then
    raise StoreLockedError. ``read_only=True`` takes no lock and refuses writes. ``dim=None`` adopts
    the dimension of an existing store (384 for a new one).
    """
    directory = Path(path).expanduser()
    lock: FileLock | None = None
    if not read_only:
        directory.mkdir(parents=True, exist_ok=True)
        lock = _acquire_lock(directory, lock_timeout)
    db: Database | None = None
    try:
        db = Database(directory, read_only=read_only)
        store = LocalStore(directory, db, _check_dim(db, directory, dim), lock)
        _check_embedding(db, directory, embedding)
        if not read_only:
            remove_stale_temp_files(directory)
        source = store._vectors.load()
        log.debug("opened %r (vectors from %s)", store, source)
        return store
    except BaseException:
        if db is not None:
            db.close()
        if lock is not None:
            lock.release()
        raise


def _check_dim(db: Database, directory: Path, dim: int | None) -> int:
    """Return the store's vector dimension; record it for a new store, refuse a mismatch."""
    stored = db.meta("dim")
    if stored is None:
        chosen = DEFAULT_DIM if dim is None else dim
        if chosen <= 0:
            raise StoreError(f"dim must be a positive number of dimensions, got {chosen}")
        if not db.read_only:
            db.set_meta("dim", str(chosen))
        return chosen
    if dim is not None and int(stored) != dim:
        raise StoreError(
            f"store {directory} holds {stored}-dimensional vectors but dim={dim} was requested; "
            f"open it with dim={stored} (or dim=None), or use a new directory for this embedding model"
        )
    return int(stored)


def _check_embedding(db: Database, directory: Path, embedding: str | None) -> None:
    """Record the embedding model of a new store; refuse to mix models in one store."""
    if embedding is None:
        return
    stored = db.meta("embedding")
    if stored is None:
        if not db.read_only:
            db.set_meta("embedding", embedding)
        return
    if stored != embedding:
        raise StoreError(
            f"store {directory} was built with embedding model {stored!r}, not {embedding!r}; "
            f"use embedding_model={stored!r} with this store, or a new directory"
        )


def _acquire_lock(directory: Path, timeout: float) -> FileLock:
    """Take the writer lock and record our pid next to it, or raise StoreLockedError."""
    lock = FileLock(directory / LOCK_FILE, timeout=timeout, thread_local=False)
    try:
        lock.acquire()
    except Timeout:
        raise StoreLockedError(
            f"store {directory} is open for writing by another process (pid {_holder_pid(directory)}); "
            "close it or pass read_only=True"
        ) from None
    try:
        tmp = directory / f"{PID_FILE}.{os.getpid()}.tmp"
        tmp.write_text(str(os.getpid()))
        os.replace(tmp, directory / PID_FILE)
    except OSError as exc:
        log.warning("could not record writer pid in %s: %s", directory, exc)
    return lock


def _holder_pid(directory: Path) -> str:
    """Return the pid recorded by the current writer, or 'unknown'."""
    try:
        return (directory / PID_FILE).read_text().strip() or "unknown"
    except OSError:
        return "unknown"
