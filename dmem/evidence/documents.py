"""The documents a question ranks: one namespace's memories or transcript turns, as immutable indexes.

``MemoryIndex`` and ``TurnIndex`` are what a question reads; ``build_memory_index`` and
``build_turn_index`` make them from a full read, and ``dmem.evidence.growing`` makes the same
indexes from the rows added since its last read. ``dmem.evidence.indexes`` keeps them per store.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

import numpy as np
from numpy.typing import NDArray

from dmem.evidence.cues import date_words
from dmem.evidence.search import DocIndex
from dmem.state.schemas import MemoryRecord, Message, MetadataValue
from dmem.store.base import MemoryStore, labels_match

Labels = Mapping[str, MetadataValue]
"""A label filter: keep what carries every one of these values (see ``dmem.store.base.labels_match``)."""


class TurnPositions:
    """Where a memory's source turns are in a list of turns.

    A turn is found by its conversation and id; a memory that names no conversation names its turns
    by id alone, and finds the first such turn. The lookups name *slots* (``TranscriptIndex``'s
    order of arrival); ``position`` maps a slot to its place in the list (-1: not in it), so a
    growing transcript shares its lookups with every list made of it.
    """

    def __init__(self, messages: Sequence[Message]) -> None:
        self._by_turn: dict[tuple[str, str], int] = {}
        self._by_id: dict[str, list[int]] = {}
        for i, m in enumerate(messages):
            self._by_turn[(m.conversation_id, m.turn_id)] = i
            self._by_id.setdefault(m.turn_id, []).append(i)
        self._position = np.arange(len(messages), dtype=np.int64)

    @classmethod
    def view(cls, by_turn: dict[tuple[str, str], int], by_id: dict[str, list[int]],
             position: NDArray[np.int64]) -> TurnPositions:
        """Lookups by slot shared with a growing transcript, and this list's ``position`` of each slot."""
        out = cls.__new__(cls)
        out._by_turn, out._by_id, out._position = by_turn, by_id, position
        return out

    def _at(self, slot: int | None) -> int | None:
        if slot is None or slot >= len(self._position) or self._position[slot] < 0:
            return None
        return int(self._position[slot])

    def of(self, record: MemoryRecord) -> list[int]:
        """Positions of the record's source turns that are in the list, in the record's order."""
        found = ((self._at(self._by_turn.get((record.conversation_id, t))) if record.conversation_id
                  else min((p for s in list(self._by_id.get(t, ())) if (p := self._at(s)) is not None), default=None))
                 for t in record.source_turn_ids)
        return [i for i in found if i is not None]


class TurnVectors:
    """Unit-length float32 embeddings of a list of turns in slot order, computed on first use and kept.

    The list may grow (``TranscriptIndex``): only turns not embedded yet are embedded, into a buffer
    that doubles when full. Rows are never rewritten, so a view's rows stay valid.
    """

    def __init__(self, messages: Sequence[Message]) -> None:
        self._messages = messages
        self._rows = np.zeros((0, 0), dtype=np.float32)
        self._done = 0
        self._lock = threading.Lock()

    def rows(self, embed: Callable[[list[str]], NDArray[np.float32]], count: int) -> NDArray[np.float32]:
        """The first ``count`` slots' rows (embedding the ones not done yet through ``embed``).

        ``embed`` returns one new float32 matrix (``Services.embed``), normalised here in place: no
        list of Python floats is built on the way (12 KB a turn at 384 dims, against 1.5 KB kept).
        """
        with self._lock:
            if self._done < count:
                texts = [m.render() for m in self._messages[self._done:count]]
                vectors = np.asarray(embed(texts), dtype=np.float32).reshape(len(texts), -1)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
                if count > len(self._rows) or self._rows.shape[1] != vectors.shape[1]:
                    grown = np.zeros((max(count, 2 * len(self._rows)), vectors.shape[1]), dtype=np.float32)
                    if self._done:
                        grown[:self._done] = self._rows[:self._done]
                    self._rows = grown
                self._rows[self._done:count] = vectors
                self._done = count
            return self._rows[:count]


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
    rows: int = -1
    """The namespace's last transcript row when it was read (-1: not noted), for a caller that checks it."""
    named: dict[str, float] = field(default_factory=dict, compare=False, repr=False)
    """Share of the memories naming each name asked about so far (``hybrid.about``): lives as long as this
    version of the index, so the scan of every memory text runs once per name and version, not per question."""

    @property
    def documents(self) -> int:
        """Documents indexed: the index's weight against the budget."""
        return self.docs.bm25.size

    @functools.cached_property
    def by_turn(self) -> dict[tuple[str, str], tuple[MemoryRecord, ...]]:
        """The memories formed from each source turn, by (conversation or '', turn id), in the index's order.

        Built on first use and kept as long as this version of the index (``episodes.neighbours`` reads it for
        every question), so the scan of every memory runs once per version, not per question.
        """
        found: dict[tuple[str, str], list[MemoryRecord]] = {}
        for record in self.records:
            for turn in record.source_turn_ids:
                found.setdefault((record.conversation_id or "", turn), []).append(record)
        return {key: tuple(records) for key, records in found.items()}


@dataclass
class TurnIndex:
    """Transcript turns as documents: speaker, text and day; their embeddings are computed on first use."""

    signature: str
    messages: tuple[Message, ...]
    docs: DocIndex
    positions: TurnPositions
    """Where memories' source turns are among ``messages``."""
    vectors: TurnVectors
    """The turns' embeddings, by slot (shared with the growing index this view was made of)."""
    order: NDArray[np.int64]
    """The slot of each position of ``messages``."""

    @property
    def documents(self) -> int:
        """Documents indexed: the index's weight against the budget."""
        return self.docs.bm25.size

    @functools.cached_property
    def speaker_words(self) -> frozenset[str]:
        """Every word of the turns' speaker labels, lower case ('Maya Lind' gives 'maya' and 'lind'); read once."""
        return frozenset(w.lower() for label in {m.speaker for m in self.messages} for w in label.split())

    def similarities(self, embed: Callable[[list[str]], NDArray[np.float32]],
                     query: NDArray[np.float32]) -> NDArray[np.float32]:
        """Cosine of each turn (position order) to a unit query vector.

        Row by row (``einsum``), so a turn's score does not depend on where its row sits in the
        matrix: a grown index and one built from scratch give the same numbers (a BLAS product
        may round a row differently by its place in the block).
        """
        if not len(self.order):
            return np.zeros(0, dtype=np.float32)
        rows = self.vectors.rows(embed, int(self.order.max()) + 1)
        return np.einsum("ij,j->i", rows, query)[self.order]

    def matrix(self, embed: Callable[[list[str]], NDArray[np.float32]]) -> NDArray[np.float32]:
        """Unit-length float32 embeddings of every turn, rows in transcript order (a copy)."""
        if not len(self.order):
            return np.zeros((0, 0), dtype=np.float32)
        return self.vectors.rows(embed, int(self.order.max()) + 1)[self.order]


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


def turn_document(message: Message) -> tuple[str, tuple[date, ...]]:
    """A turn's indexed text (speaker, text, day in words) and its day."""
    when = message.timestamp.date() if message.timestamp else None
    return f"{message.speaker} {turn_text(message)} {date_words(when) if when else ''}", (when,) if when else ()


def build_turn_index(messages: Sequence[Message], signature: str) -> TurnIndex:
    """Index transcript turns: speaker, text and day in words."""
    texts, days = zip(*map(turn_document, messages), strict=True) if messages else ((), ())
    return TurnIndex(signature, tuple(messages), DocIndex.build(texts, days), TurnPositions(messages),
                     TurnVectors(list(messages)), np.arange(len(messages), dtype=np.int64))
