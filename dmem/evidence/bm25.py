"""Okapi BM25 over an inverted index: a query touches only the documents that hold one of its terms.

Documents are lists of terms (content-word stems, see ``terms``); the index is built once and
scored many times, so a namespace's index is reused across questions (see ``indexes``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from dmem.text.lexical import content_stems

K1 = 1.2  # term-frequency saturation (the usual 1.2-2.0)
B = 0.75  # length normalisation


def terms(text: str) -> list[str]:
    """Index terms of a text: its content-word stems (stopwords dropped, 'went' ~ 'go')."""
    return content_stems(text)


class BM25Index:
    """Okapi BM25 with a positive idf (``log(1 + (N - df + 0.5) / (df + 0.5))``) over fixed documents."""

    def __init__(self, docs: Sequence[Sequence[str]]) -> None:
        self.size = len(docs)
        lengths = np.asarray([len(d) for d in docs], dtype=np.float32)
        self._norm = K1 * (1 - B + B * lengths / (float(lengths.mean()) if self.size and lengths.mean() else 1.0))
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for i, doc in enumerate(docs):
            for term, tf in Counter(doc).items():
                ids, tfs = postings.setdefault(term, ([], []))
                ids.append(i)
                tfs.append(tf)
        self._postings = {t: (np.asarray(ids, dtype=np.int64), np.asarray(tfs, dtype=np.float32))
                          for t, (ids, tfs) in postings.items()}

    def idf(self, term: str) -> float:
        """Inverse document frequency of a term (0 for a term in no document)."""
        found = self._postings.get(term)
        if found is None:
            return 0.0
        df = len(found[0])
        return math.log(1 + (self.size - df + 0.5) / (df + 0.5))

    def holding(self, term: str) -> np.ndarray:
        """Indexes of the documents that hold a term."""
        found = self._postings.get(term)
        return found[0] if found is not None else np.zeros(0, dtype=np.int64)

    def scores(self, query: Sequence[str]) -> np.ndarray:
        """BM25 of every document for the query terms (each distinct term counted once)."""
        out = np.zeros(self.size, dtype=np.float32)
        for term in dict.fromkeys(query):
            found = self._postings.get(term)
            if found is None:
                continue
            ids, tfs = found
            out[ids] += self.idf(term) * tfs * (K1 + 1) / (tfs + self._norm[ids])
        return out

    def top(self, query: Sequence[str], k: int) -> list[int]:
        """Indexes of the ``k`` best-scoring documents with a score above 0, best first (ties by index)."""
        scores = self.scores(query)
        hits = np.flatnonzero(scores > 0)
        if not len(hits):
            return []
        order = hits[np.lexsort((hits, -scores[hits]))]
        return [int(i) for i in order[:k]]
