"""What a run calls: the model under test, the embeddings, the judge, and each method's own caches.

Each method gets its own embedding cache (over the one loaded embedding model) and its own
decider. With a single shared cache, whichever method first read a conversation's transcript paid
for embedding it and the methods after it read it for free, so seconds per question depended on
the order of ``--methods`` rather than on the method.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.decisions.base import Decider
from dmem.decisions.factory import make_decider
from dmem.eval.judge import Judge, make_judge
from dmem.eval.settings import JudgeSettings
from dmem.models.chat import make_chat_model
from dmem.models.embeddings import CachedEmbeddings, LocalMiniLMEmbeddings, make_embeddings
from dmem.models.embeddings_base import langchain_embeddings
from dmem.models.endpoints import Endpoints
from dmem.state.context import Context, api_key_from_env

EVAL_CACHE_ITEMS = 100_000
"""Texts each of an evaluation's embedding caches keeps: a batch run re-reads whole transcripts per question,
so it keeps far more than a server's ``embedding_cache`` (about 3 KB a text at 384 dims)."""


@dataclass(frozen=True)
class MethodModels:
    """One method's embedding cache and decider (the baselines answer with it)."""

    embeddings: CachedEmbeddings
    decider: Decider


@dataclass
class Models:
    """Built when a run starts (planning and dry runs build nothing)."""

    chat: BaseChatModel | None
    """The model under test; None runs the offline engine."""
    embeddings: CachedEmbeddings
    """Ingestion's embeddings; methods wrap the same model in caches of their own."""
    judge: Judge
    context: Context
    endpoints: Endpoints = field(default_factory=Endpoints)
    """The run's model endpoints: every decider (and the judge) on one server shares its slots."""
    _methods: dict[str, MethodModels] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def build(cls, llm: str | BaseChatModel | None, embeddings: str | Embeddings | None,
              judge: str | BaseChatModel | None, ctx: Context, judge_settings: JudgeSettings) -> Models:
        """The model under test (None: offline engine), the embeddings and the judge."""
        chat = llm if isinstance(llm, BaseChatModel) else None
        if chat is None and ctx.chat_model is not None:
            chat = make_chat_model(ctx.chat_model, base_url=ctx.base_url, api_key=api_key_from_env(),
                                   temperature=ctx.temperature, timeout=ctx.request_timeout)
        spec = embeddings if isinstance(embeddings, langchain_embeddings()) else ctx.embedding_model
        emb = make_embeddings(spec, base_url=ctx.base_url, api_key=api_key_from_env(), cache_items=EVAL_CACHE_ITEMS)
        endpoints = Endpoints()
        return cls(chat, emb, make_judge(judge, chat, ctx, endpoints, judge_settings), ctx, endpoints)

    def for_method(self, name: str) -> MethodModels:
        """The method's own embedding cache and decider, made on first use."""
        with self._lock:
            if name not in self._methods:
                emb = CachedEmbeddings(self.embeddings.inner, max_items=EVAL_CACHE_ITEMS)
                decider = make_decider(self.context, emb, self.chat, endpoints=self.endpoints)
                self._methods[name] = MethodModels(emb, decider)
            return self._methods[name]

    def warm_up(self) -> None:
        """Load the bundled embedding model now, so no question's seconds include loading it."""
        if isinstance(self.embeddings.inner, LocalMiniLMEmbeddings):
            self.embeddings.inner.embed_documents(["warm-up"])
