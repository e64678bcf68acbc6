"""Ranked lists over one document index, and reciprocal rank fusion of several lists.

Each signal ranks documents its own way: BM25 over the words, and the question's time cues against
each document's days. The question's names on most documents (``shared_names``) tell none apart.
Fusion by rank (RRF) needs no score calibration between signals, so dense and lexical ranks of
different models combine without tuning thresholds.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from dmem.evidence.bm25 import BM25Index, Postings, terms
from dmem.evidence.cues import time_cues, time_distance
from dmem.text.names import SHARED_NAME_SHARE, question_names

RRF_K = 20  # rank offset of reciprocal rank fusion: below the usual 60, a signal's top ranks weigh more (README)
TIME_MAX_SHARE = 0.5  # a time cue matching more documents than this share ranks nothing

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class DocIndex:
    """BM25 over a fixed list of documents, with the days each document is dated."""

    bm25: BM25Index
    days: tuple[tuple[date, ...], ...]

    @classmethod
    def build(cls, texts: Sequence[str], days: Sequence[tuple[date, ...]]) -> DocIndex:
        """Index the texts (content-word stems) with their days."""
        return cls(BM25Index([terms(t) for t in texts]), tuple(days))

    @classmethod
    def view(cls, postings: Postings, days: Sequence[tuple[date, ...]], order: NDArray[np.int64]) -> DocIndex:
        """The documents in slots ``order`` of ``postings`` (``days`` per slot), in that order (``BM25Index.view``)."""
        return cls(BM25Index.view(postings, order), tuple(days[int(s)] for s in order))

    def lexical(self, question: str, k: int) -> list[int]:
        """The ``k`` documents with the best BM25 for the question."""
        return self.bm25.top(terms(question), k)

    def shared_names(self, question: str) -> list[str]:
        """Question names on more than SHARED_NAME_SHARE of the documents: they tell none apart."""
        limit = SHARED_NAME_SHARE * self.bm25.size
        return [n for n in question_names(question)
                if terms(n) and all(len(self.bm25.holding(t)) > limit for t in terms(n))]

    def timed(self, question: str, k: int) -> list[int]:
        """Documents dated where the question's time cues point, closest first, then by BM25."""
        cues = time_cues(question)
        if not cues:
            return []
        gaps = [(i, gap) for i, days in enumerate(self.days) if (gap := time_distance(cues, days)) is not None]
        if not gaps or len(gaps) > TIME_MAX_SHARE * self.bm25.size:
            return []
        bm25 = self.bm25.scores(terms(question))
        return [i for i, _ in sorted(gaps, key=lambda p: (p[1], -bm25[p[0]], p[0]))][:k]


def fuse(rankings: Sequence[Sequence[K]], weights: Sequence[float] | None = None) -> list[tuple[K, float]]:
    """Reciprocal rank fusion: each list adds ``weight / (RRF_K + rank)`` to its items; best first, stable.

    ``weights``: one per list (default 1.0 each).
    """
    scores: dict[K, float] = {}
    for n, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[n]
        for rank, item in enumerate(dict.fromkeys(ranking), start=1):
            scores[item] = scores.get(item, 0.0) + weight / (RRF_K + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
