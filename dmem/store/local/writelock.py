"""The store's write lock: held for one write transaction at a time, never for a store's lifetime.

Several processes may keep one local store open (a ``langgraph dev`` server, ``dmem ingest``, a
notebook). Each write transaction takes ``<store>/.lock`` for its duration, waiting up to
``lock_timeout`` seconds; the holder writes who it is to ``.lock.holder`` so a writer that gives
up can say whom it waited for. Readers never take it (SQLite's WAL lets them read meanwhile).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

from filelock import FileLock, Timeout

from dmem.errors import StoreError, StoreLockedError
from dmem.store.local.files import FILE_MODE, write_private

log = logging.getLogger(__name__)

LOCK_FILE = ".lock"
HOLDER_FILE = ".lock.holder"


def _command() -> str:
    """A short description of this process for lock messages ('dmem ingest chat.json')."""
    argv = [os.path.basename(sys.argv[0] or "python"), *sys.argv[1:4]]
    return " ".join(argv)[:80]


class WriteLock:
    """A cross-process lock file taken around each write transaction (not re-entrant across threads)."""

    def __init__(self, directory: Path, timeout: float) -> None:
        self.directory = directory
        self.timeout = timeout
        self._lock = FileLock(directory / LOCK_FILE, timeout=timeout, thread_local=False, mode=FILE_MODE)

    def acquire(self) -> None:
        """Take the lock or raise StoreLockedError naming the holder and how long we waited."""
        started = time.monotonic()
        try:
            self._lock.acquire()
        except Timeout:
            waited = time.monotonic() - started
            raise StoreLockedError(
                f"store {self.directory} is busy: {self.holder()} holds its write lock; gave up after waiting "
                f"{waited:.1f} s (lock_timeout={self.timeout:g}). Try again when it finishes, raise lock_timeout, "
                "or open the store with read_only=True to read meanwhile"
            ) from None
        except OSError as exc:
            raise StoreError(f"cannot take the write lock of {self.directory}: {exc.strerror or exc}") from exc
        try:
            stamp = f"{os.getpid()}\t{time.time():.3f}\t{_command()}"
            write_private(self.directory / HOLDER_FILE, stamp.encode("utf-8", "replace"), sync=False)
        except OSError as exc:  # only used for messages; a full disk must not stop the write itself
            log.debug("could not record the lock holder in %s: %s", self.directory, exc)

    def release(self) -> None:
        """Release the lock (no-op when not held)."""
        if self._lock.is_locked:
            self._lock.release()

    def holder(self) -> str:
        """Who holds the lock, as recorded by the holder ('process 123 (dmem ingest) since 12:00:01')."""
        try:
            pid, since, command = (self.directory / HOLDER_FILE).read_text(encoding="utf-8").split("\t", 2)
            clock = time.strftime("%H:%M:%S", time.localtime(float(since)))
            return f"process {pid} ({command.strip()}) since {clock}"
        except (OSError, ValueError):
            return "another process"
