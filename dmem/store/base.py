"""Small store interfaces, so other backends can follow the FAISS + SQLite defaults."""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from dmem.state.schemas import AdmissionDecision, HistoryEntry, MemoryRecord, Message, Operation


@dataclass(frozen=True)
class SearchFilter:
    """Metadata filters for a vector search; None means 'any'."""

    categories: frozenset[str] | None = None
    """Keep records carrying at least one of these categories."""
    scopes: frozenset[str] | None = None
    provenance: str | None = None
    speaker: str | None = None
    conversation_id: str | None = None

    def matches(self, rec: MemoryRecord) -> bool:
        """True when the record passes every filter that is set."""
        if self.categories is not None and not self.categories.intersection(str(c) for c in rec.categories):
            return False
        if self.scopes is not None and str(rec.scope) not in self.scopes:
            return False
        if self.provenance is not None and str(rec.provenance) != self.provenance:
            return False
        if self.speaker is not None and (rec.speaker or "").lower() != self.speaker.lower():
            return False
        return self.conversation_id is None or rec.conversation_id == self.conversation_id


@dataclass(frozen=True)
class Hit:
    """A search result: the record and its cosine similarity to the query."""

    record: MemoryRecord
    score: float


class VectorIndex(Protocol):
    """Memory records with embeddings, searchable by cosine within one or more namespaces."""

    def add(self, record: MemoryRecord, vector: Sequence[float]) -> None:
        """Insert a new record."""
        ...

    def update(self, record: MemoryRecord, vector: Sequence[float] | None) -> None:
        """Replace a record (and its vector, when given) by id."""
        ...

    def delete(self, memory_id: str) -> MemoryRecord | None:
        """Remove a record from retrieval; returns what was removed."""
        ...

    def get(self, memory_id: str) -> MemoryRecord | None:
        """A record by id, or None."""
        ...

    def search(
        self,
        namespaces: Sequence[str],
        vector: Sequence[float],
        k: int,
        *,
        where: SearchFilter | None = None,
        min_score: float | None = None,
    ) -> list[Hit]:
        """Top-k records of the given namespaces only, best first."""
        ...

    def list(self, namespace: str) -> builtins.list[MemoryRecord]:
        """Every live record of a namespace, oldest first."""
        ...

    def namespaces(self) -> builtins.list[str]:
        """Namespaces that hold at least one record."""
        ...


class HistoryLog(Protocol):
    """Append-only audit trail: operations on memories and admission decisions."""

    def append(
        self,
        memory_id: str,
        namespace: str,
        operation: Operation,
        old_text: str | None,
        new_text: str | None,
        reason: str,
        at: datetime | None = None,
    ) -> None:
        """Record one operation."""
        ...

    def for_memory(self, memory_id: str) -> list[HistoryEntry]:
        """Every operation on one memory, oldest first."""
        ...

    def entries(self, namespace: str | None = None) -> list[HistoryEntry]:
        """Every operation, optionally of one namespace, oldest first."""
        ...

    def record_admission(self, decision: AdmissionDecision, conversation_id: str, namespace: str) -> None:
        """Keep an admission gate decision with its reason."""
        ...

    def admissions(self, namespace: str | None = None) -> list[AdmissionDecision]:
        """Admission decisions, oldest first."""
        ...


class TranscriptLog(Protocol):
    """Every raw message, in order, per conversation; the source Full Deliberation reads."""

    def append(self, messages: Sequence[Message], namespaces: Sequence[str]) -> list[Message]:
        """Record messages (idempotent on conversation_id + turn_id); returns the ones that were new."""
        ...

    def messages(self, namespaces: Sequence[str]) -> list[Message]:
        """All messages of the conversations linked to these namespaces, in time order."""
        ...

    def before(self, conversation_id: str, seq: int, limit: int) -> list[Message]:
        """The last ``limit`` messages of a conversation before position ``seq``."""
        ...

    def mark_pending(self, conversation_id: str, turn_ids: Sequence[str], reason: str) -> None:
        """Flag turns whose formation failed, so a later run retries them."""
        ...

    def clear_pending(self, conversation_id: str, turn_ids: Sequence[str]) -> None:
        """Unflag turns once formed."""
        ...

    def pending(self, conversation_id: str | None = None) -> list[tuple[Message, str]]:
        """Turns awaiting retry, with the failure reason."""
        ...

    def is_processed(self, conversation_id: str, turn_id: str) -> bool:
        """True once a turn has been through formation successfully."""
        ...

    def mark_processed(self, conversation_id: str, turn_ids: Sequence[str]) -> None:
        """Flag turns as formed (clears pending)."""
        ...


@dataclass
class StoreInfo:
    """Counts that describe a store, for the CLI and the API."""

    path: str
    memories: dict[str, int] = field(default_factory=dict)
    messages: int = 0
    history_rows: int = 0
    pending_turns: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class MemoryStore(Protocol):
    """One store directory: vectors, history and transcript, with one writer at a time."""

    vectors: VectorIndex
    history: HistoryLog
    transcript: TranscriptLog

    def transaction(self) -> AbstractContextManager[None]:
        """Group writes so they land together or not at all (nested calls join the outer one)."""
        ...

    def info(self) -> StoreInfo:
        """Counts per namespace."""
        ...

    def version(self) -> int:
        """A number that changes whenever a memory is written, updated or deleted (caches key on it)."""
        ...

    def close(self) -> None:
        """Flush and release the writer lock."""
        ...


def iter_batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    """Consecutive slices of at most ``size`` items."""
    for start in range(0, len(items), size):
        yield items[start:start + size]
