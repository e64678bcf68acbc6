"""What one run's nodes work with (``Services``), and the dmem settings in a run's runtime context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dmem.decisions.base import Decider
from dmem.errors import ConfigError
from dmem.evidence.indexes import EvidenceIndexes
from dmem.models.embeddings import CachedEmbeddings
from dmem.state.context import Context
from dmem.store.base import MemoryStore
from dmem.store.knowledge import KnowledgeSource


@dataclass(frozen=True)
class Services:
    """Everything a node needs besides its state, for one run's settings."""

    context: Context
    decider: Decider
    store: MemoryStore
    """The owner's store as this run searches it (``MemoryStore.searching`` with the run's ``hnsw_ef_search``)."""
    embeddings: CachedEmbeddings
    knowledge: KnowledgeSource | None
    indexes: EvidenceIndexes
    """Lexical indexes of ``store`` (per namespace), owned by the ``Resources`` that owns the store."""

    def embed(self, texts: list[str]) -> NDArray[np.float32]:
        """A new float32 matrix of ``texts``, one row each, through the owner's cache (bridged: a worker thread)."""
        return self.store.blocking(self.embeddings.embed_array, texts)


def dmem_context(runtime_context: Any) -> Context | None:
    """Our settings in a runtime context: ours, a host's ``dmem`` field or key, or None (use the owner's)."""
    if runtime_context is None or isinstance(runtime_context, Context):
        return runtime_context
    inner = runtime_context.get("dmem") if isinstance(runtime_context, dict) else getattr(runtime_context, "dmem", None)
    if inner is None or isinstance(inner, Context):
        return inner
    if isinstance(inner, dict):
        return Context(**inner)
    raise ConfigError(f"the host context's 'dmem' field must be a dmem Context or a dict of settings; "
                      f"got {type(inner).__name__}")
