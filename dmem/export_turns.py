"""The transcript part of an export: each namespace's turns with their labels and formation status.

An imported user must be deliberated over like the original, so an export carries every recorded
turn (Full Deliberation reads them) with the caller's labels (label filters read them) and whether
it was formed (an unformed one is formed by ``retry_pending`` after the import; a formed one never
again).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from dmem.errors import DataError
from dmem.state.namespaces import validate_namespace
from dmem.state.schemas import Message
from dmem.store.base import MemoryStore
from dmem.store.namespaces import Routing, turn_keys


def plan_turn(item: object, index: int, mapping: Mapping[str, str], user_id: str) -> tuple[str, dict[str, Any]]:
    """One export turn row checked: (target namespace, planned row); a DataError naming a bad row."""
    if not isinstance(item, dict):
        raise DataError(f"turn {index} of the export is {type(item).__name__}, not an object")
    ns = validate_namespace(item.get("namespace"), f"namespace of turn {index}")
    target = mapping.get(ns) or (user_id if ns == user_id else None)
    if target is None:
        raise DataError(f"the export holds turns of namespace {ns!r}, not {user_id!r}; import them with "
                        f"user_id=<that namespace>, or map them with namespaces={{old: new}}")
    try:
        message = Message.model_validate({k: v for k, v in item.items() if k not in ("namespace", "labels", "formed")})
    except ValidationError as exc:
        raise DataError(f"turn {index} of the export is invalid: {exc.errors()[0]['msg']}") from None
    labels = item.get("labels") or {}
    if not isinstance(labels, dict):
        raise DataError(f"turn {index} of the export has labels that are not an object")
    return target, {"message": message, "labels": labels, "formed": item.get("formed", True)}


def restore_turns(store: MemoryStore, planned: Mapping[str, list[dict[str, Any]]]) -> int:
    """Record the planned turns in their target namespaces, with labels and status (inside a transaction)."""
    written = 0
    for ns, rows in planned.items():
        routing = Routing.of(ns)
        by_labels: dict[str, list[Message]] = {}
        for row in rows:
            by_labels.setdefault(json.dumps(row["labels"], sort_keys=True), []).append(row["message"])
        for labels, messages in by_labels.items():
            written += len(store.transcript.append(routing, messages, json.loads(labels) or None))
        formed = [row["message"] for row in rows if row["formed"]]
        if formed:
            store.transcript.mark_processed([ns], turn_keys(formed))
    return written
