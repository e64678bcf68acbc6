"""Okapi BM25 over an inverted index: a query touches only the documents that hold one of its terms.

Documents are lists of terms (content-word stems, see ``terms``). ``Postings`` holds them in
*slots*, in the order they were added, and only grows: a namespace's index takes in new rows
without re-reading or re-tokenising the old ones (see ``growing``). A ``BM25Index`` is one
immutable view of some of those slots in a given order (its *positions*): a later addition to the
postings is invisible to a view made before it, so a question keeps a consistent index while the
next one grows it. A view scores exactly as an index built from scratch over its documents in the
same order would (same statistics, same floating-point operations per document).
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from dmem.text.lexical import content_stems

K1 = 1.2  # term-frequency saturation (the usual 1.2-2.0)
B = 0.75  # length normalisation
_NO_IDS = np.zeros(0, dtype=np.int64)
_NO_TFS = np.zeros(0, dtype=np.float32)


def terms(text: str) -> list[str]:
    """Index terms of a text: its content-word stems (stopwords dropped, 'went' ~ 'go')."""
    return content_stems(text)


class Postings:
    """An append-only inverted index in slot order: each added document takes the next slot.

    Per term, the slots holding it (ascending) and its frequency there; per slot, the document's
    length. Nothing is removed: a view leaves out the slots it does not show.
    """

    def __init__(self) -> None:
        self._terms: dict[str, tuple[NDArray[np.int64], NDArray[np.float32]]] = {}
        self._lengths = np.zeros(16, dtype=np.float32)
        self.slots = 0
        """Documents added so far (the next document's slot)."""
        self._lock = threading.Lock()

    def add(self, docs: Sequence[Sequence[str]]) -> range:
        """Add documents (lists of terms) in order; returns their slots."""
        with self._lock:
            first = self.slots
            batch: dict[str, tuple[list[int], list[int]]] = {}
            for slot, doc in enumerate(docs, start=first):
                for term, tf in Counter(doc).items():
                    ids, tfs = batch.setdefault(term, ([], []))
                    ids.append(slot)
                    tfs.append(tf)
            for term, (ids, tfs) in batch.items():
                old_ids, old_tfs = self._terms.get(term, (_NO_IDS, _NO_TFS))
                self._terms[term] = (np.concatenate([old_ids, np.asarray(ids, dtype=np.int64)]),
                                     np.concatenate([old_tfs, np.asarray(tfs, dtype=np.float32)]))
            end = first + len(docs)
            if end > len(self._lengths):
                grown = np.zeros(max(end, 2 * len(self._lengths)), dtype=np.float32)
                grown[:first] = self._lengths[:first]
                self._lengths = grown
            self._lengths[first:end] = [len(d) for d in docs]
            self.slots = end
            return range(first, end)

    def holders(self, term: str) -> tuple[NDArray[np.int64], NDArray[np.float32]] | None:
        """The slots holding ``term`` (ascending) and its frequency in each; None for an unknown term."""
        return self._terms.get(term)

    def lengths(self, slots: NDArray[np.int64]) -> NDArray[np.float32]:
        """The lengths of these documents, in the order given."""
        return self._lengths[slots]


class BM25Index:
    """Okapi BM25 with a positive idf (``log(1 + (N - df + 0.5) / (df + 0.5))``) over fixed documents.

    ``BM25Index(docs)`` indexes a list of documents; ``BM25Index.view(postings, order)`` shows the
    slots ``order`` names, at positions 0, 1, ... in that order. Results are positions.
    """

    def __init__(self, docs: Sequence[Sequence[str]]) -> None:
        postings = Postings()
        self._init(postings, np.asarray(postings.add(docs), dtype=np.int64))

    @classmethod
    def view(cls, postings: Postings, order: NDArray[np.int64]) -> BM25Index:
        """The documents in slots ``order`` (distinct, all added already), position ``i`` being ``order[i]``."""
        out = cls.__new__(cls)
        out._init(postings, order)
        return out

    def _init(self, postings: Postings, order: NDArray[np.int64]) -> None:
        self._postings = postings
        self.size = len(order)
        self._position = np.full(int(order.max()) + 1 if self.size else 0, -1, dtype=np.int64)
        """Position of each slot up to the highest shown (-1: not shown)."""
        self._position[order] = np.arange(self.size, dtype=np.int64)
        lengths = postings.lengths(order)
        self._norm = K1 * (1 - B + B * lengths / (float(lengths.mean()) if self.size and lengths.mean() else 1.0))

    def _found(self, term: str) -> tuple[NDArray[np.int64], NDArray[np.float32]] | None:
        """Positions of the shown documents holding ``term`` and its frequency there (None: none)."""
        found = self._postings.holders(term)
        if found is None:
            return None
        ids, tfs = found
        cut = int(np.searchsorted(ids, len(self._position)))  # slots added after this view are not shown
        positions = self._position[ids[:cut]]
        shown = positions >= 0
        if not shown.any():
            return None
        return positions[shown], tfs[:cut][shown]

    def idf(self, term: str) -> float:
        """Inverse document frequency of a term (0 for a term in no document)."""
        found = self._found(term)
        if found is None:
            return 0.0
        df = len(found[0])
        return math.log(1 + (self.size - df + 0.5) / (df + 0.5))

    def holding(self, term: str) -> np.ndarray:
        """Positions of the documents that hold a term."""
        found = self._found(term)
        return found[0] if found is not None else np.zeros(0, dtype=np.int64)

    def scores(self, query: Sequence[str]) -> np.ndarray:
        """BM25 of every document for the query terms (each distinct term counted once)."""
        out = np.zeros(self.size, dtype=np.float32)
        for term in dict.fromkeys(query):
            found = self._found(term)
            if found is None:
                continue
            ids, tfs = found
            df = len(ids)
            idf = math.log(1 + (self.size - df + 0.5) / (df + 0.5))
            out[ids] += idf * tfs * (K1 + 1) / (tfs + self._norm[ids])
        return out

    def top(self, query: Sequence[str], k: int) -> list[int]:
        """Indexes of the ``k`` best-scoring documents with a score above 0, best first (ties by index)."""
        scores = self.scores(query)
        hits = np.flatnonzero(scores > 0)
        if not len(hits):
            return []
        order = hits[np.lexsort((hits, -scores[hits]))]
        return [int(i) for i in order[:k]]
