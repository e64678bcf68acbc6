"""The default MemoryStore: one directory, one SQLite file, FAISS indexes of the namespaces in use, many processes.

Within a process, ``open_store`` on the same directory (and mode) returns a new handle on one
shared open store: Memory objects, per-run settings and graph runs all share it. The store is
closed when its last handle closes; a closed handle refuses use. Across processes, writers take
turns per write transaction (see :mod:`dmem.store.local.writelock`) and readers are never blocked.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar, cast

from dmem.errors import StoreError
from dmem.state.schemas import MemoryRecord
from dmem.store.base import HistoryLog, StoreInfo, TranscriptLog, VectorIndex
from dmem.store.local.core import StoreCore, open_core
from dmem.store.local.sync import DEFAULT_BUDGET

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_DIM = 384

_OPEN: dict[tuple[str, bool], StoreCore] = {}
"""Open stores of this process by (directory, read_only); an entry lives while it has handles."""
_OPEN_LOCK = threading.Lock()


class _Guarded:
    """Forwards to a store part while its handle is open, so a closed handle cannot be used."""

    def __init__(self, target: object, handle: LocalStore) -> None:
        self._target = target
        self._handle = handle

    def __getattr__(self, name: str) -> Any:
        self._handle.check_open()
        return getattr(self._target, name)


class LocalStore:
    """A handle on a FAISS + SQLite store directory; get one with ``open_store()``.

    ``vectors``, ``history`` and ``transcript`` share one SQLite connection, so a memory change and
    its history row written inside ``transaction()`` commit together or not at all.
    """

    vectors: VectorIndex
    history: HistoryLog
    transcript: TranscriptLog

    def __init__(self, core: StoreCore) -> None:
        self._core = core
        self._closed = False
        self._vectors, self._history, self._transcript = core.vectors, core.history, core.transcript
        self.vectors = cast(VectorIndex, _Guarded(core.vectors, self))
        self.history = cast(HistoryLog, _Guarded(core.history, self))
        self.transcript = cast(TranscriptLog, _Guarded(core.transcript, self))

    @property
    def path(self) -> str:
        """Where the store lives: its directory (absolute)."""
        return str(self._core.path)

    @property
    def dim(self) -> int:
        """Vector dimension of the store."""
        return self._core.dim

    @property
    def read_only(self) -> bool:
        """True when opened read-only; writes raise StoreError."""
        return self._core.db.read_only

    @property
    def closed(self) -> bool:
        """True after ``close()``."""
        return self._closed or self._core.db.closed

    def check_open(self) -> None:
        """Raise StoreError when this handle was closed."""
        if self._closed:
            raise StoreError(f"store {self.path} is closed; open it again with open_store()")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group writes so they land together or not at all (nested calls join the outer one).

        The outermost transaction holds the store's write lock (other threads and processes wait
        until it ends): keep it short, and do model or embedding calls before it.
        """
        self.check_open()
        with self._core.db.transaction():
            yield

    async def arun(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the sync store body ``fn(*args)`` in a worker thread (SQLite and FAISS work stays off the loop)."""
        self.check_open()
        return await asyncio.to_thread(fn, *args)

    async def aoffload(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker thread: ``arun`` (no store work here is on the loop)."""
        return await self.arun(fn, *args)

    def blocking(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` right here: a local store body already runs in a worker thread."""
        return fn(*args)

    def searching(self, ef_search: int) -> LocalStore:
        """The handle itself: flat indexes search every vector of a namespace, so no search width applies."""
        return self

    def version(self, namespace: str | None = None) -> int:
        """Return the memories version, bumped by every committed write to memories (of any namespace)."""
        self.check_open()
        return self._core.db.version()

    def info(self) -> StoreInfo:
        """Count memories per namespace, messages, history rows and pending turns; loads no vectors.

        ``extra`` tells how many namespaces (``loaded_namespaces``) and vectors (``loaded_vectors``)
        this process holds in memory now; searches load the others.
        """
        self.check_open()
        return self._core.info()

    def export_records(self, namespace: str) -> list[MemoryRecord]:
        """Live records of one namespace, oldest first."""
        self.check_open()
        return self._core.vectors.list(namespace)

    def import_records(
        self, namespace: str, records: Sequence[MemoryRecord], vectors: Sequence[Sequence[float]],
        reason: str = "import",
    ) -> int:
        """Add or replace records of one namespace in one transaction; refuse ids of other namespaces."""
        self.check_open()
        return self._core.import_records(namespace, records, vectors, reason)

    def purge(self, namespace: str | None) -> int:
        """Erase a namespace (None: every namespace) for good; returns how many live memories went.

        Rows, loaded vectors and the snapshot file go; deleted rows are zeroed in the database file.
        """
        self.check_open()
        return self._core.purge(namespace)

    def close(self) -> None:
        """Release this handle; the last handle of the store saves the vector snapshot and closes it."""
        with _OPEN_LOCK:
            if self._closed:
                return
            self._closed = True
            self._core.refs -= 1
            if self._core.refs > 0:
                return
            for key, core in list(_OPEN.items()):
                if core is self._core:
                    del _OPEN[key]
        self._core.close()

    def __enter__(self) -> LocalStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = "read-only" if self.read_only else "writer"
        return f"LocalStore({self.path!r}, dim={self.dim}, {mode}{', closed' if self.closed else ''})"


def open_store(
    path: str | os.PathLike[str],
    dim: int | None = DEFAULT_DIM,
    read_only: bool = False,
    lock_timeout: float = 10.0,
    embedding: str | None = None,
    vector_cache: int = DEFAULT_BUDGET,
) -> LocalStore:
    """Open (creating if needed) the store in directory ``path`` and return a new handle on it.

    ``embedding`` names the embedding model; a store refuses vectors from another model.
    ``dim=None`` adopts the dimension of an existing store (384 for a new one). Each write
    transaction waits up to ``lock_timeout`` seconds for other writers, then raises
    StoreLockedError; ``read_only=True`` refuses writes and never waits for writers. Handles on
    the same directory and mode in one process share one open store (the first opener's
    ``lock_timeout`` and ``vector_cache`` apply); close every handle you open.

    A namespace's vectors are loaded into memory on its first search; beyond ``vector_cache``
    loaded vectors the least recently searched namespaces are dropped (and reloaded from disk
    when searched again). ``vector_cache=0`` never drops any.
    """
    directory = Path(path).expanduser().resolve()
    key = (str(directory), read_only)
    with _OPEN_LOCK:
        core = _OPEN.get(key)
        if core is None or core.closed or core.pid != os.getpid():
            core = open_core(directory, read_only, lock_timeout, dim if dim is not None else DEFAULT_DIM, vector_cache)
            _OPEN[key] = core
        try:
            core.check_dim(dim)
            core.check_embedding(embedding)
        except BaseException:
            if core.refs == 0:
                del _OPEN[key]
                core.close()
            raise
        core.refs += 1
        return LocalStore(core)


def open_handles() -> dict[str, int]:
    """Open stores of this process and their handle counts (for diagnostics and tests)."""
    with _OPEN_LOCK:
        return {f"{path}{' (read-only)' if ro else ''}": core.refs for (path, ro), core in _OPEN.items()}
