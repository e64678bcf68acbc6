"""Open a store by where it lives: a directory (the local backend) or a ``postgresql://`` URL."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from dmem.errors import StoreError
from dmem.store.base import MemoryStore
from dmem.store.embedding_meta import recorded_embedding
from dmem.store.urls import is_postgres_url


def open_any_store(location: str | os.PathLike[str], dim: int | None = 384, *, read_only: bool = False,
                   embedding: str | None = None, lock_timeout: float = 10.0, **options: Any) -> MemoryStore:
    """Open the store at ``location``: PostgreSQL for a URL, else the local store in that directory.

    ``lock_timeout`` bounds waiting for other writers (local) or for a database connection
    (PostgreSQL); ``options`` go to the PostgreSQL backend (``pool_size``, ``hnsw_threshold``, ``hnsw``:
    ``Context.hnsw()`` gives the ``hnsw_*`` settings) and are ignored by the local store.
    """
    if is_postgres_url(location):
        try:
            from dmem.store.postgres import open_postgres_store
        except ImportError as exc:
            raise StoreError(f"a postgresql:// store needs the PostgreSQL backend ({exc.name} is missing): "
                             "pip install 'dmem[postgres]'") from None
        return open_postgres_store(str(location), dim, read_only=read_only, embedding=embedding,
                                   timeout=lock_timeout, **options)
    from dmem.store.local.store import open_store

    return open_store(location, dim=dim, read_only=read_only, embedding=embedding, lock_timeout=lock_timeout)


def stored_embedding(location: str | Path) -> str | None:
    """The embedding model the store at ``location`` (directory or postgresql:// URL) records; None if none.

    Opens nothing but its metadata: no vectors are read and a missing local store is not created.
    """
    if is_postgres_url(str(location)):
        from dmem.store.postgres.store import open_postgres_store

        with open_postgres_store(str(location), dim=None, read_only=True) as store:
            return recorded_embedding(store.meta("embedding"))
    from dmem.store.local.sqlite import DB_FILE, Database

    directory = Path(location)
    if not (directory / DB_FILE).is_file():
        return None
    db = Database(directory, read_only=True)
    try:
        return recorded_embedding(db.meta("embedding"))
    finally:
        db.close()
