"""Bring a database to the current schema: create it when empty, else upgrade it in place, once.

An upgrade first copies the database to ``dmem.sqlite.v<N>.bak`` (owner-only), then runs every
step from ``schema.MIGRATIONS`` in one transaction under the write lock: it lands whole or not at
all, and another process opening the store meanwhile waits, then finds it already upgraded.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from dmem.errors import StoreError
from dmem.store.local.files import private_file
from dmem.store.local.schema import MIGRATIONS, SCHEMA_VERSION, create
from dmem.store.local.sqlite import Database, store_error

log = logging.getLogger(__name__)


def check_schema(db: Database) -> None:
    """Create or upgrade the schema of a writable database; refuse one written by a newer dmem."""
    found = db.schema_version()
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"store {db.path.parent} uses schema version {found}, but this dmem reads up to version "
            f"{SCHEMA_VERSION}; upgrade dmem to open it"
        )
    if found < SCHEMA_VERSION:
        upgrade(db, found)


def upgrade(db: Database, found: int) -> None:
    """Create the schema (``found == 0``) or migrate from version ``found`` to the current one."""
    if db.read_only:
        raise StoreError(
            f"store {db.path.parent} uses schema version {found} and must be upgraded to {SCHEMA_VERSION}; "
            "open it once for writing (e.g. `dmem ingest` or Memory(path)) to upgrade it in place"
        )
    db.write_lock.acquire()  # re-entrant: the transaction below takes it again
    try:
        found = db.schema_version()  # another process may have done it while we waited for the lock
        if found == SCHEMA_VERSION:
            return
        if found:
            _backup(db, found)  # outside the transaction: SQLite's backup cannot read under our own write
        with db.transaction():
            if found == 0:
                create(db.conn)
                return
            for version in range(found, SCHEMA_VERSION):
                MIGRATIONS[version](db.conn)
            db.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                            (str(SCHEMA_VERSION),))
    finally:
        db.write_lock.release()
    log.warning("upgraded store %s from schema %d to %d (copy of the old database kept as %s)",
                db.path.parent, found, SCHEMA_VERSION, _backup_path(db, found).name)


def _backup_path(db: Database, found: int) -> Path:
    return db.path.with_name(f"{db.path.name}.v{found}.bak")


def _backup(db: Database, found: int) -> None:
    """Copy the database as it is before the migration (the copy is owner-only)."""
    target = _backup_path(db, found)
    private_file(target)
    try:
        copy = sqlite3.connect(target)
        try:
            db.conn.backup(copy)
        finally:
            copy.close()
    except sqlite3.Error as exc:
        raise store_error(exc, db.path, "back up (before upgrading)") from exc
