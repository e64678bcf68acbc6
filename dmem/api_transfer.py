"""Export and import of ``Memory``: a namespace's memories, vectors, history and transcript as a portable file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from dmem import validation as check
from dmem.export_files import export_format, write_export_file
from dmem.export_turns import collect_turns, restore_turns
from dmem.exports import build_export, plan_import, read_export
from dmem.scopes import scope, scopes

if TYPE_CHECKING:
    from dmem.api import Memory


class TransferMethods:
    """``export`` and ``import_`` (mixed into ``Memory``)."""

    def export(self, path: str | Path | None = None, *, user_id: str = "default",
               user_ids: Sequence[str] | None = None, format: str | None = None) -> dict[str, Any]:
        """The users' memories, vectors, history and transcript as JSON-ready data; written to ``path`` when given.

        The file is created private (0600); ``format`` is 'json' or 'jsonl' (default: JSON Lines for
        a '.jsonl' path, else JSON). ``import_`` reads both.
        """
        mem = cast("Memory", self)
        target = check.output_file(path) if path is not None else None  # checked before any reading
        names = scopes(user_ids, user_id)
        records = [r for ns in names for r in mem.store.export_records(ns)]
        vectors = [mem.store.vectors.vector(r.namespace, r.id) or [] for r in records]
        history = [h.model_dump(mode="json") for r in records for h in mem.store.history.for_memory(r.namespace, r.id)]
        data = build_export(records, vectors, history, mem.embedding, mem.store.dim, collect_turns(mem.store, names))
        if target is not None:
            write_export_file(target, data, export_format(target, format))
        return data

    def import_(self, source: str | Path | dict[str, Any], *, user_id: str = "default",
                namespaces: Mapping[str, str] | None = None, reembed: bool = False) -> int:
        """Load an export into ``user_id`` (or the namespaces ``namespaces`` maps to), all or nothing.

        Refused whole, with the reason: another format or version, another embedding model
        (unless ``reembed=True``), records of namespaces neither ``user_id`` nor mapped, and ids
        that belong to another namespace of this store. Returns how many memories were written.
        """
        mem = cast("Memory", self)
        plan = plan_import(read_export(source), user_id=scope(user_id), namespaces=namespaces,
                           embedding=mem.embedding, dim=mem.store.dim, reembed=reembed)
        written = 0
        with mem.store.transaction():
            for ns, records in plan.records.items():
                vectors = (plan.vectors or {}).get(ns) or mem.services.embed([r.text for r in records])
                written += mem.store.import_records(ns, records, vectors, "import")
            restore_turns(mem.store, plan.turns)
        return written
