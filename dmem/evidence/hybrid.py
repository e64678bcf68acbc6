"""Hybrid retrieval: dense and lexical ranks, with name and time-cue matches, fused by reciprocal rank.

``memories`` is System 1's retrieval (both engines use it through the ``retrieve`` node);
``turns`` finds raw transcript turns for Focused Deliberation's seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from dmem.evidence.indexes import EvidenceIndexes, TurnIndex
from dmem.evidence.search import DocIndex, fuse
from dmem.state.schemas import MemoryRecord
from dmem.store.base import MemoryStore

POOL = 100  # candidates each signal ranks before fusion (beyond ~3x top-K a signal's tail adds little)


def signal_rankings(docs: DocIndex, question: str) -> list[list[int]]:
    """The lexical, name and time-cue rankings of one index's documents (positions), best first."""
    return [docs.lexical(question, POOL), docs.named(question, POOL), docs.timed(question, POOL)]


def memories(question: str, vector: Sequence[float], store: MemoryStore, indexes: EvidenceIndexes,
             namespace: str, k: int) -> list[tuple[MemoryRecord, float]]:
    """The ``k`` memories of one namespace with the best fused rank, with their fusion scores."""
    dense = store.vectors.search([namespace], vector, max(POOL, k))
    index = indexes.memories(namespace)
    ids = [r.id for r in index.records]
    rankings = [[h.record.id for h in dense]]
    rankings += [[ids[i] for i in ranking] for ranking in signal_rankings(index.docs, question)]
    live = {h.record.id: h.record for h in dense}
    known = {r.id: r for r in index.records}
    out = []
    for memory_id, score in fuse(rankings):
        record = live.get(memory_id) or known.get(memory_id)
        if record is not None:
            out.append((record, score))
        if len(out) == k:
            break
    return out


def turns(question: str, vector: Sequence[float], index: TurnIndex,
          embed: Callable[[list[str]], list[list[float]]], k: int) -> list[int]:
    """Positions of the ``k`` transcript turns with the best fused rank (dense, BM25, names, times)."""
    if not index.messages:
        return []
    query = np.asarray(vector, dtype=np.float32)
    query /= np.linalg.norm(query) + 1e-12
    sims = index.matrix(embed) @ query
    dense = np.argsort(-sims, kind="stable")[:POOL].tolist()
    return [i for i, _ in fuse([dense, *signal_rankings(index.docs, question)])[:k]]
