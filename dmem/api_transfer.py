"""Export and import of ``Memory``: a namespace's memories, vectors, history and transcript as a portable file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dmem import validation as check
from dmem.api_core import MemoryCore
from dmem.export_files import export_format, write_json, write_jsonl
from dmem.export_stream import collect_export, export_header, export_rows
from dmem.exports import ImportCheck, export_parts
from dmem.import_rows import import_rows
from dmem.scopes import scope, scopes


class TransferMethods:
    """``export`` and ``import_`` (mixed into ``Memory``)."""

    def export(self: MemoryCore, path: str | Path | None = None, *, user_id: str = "default",
               user_ids: Sequence[str] | None = None, format: str | None = None) -> dict[str, Any]:
        """The users' memories, vectors, history and transcript as JSON-ready data; written to ``path`` when given.

        The file is created private (0600); ``format`` is 'json' or 'jsonl' (default: JSON Lines for
        a '.jsonl' path, else JSON). A JSON Lines file is written a row at a time as the store is
        read, so a large user is never held in memory: it returns the header with the file's
        ``path`` and ``counts`` per part instead of the rows. ``import_`` reads both formats.
        """
        target = check.output_file(path) if path is not None else None  # checked before any reading
        fmt = export_format(target, format) if target is not None else None
        names = scopes(user_ids, user_id)
        header = export_header(self.store, names, self.embedding)
        rows = export_rows(self.store, names)
        if target is not None and fmt == "jsonl":
            return {**header, "path": str(target), "counts": write_jsonl(target, header, rows)}
        data = collect_export(header, rows)
        if target is not None:
            write_json(target, data)
        return data

    def import_(self: MemoryCore, source: str | Path | dict[str, Any], *, user_id: str = "default",
                namespaces: Mapping[str, str] | None = None, reembed: bool = False) -> int:
        """Load an export into ``user_id`` (or the namespaces ``namespaces`` maps to), all or nothing.

        Refused whole, with the reason: another format or version, another embedding model
        (unless ``reembed=True``), records of namespaces neither ``user_id`` nor mapped, and ids
        that belong to another namespace of this store. Returns how many memories were written.
        A JSON Lines file is read and written a page of rows at a time, in one transaction.
        """
        header, rows = export_parts(source)
        check = ImportCheck(header, user_id=scope(user_id), namespaces=namespaces, embedding=self.embedding,
                            dim=self.store.dim, reembed=reembed)
        with self.store.transaction():
            return import_rows(self.store, self.services.embed, check, rows)
