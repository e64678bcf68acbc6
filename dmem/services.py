"""What nodes work with, resolved once from the runtime context: decider, store, embeddings, knowledge.

A host agent that embeds our graphs may run them under its own context object; such a context
reaches us when it is a ``Context``, or carries one as a ``dmem`` attribute or key.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.decisions.base import Decider
from dmem.evidence.indexes import EvidenceIndexes
from dmem.models.embeddings import CachedEmbeddings, make_embeddings
from dmem.state.context import Context
from dmem.store.base import MemoryStore
from dmem.store.knowledge import KnowledgeSource

log = logging.getLogger(__name__)


@dataclass
class Resources:
    """Live objects handed in by the caller; anything left None is built from the settings."""

    chat_model: BaseChatModel | None = None
    embeddings: Embeddings | None = None
    store: MemoryStore | None = None
    knowledge: KnowledgeSource | None = None
    decider: Decider | None = None
    _services: Services | None = field(default=None, repr=False)


@dataclass
class Services:
    """Everything a node needs besides its state."""

    context: Context
    decider: Decider
    store: MemoryStore
    embeddings: CachedEmbeddings
    knowledge: KnowledgeSource | None
    indexes: EvidenceIndexes
    """Lexical indexes of ``store`` (per namespace); they live as long as these services."""

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Embed documents through the run-wide cache."""
        return self.embeddings.embed_documents(texts)


_CACHE: dict[Context, Services] = {}
_CACHE_LOCK = threading.Lock()


def context_of(obj: Any) -> Context:
    """Our settings from a runtime context (ours, a host's carrying ``dmem``, or none)."""
    if isinstance(obj, Context):
        return obj
    inner = getattr(obj, "dmem", None)
    if inner is None and isinstance(obj, dict):
        inner = obj.get("dmem")
    if isinstance(inner, Context):
        return inner
    return Context()


def services_for(runtime_context: Any) -> Services:
    """Resolve (and cache) the services for a runtime context."""
    ctx = context_of(runtime_context)
    res: Resources | None = ctx.resources
    if res is not None:
        with _CACHE_LOCK:
            if res._services is None:
                res._services = build_services(ctx, res)
            svc = res._services
        # Per-call overrides (e.g. another gate policy) share the live objects, not the settings.
        return svc if svc.context == ctx else dataclasses.replace(svc, context=ctx)
    with _CACHE_LOCK:
        if ctx not in _CACHE:
            _CACHE[ctx] = build_services(ctx, Resources())
        return _CACHE[ctx]


def build_services(ctx: Context, res: Resources) -> Services:
    """Build the decider, embeddings and store that the settings and resources call for."""
    from dmem.store import open_store

    embeddings = make_embeddings(res.embeddings or ctx.embedding_model, base_url=ctx.base_url,
                                 api_key=ctx.api_key)
    decider = res.decider or make_decider(ctx, embeddings, res.chat_model)
    store = res.store
    if store is None:
        from dmem.models.embeddings import embedding_dim, embedding_name

        store = open_store(ctx.store_dir, dim=embedding_dim(embeddings), embedding=embedding_name(embeddings))
    return Services(context=ctx, decider=decider, store=store, embeddings=embeddings,
                    knowledge=res.knowledge, indexes=EvidenceIndexes(store))


def make_decider(ctx: Context, embeddings: CachedEmbeddings, chat_model: BaseChatModel | None) -> Decider:
    """The model-backed decider when a chat model is configured, else the offline one."""
    if chat_model is None and ctx.chat_model is None:
        from dmem.decisions.offline import OfflineDecider

        log.info("no chat model configured: using the offline decision engine")
        return OfflineDecider(embeddings)
    from dmem.decisions.model import ModelDecider
    from dmem.models.chat import make_chat_model

    model = chat_model or make_chat_model(
        ctx.chat_model or "", base_url=ctx.base_url, api_key=ctx.api_key,
        temperature=ctx.temperature, timeout=ctx.request_timeout,
    )
    return ModelDecider(model, method=ctx.structured_output, max_retries=ctx.max_retries,
                        max_concurrency=ctx.max_concurrency, answer_style=ctx.answer_style,
                        temperature=ctx.temperature)


def close_cached() -> None:
    """Close every store opened from settings alone (used by tests and the CLI)."""
    with _CACHE_LOCK:
        for svc in _CACHE.values():
            svc.store.close()
        _CACHE.clear()
