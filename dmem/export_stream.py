"""An export read from the store page by page: its header, then memory, history and turn rows as they come.

A JSON Lines export writes each row as it is read (``dmem.export_files.write_jsonl``), so exporting a
user holds one page of rows, never the user; the JSON format and the returned dict collect the rows.
Memories come with their vectors, history is that of the live memories, and turns carry their labels
and whether they were formed (``dmem.export_turns`` restores them).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from dmem.exports import FORMAT, VERSION, encode_vector
from dmem.store.base import MemoryStore

PAGE = 500
"""Rows read per query."""
PARTS = {"memory": "memories", "history": "history", "turn": "transcript"}
"""Row kind -> the list that holds such rows in the export dict."""

Row = tuple[str, dict[str, Any]]
"""(kind, JSON-ready row)."""


def export_header(store: MemoryStore, names: Sequence[str], embedding: str | None) -> dict[str, Any]:
    """Format, version, embedding model and dimension, and the namespaces that hold memories or turns."""
    present = sorted(ns for ns in dict.fromkeys(names) if store.vectors.count(ns) or store.transcript.count(ns))
    return {"format": FORMAT, "version": VERSION, "embedding": embedding, "dim": store.dim, "namespaces": present}


def export_rows(store: MemoryStore, names: Sequence[str], page: int = PAGE) -> Iterator[Row]:
    """The memories, then the history, then the turns of these namespaces, read ``page`` rows at a time."""
    names = list(dict.fromkeys(names))
    for ns in names:
        for records in store.vectors.pages(ns, page):
            for record, unit in records:
                yield "memory", {**record.model_dump(mode="json"), "vector": encode_vector(unit)}
    for ns in names:
        for entries in store.history.live_pages(ns, page):
            for entry in entries:
                yield "history", entry.model_dump(mode="json")
    for ns in names:
        for turns in store.transcript.pages(ns, page):
            for turn in turns:
                yield "turn", {"namespace": turn.namespace, **turn.message.model_dump(mode="json"),
                               "labels": turn.labels, "formed": turn.formed}


def collect_export(header: dict[str, Any], rows: Iterator[Row]) -> dict[str, Any]:
    """The whole export as one dict (the JSON format, and ``Memory.export`` without a JSON Lines file)."""
    data: dict[str, Any] = {**header, **{part: [] for part in PARTS.values()}}
    for kind, row in rows:
        data[PARTS[kind]].append(row)
    return data
