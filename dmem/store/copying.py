"""``dmem store copy SRC DST``: move a store between backends (local <-> PostgreSQL), then verify it.

The copy goes through the store protocols only, so any backend pair works. Per namespace it
copies the live memories with their vectors, the whole history and the admissions, and every
transcript turn at its position with its formation status (pending turns keep their reason,
unformed ones the caller's labels).
Then it checks counts per namespace and every vector. The destination must be empty.
Known losses: deleted memories travel as history only; an admission's time becomes the copy's,
and a turn not formed yet is retried in the namespace it is recorded in (its speaker map stays behind).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dmem.errors import StoreError
from dmem.store.base import MemoryStore
from dmem.store.namespaces import Routing

log = logging.getLogger(__name__)


@dataclass
class CopyReport:
    """What a copy moved, per kind of row, and the namespaces it covered."""

    namespaces: list[str] = field(default_factory=list)
    memories: int = 0
    history_rows: int = 0
    admissions: int = 0
    turns: int = 0


def all_namespaces(store: MemoryStore) -> list[str]:
    """Every namespace holding any row: memories, history, admissions or turns."""
    return sorted({*store.vectors.namespaces(), *store.history.namespaces(), *store.transcript.namespaces()})


def copy_store(src: MemoryStore, dst: MemoryStore) -> CopyReport:
    """Copy everything in ``src`` into the empty ``dst``, one transaction per namespace, then verify."""
    if src.dim != dst.dim:
        raise StoreError(f"cannot copy {src.dim}-dimensional vectors into a store of dimension {dst.dim}")
    if all_namespaces(dst):
        raise StoreError("the destination store already holds data; copy into an empty store")
    report = CopyReport(namespaces=all_namespaces(src))
    for ns in report.namespaces:
        with dst.transaction():
            report.memories += _copy_memories(src, dst, ns)
            report.history_rows += _copy_history(src, dst, ns)
            report.admissions += _copy_admissions(src, dst, ns)
            report.turns += _copy_turns(src, dst, ns)
    verify_copy(src, dst)
    return report


def _copy_memories(src: MemoryStore, dst: MemoryStore, ns: str) -> int:
    records = src.export_records(ns)
    for record in records:
        vector = src.vectors.vector(ns, record.id)
        if vector is None:
            raise StoreError(f"memory {record.id} of {ns!r} changed during the copy; copy again")
        dst.vectors.add(record, vector)
    return len(records)


def _copy_history(src: MemoryStore, dst: MemoryStore, ns: str) -> int:
    entries = src.history.entries(ns)
    for e in entries:
        dst.history.append(ns, e.memory_id, e.operation, e.old_text, e.new_text, e.reason, at=e.at)
    return len(entries)


def _copy_admissions(src: MemoryStore, dst: MemoryStore, ns: str) -> int:
    conversation_of = {m.turn_id: m.conversation_id for m in src.transcript.messages([ns])}
    decisions = src.history.admissions(ns)
    for decision in decisions:
        dst.history.record_admission(ns, conversation_of.get(decision.turn_id, ""), decision)
    return len(decisions)


def _copy_turns(src: MemoryStore, dst: MemoryStore, ns: str) -> int:
    by_conversation: dict[str, list[Any]] = {}
    for msg in src.transcript.messages([ns]):
        by_conversation.setdefault(msg.conversation_id, []).append(msg)
    unformed = {(u.message.conversation_id, u.message.turn_id): u for u in src.transcript.unformed(ns)}
    count = 0
    for conv, messages in by_conversation.items():
        dst.transcript.append(Routing.of(ns), sorted(messages, key=lambda m: m.seq))  # keeps each seq
        done = [(conv, m.turn_id) for m in messages if (conv, m.turn_id) not in unformed]
        dst.transcript.mark_processed([ns], done)
        count += len(messages)
    for (conv, turn), left in unformed.items():
        if left.status == "pending":
            dst.transcript.mark_pending([ns], [(conv, turn)], left.reason or "")
        if left.labels:
            dst.transcript.label([ns], [(conv, turn)], left.labels)
        if left.routing != Routing.of(ns):
            log.warning("turn %s/%s of %r is not formed yet and was fed by a speaker map; the copy will form it "
                        "in %r only", conv, turn, ns, ns)
    return count


def verify_copy(src: MemoryStore, dst: MemoryStore) -> None:
    """Raise StoreError unless both stores hold the same rows per namespace and the same vectors."""
    for ns in all_namespaces(src):
        counts = [(what, a, b) for what, a, b in (
            ("memories", src.vectors.count(ns), dst.vectors.count(ns)),
            ("history rows", len(src.history.entries(ns)), len(dst.history.entries(ns))),
            ("admissions", len(src.history.admissions(ns)), len(dst.history.admissions(ns))),
            ("turns", src.transcript.count(ns), dst.transcript.count(ns)),
            ("unformed turns", len(src.transcript.unformed(ns)), len(dst.transcript.unformed(ns))),
        ) if a != b]
        if counts:
            what, a, b = counts[0]
            raise StoreError(f"copy check failed: namespace {ns!r} has {a} {what} in the source, {b} in the copy")
        for record in src.export_records(ns):
            mine, theirs = src.vectors.vector(ns, record.id), dst.vectors.vector(ns, record.id)
            if (mine is None or theirs is None or dst.vectors.get(ns, record.id) != record
                    or not np.allclose(mine, theirs, atol=1e-6)):
                raise StoreError(f"copy check failed: memory {record.id} of {ns!r} differs in the copy")
