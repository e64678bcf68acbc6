"""The store contract: small, namespace-explicit protocols every backend implements.

Invariant: every stored row (memory, history row, admission, transcript turn, claim) belongs to
exactly one namespace, and every method that reads or writes rows takes the namespace(s) and
acts inside them only. Ids (memory ids, conversation and turn ids) are never enough on their
own: an id of another namespace behaves exactly like an unknown id. Methods without a namespace
(``namespaces()``, ``count()``, ``info()``) only count or list namespaces, for operators.

Transcript turns of an exchange that feeds several namespaces (a speaker map) are recorded in
each of them (see ``dmem.store.namespaces.Routing``); a read over several namespaces the caller
names merges turns that are identical in all of them.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

import numpy as np

from dmem.state.schemas import AdmissionDecision, HistoryEntry, MemoryRecord, Message, MetadataValue, Operation
from dmem.store.filters import Hit, SearchFilter
from dmem.store.filters import labels_match as labels_match  # re-exported: callers import it from here
from dmem.store.namespaces import Claim, Routing, StoredTurn, TurnKey, UnformedTurn

T = TypeVar("T")


class VectorIndex(Protocol):
    """Memory records with embeddings, searchable by cosine within one or more namespaces."""

    def add(self, record: MemoryRecord, vector: Sequence[float]) -> None:
        """Insert a new record in ``record.namespace``; its id must be new to the whole store."""
        ...

    def update(self, record: MemoryRecord, vector: Sequence[float] | None) -> None:
        """Replace a live record of ``record.namespace`` (and its vector, when given); never moves it."""
        ...

    def delete(self, namespace: str, memory_id: str) -> MemoryRecord | None:
        """Remove a record of the namespace from retrieval; returns it, or None if not live there."""
        ...

    def get(self, namespace: str, memory_id: str) -> MemoryRecord | None:
        """A live record of the namespace by id, or None."""
        ...

    def vector(self, namespace: str, memory_id: str) -> builtins.list[float] | None:
        """The stored unit vector of a live record of the namespace, or None."""
        ...

    def search(
        self,
        namespaces: Sequence[str],
        vector: Sequence[float],
        k: int,
        *,
        where: SearchFilter | None = None,
        min_score: float | None = None,
    ) -> builtins.list[Hit]:
        """Top-k records of the given namespaces only, best first."""
        ...

    async def asearch(
        self,
        namespaces: Sequence[str],
        vector: Sequence[float],
        k: int,
        *,
        where: SearchFilter | None = None,
        min_score: float | None = None,
    ) -> builtins.list[Hit]:
        """``search`` awaited: on the running loop's async pool (PostgreSQL), in a worker thread (local store)."""
        ...

    def list(self, namespace: str) -> builtins.list[MemoryRecord]:
        """Every live record of a namespace, oldest first."""
        ...

    def pages(self, namespace: str, size: int = ...) -> Iterator[builtins.list[tuple[MemoryRecord, np.ndarray]]]:
        """Every live record of a namespace with its unit vector, ``size`` at a time (one query each)."""
        ...

    def changes(self, namespace: str, since: int) -> builtins.list[tuple[int, MemoryRecord, bool]] | None:
        """Rows of the namespace written after store version ``since`` (-1: all), deleted ones included.

        Each as (insertion position, record, deleted) in insertion order; None when a reset
        committed after ``since`` (the caller reads the namespace again).
        """
        ...

    def namespaces(self) -> builtins.list[str]:
        """Namespaces that hold at least one live record."""
        ...

    def count(self, namespace: str | None = None) -> int:
        """Live records, in one namespace or overall."""
        ...


class HistoryLog(Protocol):
    """Append-only audit trail: operations on memories and admission decisions."""

    def append(
        self,
        namespace: str,
        memory_id: str,
        operation: Operation,
        old_text: str | None,
        new_text: str | None,
        reason: str,
        at: datetime | None = None,
    ) -> None:
        """Record one operation on a memory of the namespace."""
        ...

    def for_memory(self, namespace: str, memory_id: str) -> list[HistoryEntry]:
        """Every operation on one memory of the namespace, oldest first (empty for other namespaces)."""
        ...

    def entries(self, namespace: str) -> list[HistoryEntry]:
        """Every operation in a namespace, oldest first."""
        ...

    def record_admission(self, namespace: str, conversation_id: str, decision: AdmissionDecision) -> None:
        """Keep an admission gate decision with its reason."""
        ...

    def admissions(self, namespace: str) -> list[AdmissionDecision]:
        """Admission decisions of a namespace, oldest first."""
        ...

    def namespaces(self) -> list[str]:
        """Namespaces holding at least one operation or admission row, sorted (for operators and copies)."""
        ...

    def live_pages(self, namespace: str, size: int = ...) -> Iterator[list[HistoryEntry]]:
        """The operations on the namespace's live memories, oldest first, ``size`` at a time (one query each)."""
        ...


class TranscriptLog(Protocol):
    """Raw turns per namespace and conversation, in order, with their formation status and claims."""

    def append(self, routing: Routing, messages: Sequence[Message],
               labels: Mapping[str, MetadataValue] | None = None) -> list[Message]:
        """Record turns in every namespace the routing feeds, all or nothing; return them as stored.

        Idempotent on (namespace, conversation_id, turn_id). A turn without an explicit ``seq``
        gets the next free one of its conversation. A turn id recorded before with another
        speaker, text or caption is a DataError naming namespace, conversation and turn.
        ``labels`` (the caller's metadata) are merged into the turns not formed yet, in the same
        transaction, for whoever forms them to write onto their memories.
        """
        ...

    def has_turns(self, namespaces: Sequence[str], labels: Mapping[str, MetadataValue] | None = None) -> bool:
        """Whether ``messages(namespaces, labels)`` holds a turn (an existence query, not a read of the turns)."""
        ...

    async def ahas_turns(self, namespaces: Sequence[str], labels: Mapping[str, MetadataValue] | None = None) -> bool:
        """``has_turns`` awaited (on the loop's async pool on PostgreSQL, in a worker thread on SQLite)."""
        ...

    async def amessages(self, namespaces: Sequence[str],
                        labels: Mapping[str, MetadataValue] | None = None) -> list[Message]:
        """``messages`` awaited (on the loop's async pool on PostgreSQL, in a worker thread on SQLite)."""
        ...

    def messages(self, namespaces: Sequence[str],
                 labels: Mapping[str, MetadataValue] | None = None) -> list[Message]:
        """Every turn of these namespaces in time order; a turn identical in several appears once.

        With ``labels``, only the turns recorded with every one of these labels (``labels_match``):
        an unlabelled turn matches no non-empty filter. None or empty: every turn.
        """
        ...

    def pages(self, namespace: str, size: int = ...) -> Iterator[list[StoredTurn]]:
        """Every turn of the namespace with its labels and status, in recording order, ``size`` at a time."""
        ...

    def since(self, namespace: str, rowid: int) -> list[tuple[int, Message]]:
        """The namespace's turns recorded after row ``rowid`` (-1: all), as (rowid, message) in rowid order."""
        ...

    def last_row(self, namespace: str) -> int:
        """The namespace's last row (-1: none): ``since`` it, only turns recorded later."""
        ...

    def purge_mark(self) -> int:
        """The store version of the last reset (0: none): rows read before it may be gone."""
        ...

    def before(self, namespace: str, conversation_id: str, seq: int, limit: int) -> list[Message]:
        """The last ``limit`` turns of a conversation of the namespace before position ``seq``."""
        ...

    def conversations(self, namespace: str) -> list[str]:
        """Conversations of a namespace, in the order they were first recorded."""
        ...

    def namespaces(self) -> list[str]:
        """Namespaces holding at least one turn."""
        ...

    def count(self, namespace: str | None = None) -> int:
        """Recorded turns, in one namespace or overall (a turn fed to two namespaces counts twice)."""
        ...

    def claim(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str, lease_s: float) -> Claim:
        """Claim the unformed turns for ``worker`` unless a live worker holds them (one transaction)."""
        ...

    def holds(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str) -> bool:
        """True while ``worker`` still holds every unformed copy of these turns (call inside the commit)."""
        ...

    def mark_processed(self, namespaces: Sequence[str], turns: Sequence[TurnKey]) -> None:
        """Flag turns as formed and drop their claims."""
        ...

    def mark_pending(
        self, namespaces: Sequence[str], turns: Sequence[TurnKey], reason: str, worker: str | None = None
    ) -> None:
        """Flag unformed turns as failed with the reason and drop the claims (only ``worker``'s, when given)."""
        ...

    def with_ids(self, namespace: str, turn_ids: Sequence[str]) -> list[Message]:
        """The namespace's recorded turns with these ids, in any conversation (for recognising a resend)."""
        ...

    def release(self, namespaces: Sequence[str], turns: Sequence[TurnKey], worker: str) -> None:
        """Drop ``worker``'s claims on turns it did not finish (they stay unformed)."""
        ...

    def fail(self, worker: str, reason: str) -> None:
        """A run failed: its unformed turns become pending with ``reason`` (written later if the store is down)."""
        ...

    def label(self, namespaces: Sequence[str], turns: Sequence[TurnKey], labels: Mapping[str, MetadataValue]) -> int:
        """Merge ``labels`` into the unformed copies of these turns (new keys win); returns how many changed."""
        ...

    def labels(
        self, namespaces: Sequence[str], turns: Sequence[TurnKey]
    ) -> dict[tuple[str, str, str], dict[str, MetadataValue]]:
        """The labels of these turns' copies, keyed (namespace, conversation_id, turn_id); unlabelled ones left out."""
        ...

    def unformed(self, namespace: str, conversation_id: str | None = None) -> list[UnformedTurn]:
        """Turns of the namespace not formed yet (new or pending, with their labels), by conversation then seq."""
        ...

    def pending(self, namespace: str, conversation_id: str | None = None) -> list[tuple[Message, str]]:
        """Turns of the namespace whose formation failed, with the reason."""
        ...

    def is_processed(self, namespace: str, conversation_id: str, turn_id: str) -> bool:
        """True once a turn of the namespace has been formed."""
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
    """Backend details: dim, schema_version, embedding, read_only, admissions, and each backend's own
    (local: ``loaded_namespaces`` and ``loaded_vectors`` held by this process; PostgreSQL: ``hnsw_namespaces``)."""


class MemoryStore(Protocol):
    """One store: vectors, history and transcript, whose writes group into atomic transactions."""

    vectors: VectorIndex
    history: HistoryLog
    transcript: TranscriptLog

    @property
    def path(self) -> str:
        """Where the store lives, for messages and logs: a local directory, a PostgreSQL URL without its password."""
        ...

    @property
    def dim(self) -> int:
        """Dimension of the store's vectors (fixed when the store is made)."""
        ...

    @property
    def read_only(self) -> bool:
        """True when the handle refuses writes."""
        ...

    @property
    def closed(self) -> bool:
        """True once this handle is closed (it then refuses every call)."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """Group writes so they land together or not at all (nested calls join the outer one)."""
        ...

    def searching(self, ef_search: int) -> MemoryStore:
        """The store as seen by searches that look ``ef_search`` wide (one run's ``hnsw_ef_search``).

        The result shares the store's rows, writes and transactions; close the store, never it. A
        backend that searches exactly (the local store) returns the store itself.
        """
        ...

    async def arun(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the sync store body ``fn(*args)`` on the async path, never blocking the loop.

        The local store runs it in a worker thread; PostgreSQL on the loop, its queries awaited (``postgres.bridge``).
        """
        ...

    def blocking(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, blocking non-store work (embedding) in a store body: a worker thread inside ``arun``."""
        ...

    async def aoffload(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, mostly CPU work, in a worker thread; on PostgreSQL its reads are awaited on the loop."""
        ...

    def export_records(self, namespace: str) -> list[MemoryRecord]:
        """Live records of one namespace, oldest first."""
        ...

    def import_records(
        self, namespace: str, records: Sequence[MemoryRecord], vectors: Sequence[Sequence[float]], reason: str
    ) -> int:
        """Add or replace records of one namespace in one transaction; refuse ids of other namespaces."""
        ...

    def purge(self, namespace: str | None) -> int:
        """Erase a namespace (None: every namespace) for good; returns how many live memories went.

        Unlike ``vectors.delete`` (soft, kept in history) nothing of it stays: memory rows (also
        soft-deleted ones) with their vectors, history and admission rows, transcript turns with
        their labels, claims and pending reasons. One transaction of its own (not inside another);
        cannot be undone. The namespace can be used again afterwards, from nothing.
        """
        ...

    def info(self) -> StoreInfo:
        """Counts per namespace."""
        ...

    def version(self, namespace: str | None = None) -> int:
        """A number that changes whenever a memory is written, updated or deleted (caches key on it).

        With ``namespace``, a backend may count only that namespace's writes (a cache of one
        namespace then survives other users' writes); without it, every write counts.
        """
        ...

    def close(self) -> None:
        """Release this handle (the last handle of a shared store closes it)."""
        ...
