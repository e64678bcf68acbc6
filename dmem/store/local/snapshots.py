"""On-disk snapshots of the vector indexes: one atomic file per namespace, in ``faiss/``.

A snapshot only saves reading and decoding a namespace's vectors from SQLite when a process
loads it, so it is stamped with the store version it reflects; the loader catches it up with
newer rows and ignores it when it does not match SQLite. One file per namespace lets a process
load (and save) only the namespaces it uses.
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dmem.store.local.files import FILE_MODE, private_dir

log = logging.getLogger(__name__)

SNAPSHOT_DIR = "faiss"
"""Subdirectory of the store holding the per-namespace snapshots."""
LEGACY_SNAPSHOT_FILE = "faiss.snapshot.npz"
"""The whole-store snapshot of earlier versions; no longer read, removed by a writer's open."""
_TMP_PREFIX = "."


@dataclass
class Snapshot:
    """A saved copy of one namespace's vectors, stamped with the store version it matches."""

    version: int
    namespace: str
    ids: list[str]
    vectors: np.ndarray


def snapshot_path(store_dir: Path, namespace: str) -> Path:
    """The file of a namespace's snapshot (named by a hash: namespaces may hold any character)."""
    digest = hashlib.sha256(namespace.encode("utf-8")).hexdigest()[:32]
    return store_dir / SNAPSHOT_DIR / f"{digest}.npz"


def save_snapshot(store_dir: Path, snap: Snapshot) -> None:
    """Write atomically (temp file in the same directory, then ``os.replace``); an empty one is removed.

    No fsync: a snapshot is only a cache, saved for many namespaces at a time (an fsync each cost
    7 ms here). A file torn by an operating-system crash fails its zip checksum or the loader's
    checks and is rebuilt from SQLite; an older one is caught up.
    """
    path = snapshot_path(store_dir, snap.namespace)
    if not snap.ids:
        path.unlink(missing_ok=True)
        return
    private_dir(path.parent)
    tmp = path.parent / f"{_TMP_PREFIX}{path.stem}.{os.getpid()}.tmp"
    with os.fdopen(os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, FILE_MODE), "wb") as fh:
        np.savez(
            fh,
            version=np.array(snap.version, dtype=np.int64),
            namespace=np.array(snap.namespace, dtype=str),
            ids=np.array(snap.ids, dtype=str),
            vectors=snap.vectors,
        )
    os.replace(tmp, path)


def load_snapshot(store_dir: Path, namespace: str, dim: int) -> Snapshot | None:
    """Read a namespace's snapshot; None when it is missing, unreadable or not of this namespace."""
    path = snapshot_path(store_dir, namespace)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            snap = Snapshot(
                version=int(data["version"]),
                namespace=str(data["namespace"]),
                ids=[str(x) for x in data["ids"].reshape(-1)],
                vectors=np.asarray(data["vectors"], dtype=np.float32),
            )
    except Exception as exc:  # any decoding failure just means "rebuild from SQLite"
        log.info("ignoring unreadable vector snapshot %s: %s", path, exc)
        return None
    if snap.namespace != namespace or snap.vectors.shape != (len(snap.ids), dim):
        log.info("ignoring vector snapshot %s: not namespace %r's %d-dim vectors", path, namespace, dim)
        return None
    return snap


def remove_snapshots(store_dir: Path, namespace: str | None) -> None:
    """Delete a namespace's snapshot file (None: every namespace's), e.g. after a reset erased its vectors."""
    paths = [snapshot_path(store_dir, namespace)] if namespace is not None else \
        list((store_dir / SNAPSHOT_DIR).glob("*.npz"))
    for path in paths:
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("could not remove vector snapshot %s: %s", path, exc)


def remove_stale_files(store_dir: Path) -> None:
    """Delete the legacy whole-store snapshot and temp files of saves killed before their rename."""
    legacy = store_dir / LEGACY_SNAPSHOT_FILE
    leftovers = [legacy] if legacy.exists() else []
    temps = [*store_dir.glob(".faiss.snapshot.*.tmp"), *(store_dir / SNAPSHOT_DIR).glob(f"{_TMP_PREFIX}*.tmp")]
    for tmp in temps:
        pid = tmp.name.rsplit(".", 2)[-2]
        if not (pid.isdigit() and _alive(int(pid))):
            leftovers.append(tmp)
    for path in leftovers:
        try:
            path.unlink()
        except OSError as exc:
            log.warning("could not remove stale snapshot file %s: %s", path, exc)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
