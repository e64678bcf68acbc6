"""Export and import of ``Memory``: a namespace's memories, vectors, history and transcript as a portable file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dmem import validation as check
from dmem.api_core import MemoryCore
from dmem.export_files import export_format, write_export_file
from dmem.export_turns import collect_turns, restore_turns
from dmem.exports import build_export, plan_import, read_export
from dmem.scopes import scope, scopes


class TransferMethods:
    """``export`` and ``import_`` (mixed into ``Memory``)."""

    def export(self: MemoryCore, path: str | Path | None = None, *, user_id: str = "default",
               user_ids: Sequence[str] | None = None, format: str | None = None) -> dict[str, Any]:
        """The users' memories, vectors, history and transcript as JSON-ready data; written to ``path`` when given.

        The file is created private (0600); ``format`` is 'json' or 'jsonl' (default: JSON Lines for
        a '.jsonl' path, else JSON). ``import_`` reads both.
        """
        target = check.output_file(path) if path is not None else None  # checked before any reading
        names = scopes(user_ids, user_id)
        records = [r for ns in names for r in self.store.export_records(ns)]
        vectors = [self.store.vectors.vector(r.namespace, r.id) or [] for r in records]
        history = [h.model_dump(mode="json") for r in records for h in self.store.history.for_memory(r.namespace, r.id)]
        data = build_export(records, vectors, history, self.embedding, self.store.dim, collect_turns(self.store, names))
        if target is not None:
            write_export_file(target, data, export_format(target, format))
        return data

    def import_(self: MemoryCore, source: str | Path | dict[str, Any], *, user_id: str = "default",
                namespaces: Mapping[str, str] | None = None, reembed: bool = False) -> int:
        """Load an export into ``user_id`` (or the namespaces ``namespaces`` maps to), all or nothing.

        Refused whole, with the reason: another format or version, another embedding model
        (unless ``reembed=True``), records of namespaces neither ``user_id`` nor mapped, and ids
        that belong to another namespace of this store. Returns how many memories were written.
        """
        plan = plan_import(read_export(source), user_id=scope(user_id), namespaces=namespaces,
                           embedding=self.embedding, dim=self.store.dim, reembed=reembed)
        written = 0
        with self.store.transaction():
            for ns, records in plan.records.items():
                vectors = (plan.vectors or {}).get(ns) or self.services.embed([r.text for r in records])
                written += self.store.import_records(ns, records, vectors, "import")
            restore_turns(self.store, plan.turns)
        return written
