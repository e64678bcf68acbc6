"""Indexes of one namespace that grow with its rows instead of being rebuilt from a full read.

A question's indexes used to be rebuilt from all of the namespace's memories and its whole
transcript whenever the data moved on, so each question's passing memory peak grew with the
user's data (and the allocator kept the pages). Here the store is asked only for what changed:
memory rows written after the last version read (``VectorIndex.changes``) and turns recorded after
the last row read (``TranscriptLog.since``). New documents take new *slots* of an append-only
``Postings``; each refresh makes an immutable view (``MemoryIndex``, ``TurnIndex``) listing the live
slots in the order a full rebuild would list them, so rankings are exactly a full rebuild's.

What cannot be followed row by row makes the caller build afresh (``refresh`` returns None): a reset
since the last read, a memory naming no conversation (its source turn is "the first with that id"
in the whole transcript), a source turn recorded after its memory, or more dead slots (updated or
deleted memories) than live ones.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Sequence
from datetime import date, datetime
from typing import cast

import numpy as np

from dmem.evidence.bm25 import Postings, terms
from dmem.evidence.documents import (
    MemoryIndex,
    TurnIndex,
    TurnPositions,
    TurnVectors,
    asked_sources,
    memory_document,
    turn_document,
)
from dmem.evidence.search import DocIndex
from dmem.state.schemas import MemoryRecord, Message
from dmem.store.base import MemoryStore
from dmem.store.records import sort_time
from dmem.store.transcript import TimeKey, time_keys

MIN_DEAD = 64
"""Dead slots (replaced or deleted memories) always tolerated before a rebuild; beyond it, up to the live ones."""


class TranscriptIndex:
    """One namespace's whole transcript (no label filter), grown from the turns recorded since the last read."""

    def __init__(self, namespace: str, purge_mark: int) -> None:
        self.namespace = namespace
        self.purge_mark = purge_mark
        self.rowid = -1
        """The last row read."""
        self._messages: list[Message] = []
        self._rowids: list[int] = []
        self._keys: list[TimeKey] = []
        self._conversations: dict[str, list[int]] = {}
        """Slots of each conversation, by (seq, rowid)."""
        self._postings = Postings()
        self._days: list[tuple[date, ...]] = []
        self._by_turn: dict[tuple[str, str], int] = {}
        self._by_id: dict[str, list[int]] = {}
        self._vectors = TurnVectors(self._messages)
        self._order: list[int] = []
        """Slots in time order."""
        self.whole = True
        """False while a refresh changes the index (an exception there leaves it unusable: it is rebuilt)."""
        self.view: TurnIndex | None = None

    @property
    def documents(self) -> int:
        """Turns held: the index's weight against the budget."""
        return len(self._messages)

    def refresh(self, store: MemoryStore) -> TurnIndex | None:
        """The index of the transcript as it is now (None: a reset since the last read; build afresh)."""
        if store.transcript.purge_mark() != self.purge_mark:
            return None
        added = store.transcript.since(self.namespace, self.rowid)
        if self.view is not None and not added:
            return self.view
        self.whole = False  # from here on only this process's memory changes
        first = len(self._messages)
        for rowid, message in added:
            slot = len(self._messages)
            self._messages.append(message)
            self._rowids.append(rowid)
            self._by_turn[(message.conversation_id, message.turn_id)] = slot
            self._by_id.setdefault(message.turn_id, []).append(slot)
        self._keys.extend([(0, datetime.min, "", 0, 0)] * len(added))
        documents = [turn_document(m) for _, m in added]
        self._postings.add([terms(text) for text, _ in documents])
        self._days.extend(days for _, days in documents)
        self._place(range(first, len(self._messages)))
        self.rowid = max([self.rowid, *(rowid for rowid, _ in added)])
        self.view = self._make_view()
        self.whole = True
        return self.view

    def _place(self, slots: range) -> None:
        """Key the new slots in time order (re-keying a conversation only when its old keys change) and order them."""
        by_conversation: dict[str, list[int]] = {}
        for slot in slots:
            by_conversation.setdefault(self._messages[slot].conversation_id, []).append(slot)
        resort = False
        for conversation, new in by_conversation.items():
            old = self._conversations.setdefault(conversation, [])
            new.sort(key=lambda s: (self._messages[s].seq, self._rowids[s]))
            untimed_before = bool(old) and self._keys[old[-1]][0] == 1
            appended = not old or (self._messages[new[0]].seq, self._rowids[new[0]]) > (
                self._messages[old[-1]].seq, self._rowids[old[-1]])
            if appended and not (untimed_before and any(self._messages[s].timestamp for s in new)):
                before = self._keys[old[-1]][1] if old and not untimed_before else None
                turns = [(self._rowids[s], self._messages[s]) for s in new]
                self._keys_for(new, time_keys(conversation, turns, before))
                old.extend(new)
            else:  # an earlier seq, or the first timestamp of an untimed conversation: its old keys change
                old.extend(new)
                old.sort(key=lambda s: (self._messages[s].seq, self._rowids[s]))
                self._keys_for(old, time_keys(conversation, [(self._rowids[s], self._messages[s]) for s in old]))
                resort = True
        if resort:
            self._order = sorted(range(len(self._messages)), key=self._keys.__getitem__)
            return
        for slot in sorted(slots, key=self._keys.__getitem__):
            bisect.insort(self._order, slot, key=self._keys.__getitem__)

    def _keys_for(self, slots: Sequence[int], keys: Sequence[TimeKey]) -> None:
        for slot, key in zip(slots, keys, strict=True):
            self._keys[slot] = key

    def _make_view(self) -> TurnIndex:
        order = np.asarray(self._order, dtype=np.int64)
        position = np.full(len(self._messages), -1, dtype=np.int64)
        position[order] = np.arange(len(order), dtype=np.int64)
        return TurnIndex(f"rows {self.rowid}, reset {self.purge_mark}", tuple(self._messages[s] for s in self._order),
                         DocIndex.view(self._postings, self._days, order),
                         TurnPositions.view(self._by_turn, self._by_id, position), self._vectors, order)


class MemoryCatalog:
    """One namespace's memories (no label filter), grown from the rows written since the last version read."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self.version = -1
        """The store version the catalog has read up to (-1: nothing read)."""
        self._records: list[MemoryRecord | None] = []
        """Per slot, its record (None once replaced or deleted)."""
        self._sort: list[tuple[datetime, int]] = []
        """Per slot: (created_at, insertion position), the order ``VectorIndex.list`` gives."""
        self._sources: list[tuple[str, ...]] = []
        self._asked: list[frozenset[str]] = []
        """Per slot, the source turns another speaker said (``asked_sources``)."""
        self._slot_of: dict[str, int] = {}
        """The live slot of each memory id."""
        self._order: list[int] = []
        """Live slots in list order."""
        self._postings = Postings()
        self._days: list[tuple[date, ...]] = []
        self._missing: set[tuple[str, str]] = set()
        """Source turns (conversation, turn id) a memory names that were not recorded when it was read."""
        self._rowid: int | None = None
        """The last transcript row of the namespace when the catalog last looked (None: never)."""
        self._lock = threading.Lock()
        self.whole = True
        """False while a refresh changes the catalog (an exception there leaves it unusable: it is rebuilt)."""
        self.view: MemoryIndex | None = None

    @property
    def documents(self) -> int:
        """Memories held, replaced and deleted ones included: the index's weight against the budget."""
        return len(self._records)

    def refresh(self, store: MemoryStore, version: int) -> MemoryIndex | None:
        """The index of the namespace's memories at ``version`` (read before), or None: build it afresh."""
        if self._rowid is None:
            self._rowid = store.transcript.last_row(self.namespace)
        elif self.missing_recorded(store):
            return None  # a memory's missing source turn was recorded: its document changes
        changes = store.vectors.changes(self.namespace, self.version)
        if changes is None or any(not deleted and not r.conversation_id for _, r, deleted in changes):
            return None
        live = [(pos, record) for pos, record, deleted in changes if not deleted]
        found = self._recorded_sources(store, live)
        self.whole = False  # from here on only this process's memory changes: no read can fail half-way
        for _, record, _ in changes:
            old = self._slot_of.pop(record.id, None)
            if old is not None:  # the slot dies: only its postings stay (views made before keep their own copies)
                self._order.remove(old)
                self._records[old], self._sources[old], self._asked[old] = None, (), frozenset()
        documents = []
        for _, record in live:
            turns = [(record.conversation_id or "", t) for t in record.source_turn_ids]
            self._missing.update(turn for turn in turns if turn not in found)
            sources = [found[turn] for turn in turns if turn in found]
            self._sources.append(tuple(m.render() for m in sources))
            self._asked.append(asked_sources(record, sources))
            documents.append(memory_document(record, sources))
        self._postings.add([terms(text) for text, _ in documents])
        self._days.extend(days for _, days in documents)
        for pos, record in live:
            slot = len(self._records)
            self._records.append(record)
            self._sort.append((sort_time(record), pos))
            self._slot_of[record.id] = slot
            bisect.insort(self._order, slot, key=self._sort.__getitem__)
        if len(self._records) - len(self._order) > max(MIN_DEAD, len(self._order)):
            return None  # mostly replaced or deleted memories: a rebuild holds less
        self.version = version
        self.whole = True
        order = np.asarray(self._order, dtype=np.int64)
        self.view = MemoryIndex(version, tuple(cast(MemoryRecord, self._records[s]) for s in self._order),
                                DocIndex.view(self._postings, self._days, order),
                                tuple(self._sources[s] for s in self._order),
                                asked=tuple(self._asked[s] for s in self._order))
        return self.view

    def current(self, store: MemoryStore, version: int) -> bool:
        """Whether the index is the namespace's at ``version``, its memories' source turns included.

        The version is the one read, and no source turn a memory named before it was recorded has
        been recorded since (one read of the new turns, only while there is such a turn).
        """
        return self.version == version and not (self._missing and self.missing_recorded(store))

    def missing_recorded(self, store: MemoryStore) -> bool:
        """Whether a source turn missing when its memory was read is among the turns recorded since the last look."""
        with self._lock:
            added = store.transcript.since(self.namespace, self._rowid if self._rowid is not None else -1)
            if any((m.conversation_id, m.turn_id) in self._missing for _, m in added):
                return True
            self._rowid = max([self._rowid if self._rowid is not None else -1, *(rowid for rowid, _ in added)])
            return False

    def _recorded_sources(self, store: MemoryStore,
                          live: Sequence[tuple[int, MemoryRecord]]) -> dict[tuple[str, str], Message]:
        """The recorded source turns the new memories name, by (conversation, turn id): one read."""
        wanted = list(dict.fromkeys(t for _, r in live for t in r.source_turn_ids))
        if not wanted:
            return {}
        return {(m.conversation_id, m.turn_id): m for m in store.transcript.with_ids(self.namespace, wanted)}
