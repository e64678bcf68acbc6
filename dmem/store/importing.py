"""Bulk import of memory records into one namespace, the same for every backend."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from dmem.errors import StoreError
from dmem.state.schemas import MemoryRecord, Operation
from dmem.store.base import HistoryLog

log = logging.getLogger(__name__)


class ImportIndex(Protocol):
    """The vector index calls an import makes (both backends' indexes have them)."""

    def owners(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """Namespace of each id known to the store, live or deleted."""
        ...

    def get(self, namespace: str, memory_id: str) -> MemoryRecord | None:
        """A live record of the namespace by id, or None."""
        ...

    def add(self, record: MemoryRecord, vector: Sequence[float]) -> None:
        """Insert a new record."""
        ...

    def update(self, record: MemoryRecord, vector: Sequence[float] | None) -> None:
        """Replace a live record."""
        ...


def import_records(index: ImportIndex, history: HistoryLog, transaction: AbstractContextManager[Any],
                   namespace: str, records: Sequence[MemoryRecord], vectors: Sequence[Sequence[float]],
                   reason: str) -> int:
    """Add new records and replace live ones of ``namespace``, with history rows, in ``transaction``.

    Ids deleted in this namespace are skipped (the deletion wins); ids of another namespace are
    refused, and then nothing is written. Returns how many records were written.
    """
    if len(records) != len(vectors):
        raise StoreError(f"import got {len(records)} records but {len(vectors)} vectors; pair them up")
    strangers = sorted(r.id for r in records if r.namespace != namespace)
    if strangers:
        raise StoreError(f"import into namespace {namespace!r} got records of other namespaces: {strangers[:3]}")
    written = 0
    with transaction:
        owners = index.owners([r.id for r in records])
        taken = sorted(i for i, ns in owners.items() if ns != namespace)
        if taken:
            raise StoreError(f"memory ids {taken[:3]} already belong to another namespace of this store; "
                             "import refused (nothing was written)")
        for record, vector in zip(records, vectors, strict=True):
            old = index.get(namespace, record.id)
            if old is None and record.id in owners:
                log.warning("import skips memory %s: it was deleted in this store", record.id)
                continue
            if old is None:
                index.add(record, vector)
            else:
                index.update(record, vector)
            op = Operation.ADD if old is None else Operation.UPDATE
            history.append(namespace, record.id, op, None if old is None else old.text, record.text, reason)
            written += 1
    return written
