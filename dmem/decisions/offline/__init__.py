"""The offline decision engine: rules, local embeddings, BM25 and deterministic date grounding."""

from dmem.decisions.offline.decider import OfflineDecider

__all__ = ["OfflineDecider"]
