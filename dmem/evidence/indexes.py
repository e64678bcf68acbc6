"""Lexical indexes of one open store, kept per namespace with an explicit lifetime.

A memory index is built on a namespace's first question and reused until the store's version
moves on (a memory was written, updated or deleted anywhere in the store); a transcript index is
reused while the transcript it was built from is unchanged (same turns, same texts). At most
``max_entries`` indexes holding at most ``max_documents`` documents in all are kept, least recently
used dropped first, so a store with many namespaces or long transcripts holds only the ones being
asked about, and a long-running process's memory is bounded by these settings, not by the data.
An index larger than the whole budget serves its question and is not kept. The owner is
``Services``: indexes live and die with the store they were read from; nothing is cached at module level.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from dmem.evidence.cues import date_words
from dmem.evidence.search import DocIndex
from dmem.metadata import labels_key
from dmem.state.schemas import MemoryRecord, Message, MetadataValue
from dmem.store.base import MemoryStore, labels_match

MAX_ENTRIES = 64
MAX_DOCUMENTS = 100_000
"""Default document budget (setting ``index_documents``): a kept document costs about 3 KB (its terms,
its days, its turn or memory, and a turn's embedding row at 384 dims: 3.1 KB measured for a turn)."""
E = TypeVar("E")
Labels = Mapping[str, MetadataValue]
"""A label filter: keep what carries every one of these values (see ``dmem.store.base.labels_match``)."""


class TurnPositions:
    """Where a memory's source turns are in a list of turns.

    A turn is found by its conversation and id; a memory that names no conversation names its turns
    by id alone, and finds the first such turn.
    """

    def __init__(self, messages: Sequence[Message]) -> None:
        self._by_turn = {(m.conversation_id, m.turn_id): i for i, m in enumerate(messages)}
        self._by_id: dict[str, int] = {}
        for i, m in enumerate(messages):
            self._by_id.setdefault(m.turn_id, i)

    def of(self, record: MemoryRecord) -> list[int]:
        """Positions of the record's source turns that are in the list, in the record's order."""
        found = ((self._by_turn.get((record.conversation_id, t)) if record.conversation_id else self._by_id.get(t))
                 for t in record.source_turn_ids)
        return [i for i in found if i is not None]


def turn_text(message: Message) -> str:
    """What a turn says, its shared photo's caption included, without speaker or time."""
    caption = f" [shares a photo: {message.image_caption}]" if message.image_caption else ""
    return f"{message.text}{caption}".strip()


@dataclass(frozen=True)
class MemoryIndex:
    """One namespace's memories as documents: the memory, the text of its source turns and its days."""

    version: int
    records: tuple[MemoryRecord, ...]
    docs: DocIndex
    sources: tuple[tuple[str, ...], ...]
    """Each memory's source turns as rendered for embedding (``Message.render``)."""

    @property
    def documents(self) -> int:
        """Documents indexed: the index's weight against the budget."""
        return self.docs.bm25.size


@dataclass
class TurnIndex:
    """Transcript turns as documents: speaker, text and day; their embeddings are computed on first use."""

    signature: str
    messages: tuple[Message, ...]
    docs: DocIndex
    positions: TurnPositions
    """Where memories' source turns are among ``messages``."""
    _matrix: NDArray[np.float32] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def documents(self) -> int:
        """Documents indexed: the index's weight against the budget."""
        return self.docs.bm25.size

    def matrix(self, embed: Callable[[list[str]], NDArray[np.float32]]) -> NDArray[np.float32]:
        """Unit-length float32 embeddings of every turn (rows in transcript order), computed once.

        ``embed`` returns one new float32 matrix (``Services.embed``), normalised here in place: no
        list of Python floats is built on the way (12 KB a turn at 384 dims, against 1.5 KB kept).
        """
        with self._lock:
            if self._matrix is None:
                texts = [m.render() for m in self.messages]
                vectors = np.asarray(embed(texts), dtype=np.float32).reshape(len(texts), -1)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
                self._matrix = vectors
            return self._matrix


def memory_document(record: MemoryRecord, sources: Sequence[Message]) -> tuple[str, tuple[date, ...]]:
    """A memory's indexed text (its own, its source turns', its event day in words) and its days."""
    days = [record.event_time.date()] if record.event_time else []
    days += [m.timestamp.date() for m in sources if m.timestamp]
    days = list(dict.fromkeys(days))
    text = " ".join([record.text, *(turn_text(m) for m in sources), *(date_words(d) for d in days[:1])])
    return text, tuple(days)


def transcript_signature(messages: Sequence[Message]) -> str:
    """A digest of the turns and their texts: equal for an unchanged transcript, cheap to compute."""
    digest = hashlib.blake2b(digest_size=16)
    for m in messages:
        digest.update(f"{m.conversation_id}\x1f{m.turn_id}\x1f{m.speaker}\x1f{m.text}\x1f{m.image_caption}\x1e"
                      .encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def build_memory_index(store: MemoryStore, namespace: str, labels: Labels | None = None) -> MemoryIndex:
    """Read a namespace's memories and their source turns, and index them (version read first).

    With ``labels``, only the memories and source turns carrying them: nothing outside the filter
    is indexed, so it can neither be found nor shift the ranking's statistics.
    """
    version = store.version(namespace)
    records = tuple(r for r in store.vectors.list(namespace) if labels_match(r.metadata, labels or {}))
    turns = store.transcript.messages([namespace], labels)
    positions = TurnPositions(turns)
    texts, days, rendered = [], [], []
    for record in records:
        sources = [turns[i] for i in positions.of(record)]
        text, when = memory_document(record, sources)
        texts.append(text)
        days.append(when)
        rendered.append(tuple(m.render() for m in sources))
    return MemoryIndex(version, records, DocIndex.build(texts, days), tuple(rendered))


def build_turn_index(messages: Sequence[Message], signature: str) -> TurnIndex:
    """Index transcript turns: speaker, text and day in words."""
    texts = [f"{m.speaker} {turn_text(m)} {date_words(m.timestamp.date()) if m.timestamp else ''}"
             for m in messages]
    days = [(m.timestamp.date(),) if m.timestamp else () for m in messages]
    return TurnIndex(signature, tuple(messages), DocIndex.build(texts, days), TurnPositions(messages))


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
        """The namespace's memory index (of the memories carrying ``labels``), rebuilt when the version moved on."""
        version = self.store.version(namespace)
        key = ("memories", namespace) if not labels else ("memories", namespace, labels_key(labels))
        return self._get(key, lambda e: e.version == version,
                         lambda: build_memory_index(self.store, namespace, labels))

    def turns(self, namespaces: Sequence[str], messages: Sequence[Message],
              labels: Labels | None = None) -> TurnIndex:
        """The index of these namespaces' transcript (``messages``, in time order), reused while unchanged.

        ``labels`` names the filter ``messages`` were read with, so filtered and whole transcripts
        keep their own entries.
        """
        signature = transcript_signature(messages)
        key = ("turns", tuple(namespaces)) if not labels else ("turns", tuple(namespaces), labels_key(labels))
        return self._get(key, lambda e: e.signature == signature,
                         lambda: build_turn_index(messages, signature))

    def forget(self, namespace: str | None = None) -> int:
        """Drop the indexes that hold ``namespace`` (every index when None); returns how many went.

        A reset calls it: an index holds the namespace's memories and turns as text, which must not
        outlive their erasure in the store.
        """
        with self._lock:
            gone = [k for k in self._entries if namespace is None or _holds(k, namespace)]
            for key in gone:
                self._documents -= _weight(self._entries.pop(key))
            return len(gone)

    def _get(self, key: Hashable, fresh: Callable[[Any], bool], build: Callable[[], E]) -> E:
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
                built = build()
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
        old = self._entries.pop(key, None)
        if old is not None:
            self._documents -= _weight(old)
        if self.max_documents and _weight(built) > self.max_documents:
            return  # larger than the whole budget: serves this question only
        self._entries[key] = built
        self._documents += _weight(built)
        while len(self._entries) > self.max_entries or (self.max_documents and self._documents > self.max_documents):
            _, dropped = self._entries.popitem(last=False)
            self._documents -= _weight(dropped)


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
