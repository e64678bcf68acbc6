"""Private files: a store directory is created 0700 and every file in it 0600 (memories are personal)."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from dmem.errors import StoreError

log = logging.getLogger(__name__)

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(directory: Path) -> None:
    """Create the store directory (and missing parents) with mode 0700; leave an existing one as it is."""
    if directory.is_dir():
        return
    try:
        directory.mkdir(parents=True, mode=DIR_MODE, exist_ok=True)
        os.chmod(directory, DIR_MODE)  # mkdir's mode is filtered by the umask; be exact
    except OSError as exc:
        raise StoreError(f"cannot create store directory {directory}: {exc.strerror or exc}") from exc


def private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if missing, and drop group/other bits from an existing one."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_RDWR, FILE_MODE)
        os.close(fd)
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, mode & ~0o077)
    except OSError as exc:
        raise StoreError(f"cannot create store file {path}: {exc.strerror or exc}") from exc


def tighten(directory: Path, names: list[str]) -> None:
    """Make existing store files (the database's WAL and shared-memory files too) owner-only."""
    for name in names:
        path = directory / name
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
            if mode & 0o077:
                os.chmod(path, mode & ~0o077)
        except FileNotFoundError:
            continue
        except OSError as exc:
            log.warning("could not make %s private: %s", path, exc)


def write_private(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Write ``data`` to a new 0600 file (replacing what was there), flushed to disk when ``sync``."""
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, FILE_MODE)
    try:
        os.write(fd, data)
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)
