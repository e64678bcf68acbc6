"""An import written as its rows are read: memories and turns a page at a time, in the caller's transaction.

``Memory.import_`` runs it inside one store transaction, so an import still lands whole or not at
all (a refused row rolls back what was written before it), while a large JSON Lines file is never
held in memory: only a page of rows per target namespace waits to be written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dmem.export_turns import restore_turns
from dmem.exports import ImportCheck, Row
from dmem.state.schemas import MemoryRecord
from dmem.store.base import MemoryStore

PAGE = 500
"""Rows of one namespace written together."""
Embed = Callable[[list[str]], NDArray[np.float32]]
"""Embeds texts into a new float32 matrix, one row a text (``Services.embed``)."""


def import_rows(store: MemoryStore, embed: Embed, check: ImportCheck, rows: Iterator[Row], page: int = PAGE) -> int:
    """Check and write every memory and turn row (history rows are not imported); returns memories written."""
    memories: dict[str, list[tuple[MemoryRecord, list[float] | None]]] = {}
    turns: dict[str, list[dict[str, Any]]] = {}
    written = 0
    for kind, item in rows:
        if kind == "memory":
            got = check.memory(item)
            if got is not None:
                waiting = memories.setdefault(got[0].namespace, [])
                waiting.append(got)
                if len(waiting) >= page:
                    written += _write(store, embed, check, memories.pop(got[0].namespace))
        elif kind == "turn":
            ns, row = check.turn(item)
            turns.setdefault(ns, []).append(row)
            if len(turns[ns]) >= page:
                restore_turns(store, {ns: turns.pop(ns)})
    check.memories_done()
    for batch in memories.values():
        written += _write(store, embed, check, batch)
    restore_turns(store, turns)
    return written


def _write(store: MemoryStore, embed: Embed, check: ImportCheck,
           batch: list[tuple[MemoryRecord, list[float] | None]]) -> int:
    records = [record for record, _ in batch]
    vectors: Any = ([v for _, v in batch if v is not None] if check.reuse  # rows of floats or of a float32 matrix
                    else embed([r.text for r in records]))
    return store.import_records(records[0].namespace, records, vectors, "import")
