"""``Memory``: the Python API over one store directory and the two compiled graphs.

Every method acts inside the namespaces it is given (``user_id`` / ``user_ids``, default
'default'): an id of another user's memory is answered exactly like an unknown id.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import merge_configs

from dmem.batches import BatchForming, iter_exchanges, namespaces_of, unformed_groups
from dmem.errors import NotFoundError
from dmem.exports import build_export, plan_import, read_export
from dmem.graphs import compile_ingestion_graph, compile_query_graph
from dmem.messages import MessageLike, to_message, to_messages
from dmem.models.embeddings import embedding_name
from dmem.models.endpoints import Endpoints
from dmem.services import Resources, Services
from dmem.state.context import Context, build_context
from dmem.state.results import AddResult, Answer, PendingTurn, SearchResult
from dmem.state.schemas import HistoryEntry, MemoryRecord, Message, Operation
from dmem.store import LocalStore, Routing, SearchFilter, validate_namespace
from dmem.store.knowledge import KnowledgeSource
from dmem.tracing import TraceClients

log = logging.getLogger(__name__)
Progress = Callable[[int, int], None]
__all__ = ["Memory", "MessageLike", "iter_exchanges", "to_message", "to_messages"]


class Memory:
    """Long-term memory for an agent: ``add`` conversations, ``ask`` questions, audit everything.

    ``llm`` is a 'provider:model' string or a LangChain chat model; without one (and without
    ``DMEM_CHAT_MODEL``) the offline decision engine runs. Other settings are keyword arguments,
    ``DMEM_*`` variables or a TOML ``config_file``, in that order of precedence. ``endpoints``
    shares model endpoints (their concurrency slots) with other ``Memory`` objects; by default
    each ``Memory`` has its own.
    """

    def __init__(self, path: str | Path | None = None, *, llm: str | BaseChatModel | None = None,
                 embeddings: str | Embeddings | None = None, knowledge: KnowledgeSource | None = None,
                 config_file: str | Path | None = None, read_only: bool = False, api_key: str | None = None,
                 endpoints: Endpoints | None = None, **settings: Any) -> None:
        if path is not None:
            settings["store_dir"] = str(path)
        if isinstance(llm, str):
            settings["chat_model"] = llm
        if isinstance(embeddings, str):
            settings["embedding_model"] = embeddings
        self.context = build_context(config_file=config_file, **settings)
        """This memory's settings; ``ask``/``add`` keyword overrides change them per call."""
        self.resources = Resources(self.context, chat_model=llm if isinstance(llm, BaseChatModel) else None,
                                   embeddings=embeddings if isinstance(embeddings, Embeddings) else None,
                                   knowledge=knowledge, api_key=api_key, read_only=read_only,
                                   endpoints=endpoints)
        """Owner of the open store and the models; ``close()`` releases them."""
        self.store = cast(LocalStore, self.resources.store)  # Memory's export/import use the local store's API
        self.embedding = embedding_name(self.services.embeddings)
        self.ingestion_graph = compile_ingestion_graph(resources=self.resources)
        self.query_graph = compile_query_graph(resources=self.resources)
        self.tracing = TraceClients()
        """Redacting LangSmith clients for this memory's runs (see ``trace_redaction``)."""
        self._forming = BatchForming(self.ingestion_graph, self.store,
                                     lambda ns, ctx, config: self._config("ingest", ns, ctx=ctx, config=config))

    @property
    def services(self) -> Services:
        """The decider, store and embeddings of this memory's own settings."""
        return self.resources.services(self.context)

    # Writing ------------------------------------------------------------------------------
    def add(self, messages: MessageLike | Sequence[MessageLike], *, user_id: str = "default",
            conversation_id: str | None = None, speaker_namespaces: dict[str, str] | None = None,
            exchange_size: int = 2, progress: Progress | None = None, config: RunnableConfig | None = None,
            **overrides: Any) -> AddResult:
        """Record every message, then form memories one exchange (default: a message pair) at a time.

        All turns are recorded in one transaction before any is formed (bad input stores
        nothing). Turns already formed are skipped; an exchange whose formation fails (malformed
        reply, provider error) is kept as pending, with its reason, and the batch goes on.
        ``overrides`` change settings for this call only, e.g. ``location="Lisbon"``. ``config``
        (callbacks, tags, metadata, run_name) goes to every graph run, traced as ``trace_redaction`` says.
        """
        ctx = self._ctx(overrides)
        started = time.perf_counter()
        routing = Routing.of(user_id, speaker_namespaces)
        conversation = routing.origin if conversation_id is None else validate_namespace(conversation_id,
                                                                                         "conversation_id")
        stored = self.store.transcript.append(routing, to_messages(messages, conversation))
        exchanges = self._forming.run(stored, routing, ctx, exchange_size, progress, config=config)
        return AddResult(exchanges=exchanges, seconds=time.perf_counter() - started)

    def retry_pending(self, *, user_id: str = "default", user_ids: Sequence[str] | None = None,
                      config: RunnableConfig | None = None, **overrides: Any) -> AddResult:
        """Form every turn of these namespaces not formed yet (new or pending), each where it was recorded."""
        ctx = self._ctx(overrides)
        started = time.perf_counter()
        exchanges = [ex for routing, turns in unformed_groups(self.store, namespaces_of(user_ids, user_id))
                     for ex in self._forming.run(turns, routing, ctx, config=config)]
        return AddResult(exchanges=exchanges, seconds=time.perf_counter() - started)

    def delete(self, memory_id: str, *, user_id: str = "default", reason: str = "deleted by the user") -> MemoryRecord:
        """Remove one of the user's memories from retrieval; its history keeps the text."""
        ns = validate_namespace(user_id)
        with self.store.transaction():
            removed = self.store.vectors.delete(ns, memory_id)
            if removed is None:
                raise NotFoundError(_not_found(memory_id, ns))
            self.store.history.append(ns, memory_id, Operation.DELETE, removed.text, None, reason)
        return removed

    # Reading ------------------------------------------------------------------------------
    def ask(self, question: str, *, user_ids: Sequence[str] | None = None, user_id: str | None = None,
            config: RunnableConfig | None = None, **overrides: Any) -> Answer:
        """Answer from memory; the gate decides whether Full Deliberation reads the transcript.

        ``config`` (callbacks, tags, metadata, run_name) goes to the query graph run.
        """
        ctx = self._ctx(overrides)
        namespaces = namespaces_of(user_ids, "default" if user_id is None else user_id)
        started = time.perf_counter()
        run_config = self._config("ask", ",".join(namespaces), ctx.gate_policy, ctx=ctx, config=config)
        out = self.query_graph.invoke({"question": question, "namespaces": namespaces}, context=ctx,
                                      config=run_config)
        return Answer.from_state(question, out, time.perf_counter() - started, self.services.decider.name)

    def search(self, query: str, *, user_id: str = "default", limit: int = 10,
               where: SearchFilter | None = None) -> list[SearchResult]:
        """The user's memories most similar to the query, best first."""
        ns = validate_namespace(user_id)
        vector = self.services.embed([query])[0]
        hits = self.store.vectors.search([ns], vector, limit, where=where)
        return [SearchResult(memory=h.record, score=h.score) for h in hits]

    def get(self, memory_id: str, *, user_id: str = "default") -> MemoryRecord:
        """One of the user's live memories by id (NotFoundError otherwise)."""
        ns = validate_namespace(user_id)
        record = self.store.vectors.get(ns, memory_id)
        if record is None:
            raise NotFoundError(_not_found(memory_id, ns))
        return record

    def get_all(self, *, user_id: str = "default") -> list[MemoryRecord]:
        """Every live memory of a namespace, oldest first."""
        return self.store.vectors.list(validate_namespace(user_id))

    def history(self, memory_id: str, *, user_id: str = "default") -> list[HistoryEntry]:
        """Every operation on one of the user's memories, oldest first (deleted memories keep theirs)."""
        ns = validate_namespace(user_id)
        rows = self.store.history.for_memory(ns, memory_id)
        if not rows:
            raise NotFoundError(_not_found(memory_id, ns))
        return rows

    def transcript(self, *, user_ids: Sequence[str] | None = None, user_id: str = "default") -> list[Message]:
        """The raw messages recorded for these namespaces, in time order."""
        return self.store.transcript.messages(namespaces_of(user_ids, user_id))

    def pending(self, *, user_id: str = "default") -> list[PendingTurn]:
        """The user's turns whose formation failed, with the reason (``retry_pending`` forms them)."""
        ns = validate_namespace(user_id)
        return [PendingTurn(conversation_id=m.conversation_id, turn_id=m.turn_id, reason=why)
                for m, why in self.store.transcript.pending(ns)]

    # Export / import ----------------------------------------------------------------------
    def export(self, path: str | Path | None = None, *, user_id: str = "default",
               user_ids: Sequence[str] | None = None) -> dict[str, Any]:
        """The users' memories, vectors and history as JSON-ready data; written to ``path`` when given."""
        names = namespaces_of(user_ids, user_id)
        records = [r for ns in names for r in self.store.export_records(ns)]
        vectors = [self.store.vectors.vector(r.namespace, r.id) or [] for r in records]
        history = [h.model_dump(mode="json") for r in records for h in self.store.history.for_memory(r.namespace, r.id)]
        data = build_export(records, vectors, history, self.embedding, self.store.dim)
        if path is not None:
            Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
        return data

    def import_(self, source: str | Path | dict[str, Any], *, user_id: str = "default",
                namespaces: Mapping[str, str] | None = None, reembed: bool = False) -> int:
        """Load an export into ``user_id`` (or the namespaces ``namespaces`` maps to), all or nothing.

        Refused whole, with the reason: another format or version, another embedding model
        (unless ``reembed=True``), records of namespaces neither ``user_id`` nor mapped, and ids
        that belong to another namespace of this store. Returns how many memories were written.
        """
        plan = plan_import(read_export(source), user_id=validate_namespace(user_id), namespaces=namespaces,
                           embedding=self.embedding, dim=self.store.dim, reembed=reembed)
        written = 0
        with self.store.transaction():
            for ns, records in plan.records.items():
                vectors = (plan.vectors or {}).get(ns) or self.services.embed([r.text for r in records])
                written += self.store.import_records(ns, records, vectors, "import")
        return written

    # Async twins --------------------------------------------------------------------------
    async def aadd(self, *args: Any, **kwargs: Any) -> AddResult:
        """Async ``add``."""
        return await asyncio.to_thread(self.add, *args, **kwargs)

    async def aask(self, *args: Any, **kwargs: Any) -> Answer:
        """Async ``ask``."""
        return await asyncio.to_thread(self.ask, *args, **kwargs)

    async def asearch(self, *args: Any, **kwargs: Any) -> list[SearchResult]:
        """Async ``search``."""
        return await asyncio.to_thread(self.search, *args, **kwargs)

    async def aget_all(self, **kwargs: Any) -> list[MemoryRecord]:
        """Async ``get_all``."""
        return await asyncio.to_thread(self.get_all, **kwargs)

    async def ahistory(self, memory_id: str, **kwargs: Any) -> list[HistoryEntry]:
        """Async ``history``."""
        return await asyncio.to_thread(self.history, memory_id, **kwargs)

    async def adelete(self, memory_id: str, **kwargs: Any) -> MemoryRecord:
        """Async ``delete``."""
        return await asyncio.to_thread(self.delete, memory_id, **kwargs)

    # Plumbing -----------------------------------------------------------------------------
    def close(self) -> None:
        """Send queued traces, then release the store and the models this memory opened."""
        self.tracing.flush()
        self.resources.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ctx(self, overrides: dict[str, Any]) -> Context:
        if not overrides:
            return self.context
        return self.context.with_overrides(**overrides)

    def _config(self, action: str, namespace: str, policy: str | None = None, *, ctx: Context,
                config: RunnableConfig | None) -> RunnableConfig:
        """Our run name, tags and metadata, merged with the caller's config, traced as ``trace_redaction`` says."""
        tags = [f"dmem:{action}", f"engine:{self.services.decider.name}"]
        if policy:
            tags.append(f"policy:{policy}")
        ours: RunnableConfig = {"run_name": f"dmem.{action}", "tags": tags, "max_concurrency": ctx.max_concurrency,
                                "metadata": {"namespace": namespace}, "recursion_limit": 100}
        return self.tracing.config(ctx.trace_redaction, merge_configs(ours, config))


def _not_found(memory_id: str, namespace: str) -> str:
    return f"no memory {memory_id!r} for user {namespace!r}"
