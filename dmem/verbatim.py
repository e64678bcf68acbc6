"""Memories stored as given, with no model call: the record a text becomes, scoped by the privacy detector.

Both the LangGraph store adapter (``Memory.as_store().put``) and ``Memory.add(..., infer=False)``
write through here. No scope step runs, so the detector alone decides: a text holding personal
data (a phone number, a card number, a health condition, ...) is USER_PII; any other is GENERIC
(no knowledge source is ever consulted for a verbatim memory, whatever its scope).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dmem.privacy.detect import personal_kinds
from dmem.state.results import ExchangeResult
from dmem.state.schemas import AppliedOperation, MemoryRecord, Message, MetadataValue, Operation, Scope
from dmem.store.base import MemoryStore
from dmem.store.namespaces import Routing, turn_keys


def verbatim_scope(text: str) -> Scope:
    """USER_PII when the privacy detector finds personal data in the text, else GENERIC."""
    return Scope.USER_PII if personal_kinds(text) else Scope.GENERIC


def write_new(store: MemoryStore, memory_id: str, namespace: str, text: str, vector: list[float],
              labels: Mapping[str, MetadataValue], reason: str, **fields: Any) -> MemoryRecord:
    """Add one memory as given, with its ADD row in history (call inside the caller's transaction)."""
    now = datetime.now(UTC)
    record = MemoryRecord(id=memory_id, namespace=namespace, text=text, scope=verbatim_scope(text),
                          created_at=now, updated_at=now, metadata=dict(labels), **fields)
    store.vectors.add(record, vector)
    store.history.append(namespace, memory_id, Operation.ADD, None, text, reason, now)
    return record


def write_over(store: MemoryStore, old: MemoryRecord, text: str, vector: list[float] | None,
               labels: Mapping[str, MetadataValue], reason: str) -> MemoryRecord:
    """Replace a memory's text and labels as given, with its UPDATE row in history (inside a transaction)."""
    now = datetime.now(UTC)
    scope = verbatim_scope(text) if text != old.text else old.scope
    new = old.model_copy(update={"text": text, "metadata": dict(labels), "updated_at": now, "scope": scope})
    store.vectors.update(new, vector)
    store.history.append(old.namespace, old.id, Operation.UPDATE, old.text, text, reason, now)
    return new


def write_delete(store: MemoryStore, record: MemoryRecord, reason: str) -> None:
    """Remove a memory from retrieval, with its DELETE row in history (inside a transaction)."""
    store.vectors.delete(record.namespace, record.id)
    store.history.append(record.namespace, record.id, Operation.DELETE, record.text, None, reason)


def store_turns(store: MemoryStore, embed: Callable[[list[str]], NDArray[np.float32]], turns: Sequence[Message],
                routing: Routing, labels: Mapping[str, MetadataValue] | None) -> ExchangeResult:
    """``add(..., infer=False)``: each recorded turn's text becomes one memory as said, no model call.

    A turn already formed is skipped (adding twice stores once); each memory goes where the
    routing sends its speaker, carries the call's labels, and its ADD row names this path. The
    turns are marked formed in the same transaction.
    """
    fresh = [t for t in turns if t.text.strip() and not store.transcript.is_processed(routing.origin,
                                                                                         t.conversation_id, t.turn_id)]
    vectors = embed([t.text.strip() for t in fresh]) if fresh else np.empty((0, 0), dtype=np.float32)
    applied: list[AppliedOperation] = []
    with store.transaction():
        for turn, vector in zip(fresh, vectors, strict=True):
            record = write_new(store, str(uuid.uuid4()), routing.namespace_for(turn.speaker), turn.text.strip(),
                               vector, labels or {}, "stored as given (add with infer=False)", speaker=turn.speaker,
                               conversation_id=turn.conversation_id, source_turn_ids=[turn.turn_id],
                               event_time=turn.timestamp)
            applied.append(AppliedOperation(operation=Operation.ADD, memory_id=record.id, namespace=record.namespace,
                                            new_text=record.text, reason="stored as given (add with infer=False)"))
        store.transcript.mark_processed(routing.namespaces(), turn_keys(list(turns)))
    return ExchangeResult(turn_ids=[t.turn_id for t in turns], conversation_id=turns[0].conversation_id if turns
                          else None, status="formed" if applied else "duplicate", operations=applied)
