"""Lexical indexes of one open store, kept per namespace with an explicit lifetime.

A memory index is built on a namespace's first question and reused until the store's version
moves on (a memory was written, updated or deleted anywhere in the store); then it takes in the
rows written since (``dmem.evidence.growing``) instead of reading the namespace again. A
namespace's whole transcript (``transcript``) grows the same way, from the turns recorded since
its last read. A label-filtered or multi-namespace index is built from a full read: a memory
index when the version moved on, a transcript index when the turns it was given changed. At most
``max_entries`` indexes holding at most ``max_documents`` documents in all are kept, least recently
used dropped first, so a store with many namespaces or long transcripts holds only the ones being
asked about, and a long-running process's memory is bounded by these settings, not by the data.
An index larger than the whole budget serves its question and is not kept. The owner is
``Services``: indexes live and die with the store they were read from; nothing is cached at module level.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from dmem.evidence.documents import (
    Labels,
    MemoryIndex,
    TurnIndex,
    TurnPositions,
    build_memory_index,
    build_turn_index,
    memory_document,
    transcript_signature,
    turn_text,
)
from dmem.evidence.growing import MemoryCatalog, TranscriptIndex
from dmem.metadata import labels_key
from dmem.state.schemas import Message
from dmem.store.base import MemoryStore

__all__ = ["MAX_DOCUMENTS", "MAX_ENTRIES", "EvidenceIndexes", "Labels", "MemoryIndex", "TurnIndex", "TurnPositions",
           "build_memory_index", "build_turn_index", "memory_document", "transcript_signature", "turn_text"]

MAX_ENTRIES = 64
MAX_DOCUMENTS = 100_000
"""Default document budget (setting ``index_documents``): a kept document costs about 3 KB (its terms,
its days, its turn or memory, and a turn's embedding row at 384 dims: 3.1 KB measured for a turn)."""
E = TypeVar("E")


class EvidenceIndexes:
    """The lexical indexes of one store, per namespace (memories) or set of namespaces (transcript)."""

    def __init__(self, store: MemoryStore, max_entries: int = MAX_ENTRIES,
                 max_documents: int = MAX_DOCUMENTS) -> None:
        self.store = store
        self.max_entries = max_entries
        self.max_documents = max_documents
        """Most documents kept in all the indexes together; 0: no bound."""
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._documents = 0
        self._weights: dict[Hashable, int] = {}
        """The documents each kept entry was counted with (a grown entry changes in place, so not read back)."""
        self._building: dict[Hashable, _Gate] = {}
        self._lock = threading.Lock()
        self.builds = 0
        """Indexes built so far (tests and benchmarks read it to see reuse)."""

    @property
    def documents(self) -> int:
        """Documents held by the kept indexes, at most ``max_documents`` (when it is not 0)."""
        with self._lock:
            return self._documents

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def memories(self, namespace: str, labels: Labels | None = None) -> MemoryIndex:
        """The namespace's memory index (of the memories carrying ``labels``), brought up to the current version.

        Without labels it grows from the rows written since its last version (a ``MemoryCatalog``);
        with labels, or where a catalog cannot follow (see ``growing``), it is rebuilt from a full read.
        """
        version = self.store.version(namespace)
        if labels:
            key = ("memories", namespace, labels_key(labels))
            return self._get(key, lambda e: e.version == version,
                             lambda old: build_memory_index(self.store, namespace, labels))
        entry = self._get(("memories", namespace), lambda e: _current(e, self.store, namespace, version),
                          lambda old: self._grown_memories(old, namespace, version))
        if isinstance(entry, MemoryIndex):
            return entry
        assert entry.view is not None
        return entry.view

    def _grown_memories(self, old: object, namespace: str, version: int) -> MemoryCatalog | MemoryIndex:
        """The catalog brought up to ``version``: the old one grown, else a new one; a full build where neither can."""
        if isinstance(old, MemoryCatalog) and old.whole and old.refresh(self.store, version) is not None:
            return old
        if not isinstance(old, MemoryIndex):  # a catalog could follow this namespace so far
            catalog = MemoryCatalog(namespace)
            if catalog.refresh(self.store, version) is not None:
                return catalog
        rows = self.store.transcript.last_row(namespace)  # a full build stays with full builds, noting the turns
        return replace(build_memory_index(self.store, namespace), rows=rows)

    def transcript(self, namespace: str) -> TurnIndex:
        """The index of the namespace's whole transcript (time order), grown from the turns recorded since.

        Its freshness costs one read of the rows after the last one seen (nothing when none came),
        not a read or a digest of the whole transcript.
        """
        entry = self._get(("transcript", namespace), lambda e: False,
                          lambda old: self._grown_transcript(old, namespace))
        assert entry.view is not None
        return entry.view

    def _grown_transcript(self, old: object, namespace: str) -> TranscriptIndex:
        if isinstance(old, TranscriptIndex) and old.whole and old.refresh(self.store) is not None:
            return old
        while True:  # a reset since the mark was read: read the mark again
            grown = TranscriptIndex(namespace, self.store.transcript.purge_mark())
            if grown.refresh(self.store) is not None:
                return grown

    def turns(self, namespaces: Sequence[str], messages: Sequence[Message],
              labels: Labels | None = None) -> TurnIndex:
        """The index of these namespaces' transcript (``messages``, in time order), reused while unchanged.

        ``labels`` names the filter ``messages`` were read with, so filtered and whole transcripts
        keep their own entries. One namespace's whole transcript is better served by ``transcript``.
        """
        signature = transcript_signature(messages)
        key = ("turns", tuple(namespaces)) if not labels else ("turns", tuple(namespaces), labels_key(labels))
        return self._get(key, lambda e: e.signature == signature,
                         lambda old: build_turn_index(messages, signature))

    def forget(self, namespace: str | None = None) -> int:
        """Drop the indexes that hold ``namespace`` (every index when None); returns how many went.

        A reset calls it: an index holds the namespace's memories and turns as text, which must not
        outlive their erasure in the store.
        """
        with self._lock:
            gone = [k for k in self._entries if namespace is None or _holds(k, namespace)]
            for key in gone:
                self._entries.pop(key)
                self._documents -= self._weights.pop(key)
            return len(gone)

    def _get(self, key: Hashable, fresh: Callable[[Any], bool], build: Callable[[Any], E]) -> E:
        """The key's entry when ``fresh``, else ``build(old entry or None)`` (one build per key at a time), kept."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and fresh(entry):
                self._entries.move_to_end(key)
                return entry  # type: ignore[no-any-return]
            gate = self._building.get(key) or _Gate()
            self._building[key] = gate
            gate.users += 1
        try:
            with gate.lock:  # one build per key at a time; other keys build in parallel
                with self._lock:
                    entry = self._entries.get(key)
                    if entry is not None and fresh(entry):
                        return entry  # type: ignore[no-any-return]
                built = build(entry)
                with self._lock:
                    self.builds += 1
                    self._keep(key, built)
                return built
        finally:
            with self._lock:
                gate.users -= 1
                if not gate.users:  # the last one out drops the gate: one per key being built, not per key ever
                    del self._building[key]

    def _keep(self, key: Hashable, built: Any) -> None:
        """Keep a new index in place of the key's old one, then drop the least recently used beyond the bounds."""
        if self._entries.pop(key, None) is not None:
            self._documents -= self._weights.pop(key)
        weight = _weight(built)
        if self.max_documents and weight > self.max_documents:
            return  # larger than the whole budget: serves this question only
        self._entries[key] = built
        self._weights[key] = weight
        self._documents += weight
        while len(self._entries) > self.max_entries or (self.max_documents and self._documents > self.max_documents):
            dropped, _ = self._entries.popitem(last=False)
            self._documents -= self._weights.pop(dropped)


def _current(entry: MemoryCatalog | MemoryIndex, store: MemoryStore, namespace: str, version: int) -> bool:
    """Whether a kept memory index is the namespace's at ``version``, its source turns included.

    A catalog checks the turns its memories named before they were recorded; a full build, that
    no turn was recorded since (one cheap read each).
    """
    if isinstance(entry, MemoryCatalog):
        return entry.whole and entry.current(store, version)
    return entry.version == version and entry.rows == store.transcript.last_row(namespace)


def _weight(entry: object) -> int:
    """An index's documents (what the budget counts)."""
    return int(getattr(entry, "documents", 0))


@dataclass
class _Gate:
    """Serialises the builds of one key, and counts the threads using it."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


def _holds(key: Hashable, namespace: str) -> bool:
    """Whether an entry's key names ``namespace``: ("memories", ns, ...) or ("turns", (ns, ...), ...)."""
    if not isinstance(key, tuple) or len(key) < 2:
        return False
    named = key[1]
    return named == namespace or (isinstance(named, tuple) and namespace in named)
