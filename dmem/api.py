"""``Memory``: the Python API over one store (a directory, or a PostgreSQL database) and the two graphs.

Every method acts inside the namespace it is given: ``user_id`` (or ``user_ids``), scoped further
by ``agent_id`` and ``run_id`` as ``dmem.scopes`` composes them (nothing given: 'default'). An id
of another namespace's memory is answered exactly like an unknown id.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import merge_configs

from dmem import validation as check
from dmem.api_async import AsyncMethods
from dmem.api_reset import ResetMethods
from dmem.api_transfer import TransferMethods
from dmem.batches import BatchForming, iter_exchanges, unformed_groups
from dmem.errors import DataError, NotFoundError
from dmem.graphs import compile_ingestion_graph, compile_query_graph
from dmem.langgraph_store import DmemStore, NamespaceRule
from dmem.messages import MessageLike, to_message, to_messages
from dmem.metadata import check_metadata
from dmem.models.embeddings import embedding_name
from dmem.models.embeddings_base import langchain_embeddings
from dmem.models.endpoints import Endpoints
from dmem.resends import keyed, recorded_resend
from dmem.scopes import scope, scopes
from dmem.services import Resources, Services
from dmem.state.context import Context, build_context
from dmem.state.graphs import QueryInput
from dmem.state.privacy_terms import of_settings
from dmem.state.results import AddResult, Answer, PendingTurn, SearchResult
from dmem.state.schemas import HistoryEntry, MemoryRecord, Message, Operation
from dmem.store import MemoryStore, Routing, SearchFilter, validate_namespace
from dmem.store.knowledge import KnowledgeSource
from dmem.tracing import TraceClients
from dmem.verbatim import store_turns

log = logging.getLogger(__name__)
Progress = Callable[[int, int], None]
__all__ = ["Memory", "MessageLike", "iter_exchanges", "to_message", "to_messages"]


class Memory(AsyncMethods, TransferMethods, ResetMethods):
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
        check.chat_model(llm)
        check.embedding_model(embeddings)
        path = check.store_path(path)
        if path is not None:
            settings["store_dir"] = str(path)
        if isinstance(llm, str):
            settings["chat_model"] = llm
        if isinstance(embeddings, str):
            settings["embedding_model"] = embeddings
        self.context = build_context(config_file=config_file, **settings)
        """This memory's settings; ``ask``/``add`` keyword overrides change them per call."""
        self.resources = Resources(self.context, chat_model=llm if isinstance(llm, BaseChatModel) else None,
                                   embeddings=embeddings if isinstance(embeddings, langchain_embeddings()) else None,
                                   knowledge=knowledge, api_key=api_key, read_only=read_only,
                                   endpoints=endpoints)
        """Owner of the open store and the models; ``close()`` releases them."""
        self.store: MemoryStore = self.resources.store
        """The open store (local directory or PostgreSQL), shared with the graphs."""
        self.embedding = embedding_name(self.services.embeddings)
        self.ingestion_graph = compile_ingestion_graph(resources=self.resources)
        self.query_graph = compile_query_graph(resources=self.resources)
        self.tracing = TraceClients(of_settings(self.context))
        """Redacting LangSmith clients for this memory's runs (see ``trace_redaction``)."""
        self._overridden: dict[tuple[int, frozenset[tuple[str, type, Any]]], tuple[Context, Context]] = {}
        self._forming = BatchForming(self.ingestion_graph, self.store,
                                     lambda ns, ctx, config: self._config("ingest", ns, ctx=ctx, config=config))

    @property
    def services(self) -> Services:
        """The decider, store and embeddings of this memory's own settings."""
        return self.resources.services(self.context)

    # Writing ------------------------------------------------------------------------------
    def add(self, messages: MessageLike | Sequence[MessageLike], *, user_id: str = "default",
            agent_id: str | None = None, run_id: str | None = None, conversation_id: str | None = None,
            speaker_namespaces: dict[str, str] | None = None, exchange_size: int = 2,
            metadata: Mapping[str, Any] | None = None, progress: Progress | None = None,
            config: RunnableConfig | None = None, infer: bool = True, idempotency_key: str | None = None,
            **overrides: Any) -> AddResult:
        """Record every message, then form memories one exchange (default: a message pair) at a time.

        All turns are recorded in one transaction before any is formed (bad input stores
        nothing). Turns already formed are skipped; an exchange whose formation fails (malformed
        reply, provider error) is kept as pending, with its reason, and the batch goes on.
        ``metadata`` labels every memory the call's turns create or update (``search`` filters on
        it): it is kept with the turns and written with their memories, also when they are formed
        later by ``retry_pending``.
        ``idempotency_key`` names this send: sending it again (any conversation, any time) records
        nothing new and forms what is still unformed. Without one, a resend of the same turns within
        ``resend_window`` seconds is recognised by content when ``conversation_id`` is not given.
        ``overrides`` change settings for this call only, e.g. ``location="Lisbon"``. ``config``
        (callbacks, tags, metadata, run_name) goes to every graph run, traced as ``trace_redaction`` says.
        ``infer=False`` makes no model call: each message's text is stored as one memory, as said
        (scoped by the privacy detector, recorded in history), and the turns are recorded as usual.
        """
        check.add_arguments(exchange_size, progress, config)
        ctx, stored, routing = self._record(messages, scope(user_id, agent_id, run_id), conversation_id,
                                            speaker_namespaces, metadata, overrides, idempotency_key)
        started = time.perf_counter()
        if not infer:
            labels = check_metadata(metadata) if metadata is not None else None
            result = store_turns(self.store, self.services.embed, stored, routing, labels)
            return AddResult(exchanges=[result], seconds=time.perf_counter() - started)
        exchanges = self._forming.run(stored, routing, ctx, exchange_size, progress, config=config)
        return AddResult(exchanges=exchanges, seconds=time.perf_counter() - started)

    def retry_pending(self, *, user_id: str = "default", user_ids: Sequence[str] | None = None,
                      agent_id: str | None = None, run_id: str | None = None, progress: Progress | None = None,
                      config: RunnableConfig | None = None, **overrides: Any) -> AddResult:
        """Form every turn of these namespaces not formed yet (new or pending), each where it was recorded."""
        ctx = self._ctx(overrides)
        started = time.perf_counter()
        groups = unformed_groups(self.store, scopes(user_ids, user_id, agent_id, run_id))
        total, exchanges = sum(len(turns) for _, turns in groups), []
        for routing, turns in groups:
            exchanges += self._forming.run(turns, routing, ctx, config=config)
            if progress:
                progress(sum(len(ex.turn_ids) for ex in exchanges), total)
        return AddResult(exchanges=exchanges, seconds=time.perf_counter() - started)

    def update(self, memory_id: str, text: str | None = None, *, user_id: str = "default",
               agent_id: str | None = None, run_id: str | None = None, metadata: Mapping[str, Any] | None = None,
               reason: str = "updated by the user") -> MemoryRecord:
        """Change one of the user's memories (its text, its metadata or both); history keeps old and new text."""
        ns = scope(user_id, agent_id, run_id)
        if text is None and metadata is None:
            raise DataError("update needs a new text, new metadata, or both")
        if text is not None:
            check.text_value(text, f"the new text of memory {memory_id!r}")
        labels = check_metadata(metadata) if metadata is not None else {}
        vector = self.services.embed([text.strip()])[0] if text is not None else None
        with self.store.transaction():
            old = self.get(memory_id, user_id=ns)
            new = old.model_copy(update={"text": text.strip() if text is not None else old.text,
                                         "metadata": {**old.metadata, **labels}, "updated_at": datetime.now(UTC)})
            self.store.vectors.update(new, vector)
            self.store.history.append(ns, memory_id, Operation.UPDATE, old.text, new.text, reason)
        return new

    def delete(self, memory_id: str, *, user_id: str = "default", agent_id: str | None = None,
               run_id: str | None = None, reason: str = "deleted by the user") -> MemoryRecord:
        """Remove one of the user's memories from retrieval; its history keeps the text."""
        ns = scope(user_id, agent_id, run_id)
        with self.store.transaction():
            removed = self.store.vectors.delete(ns, memory_id)
            if removed is None:
                raise NotFoundError(_not_found(memory_id, ns))
            self.store.history.append(ns, memory_id, Operation.DELETE, removed.text, None, reason)
        return removed

    def delete_all(self, *, user_id: str = "default", agent_id: str | None = None, run_id: str | None = None,
                   reason: str = "deleted by the user (delete_all)") -> int:
        """Remove every live memory of the namespace in one transaction; returns how many.

        Each deletion is recorded in history. The transcript stays: Full Deliberation still reads it.
        """
        ns = scope(user_id, agent_id, run_id)
        with self.store.transaction():
            records = self.store.vectors.list(ns)
            for record in records:
                self.store.vectors.delete(ns, record.id)
                self.store.history.append(ns, record.id, Operation.DELETE, record.text, None, reason)
        return len(records)

    # Reading ------------------------------------------------------------------------------
    def ask(self, question: str, *, user_ids: Sequence[str] | None = None, user_id: str = "default",
            agent_id: str | None = None, run_id: str | None = None, metadata: Mapping[str, Any] | None = None,
            config: RunnableConfig | None = None, **overrides: Any) -> Answer:
        """Answer from memory; the gate decides whether Full Deliberation reads the transcript.

        ``metadata`` restricts everything the answer may read, System 1's memories and the
        transcript turns deliberation reads, to those labelled with every one of these values
        (unlabelled ones never match). ``config`` (callbacks, tags, metadata, run_name) goes to
        the query graph run.
        """
        ctx, state, run_config = self._query(question, scopes(user_ids, user_id, agent_id, run_id), metadata,
                                             overrides, config)
        started = time.perf_counter()
        out = self.query_graph.invoke(state, context=ctx, config=run_config)
        return Answer.from_state(question, out, time.perf_counter() - started, self.services.decider.name)

    def search(self, query: str, *, user_id: str = "default", agent_id: str | None = None,
               run_id: str | None = None, limit: int = 10, where: SearchFilter | None = None,
               metadata: Mapping[str, Any] | None = None, threshold: float | None = None) -> list[SearchResult]:
        """The user's memories most similar to the query, best first; ``metadata`` values must all match.

        ``threshold`` keeps only memories whose cosine similarity to the query is at least this.
        """
        check.search_arguments(query, limit, where)
        ns = scope(user_id, agent_id, run_id)
        if metadata is not None:
            where = SearchFilter.with_metadata(check_metadata(metadata), where)
        vector = self.services.embed([query])[0]
        hits = self.store.vectors.search([ns], vector, limit, where=where, min_score=check.threshold(threshold))
        return [SearchResult(memory=h.record, score=h.score) for h in hits]

    def get(self, memory_id: str, *, user_id: str = "default", agent_id: str | None = None,
            run_id: str | None = None) -> MemoryRecord:
        """One of the user's live memories by id (NotFoundError otherwise)."""
        ns = scope(user_id, agent_id, run_id)
        record = self.store.vectors.get(ns, memory_id)
        if record is None:
            raise NotFoundError(_not_found(memory_id, ns))
        return record

    def get_all(self, *, user_id: str = "default", agent_id: str | None = None, run_id: str | None = None,
                where: SearchFilter | None = None) -> list[MemoryRecord]:
        """Every live memory of a namespace (that passes ``where``), oldest first."""
        check.search_filter(where)
        records = self.store.vectors.list(scope(user_id, agent_id, run_id))
        return records if where is None else [r for r in records if where.matches(r)]

    def history(self, memory_id: str, *, user_id: str = "default", agent_id: str | None = None,
                run_id: str | None = None) -> list[HistoryEntry]:
        """Every operation on one of the user's memories, oldest first (deleted memories keep theirs)."""
        ns = scope(user_id, agent_id, run_id)
        rows = self.store.history.for_memory(ns, memory_id)
        if not rows:
            raise NotFoundError(_not_found(memory_id, ns))
        return rows

    def transcript(self, *, user_ids: Sequence[str] | None = None, user_id: str = "default",
                   agent_id: str | None = None, run_id: str | None = None) -> list[Message]:
        """The raw messages recorded for these namespaces, in time order."""
        return self.store.transcript.messages(scopes(user_ids, user_id, agent_id, run_id))

    def pending(self, *, user_id: str = "default", agent_id: str | None = None,
                run_id: str | None = None) -> list[PendingTurn]:
        """The user's turns whose formation failed, with the reason (``retry_pending`` forms them)."""
        ns = scope(user_id, agent_id, run_id)
        return [PendingTurn(conversation_id=m.conversation_id, turn_id=m.turn_id, reason=why)
                for m, why in self.store.transcript.pending(ns)]

    def as_store(self, rule: NamespaceRule | None = None, *,
                 reason: str = "through the LangGraph store") -> DmemStore:
        """The memory as a LangGraph ``BaseStore`` (for ``create_react_agent(store=...)``, LangMem's tools).

        ``rule`` maps namespace tuples to dmem namespaces (default: ``("memories", user_id)``, with
        optional ``"agent:<id>"`` and ``"run:<id>"`` labels after the user); see ``docs/langgraph-store.md``.
        """
        return DmemStore(self.store, self.services.embeddings, rule=rule, reason=reason)

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
        """The settings of one call: this memory's, with the call's keyword overrides (built once per combination)."""
        if not overrides:
            return self.context
        try:
            key = (id(self.context), frozenset((k, type(v), v) for k, v in overrides.items()))  # True is not 1
            found = self._overridden.get(key)
        except TypeError:  # an unhashable value: validated afresh
            return self.context.with_overrides(**overrides)
        if found is None or found[0] is not self.context:
            if len(self._overridden) >= 64:
                self._overridden.clear()
            found = self._overridden[key] = (self.context, self.context.with_overrides(**overrides))
        return found[1]

    def _record(self, messages: Any, namespace: str, conversation_id: str | None,
                speakers: dict[str, str] | None, metadata: Mapping[str, Any] | None,
                overrides: dict[str, Any], key: str | None = None) -> tuple[Context, list[Message], Routing]:
        """Check an add's inputs and record its turns with their labels: (settings, stored turns, routing).

        A resend (``dmem.resends``) keeps the conversation, time and position its turns were recorded with.
        """
        ctx = self._ctx(overrides)
        labels = check_metadata(metadata) if metadata is not None else {}
        routing = Routing.of(namespace, speakers)
        conversation = routing.origin if conversation_id is None else validate_namespace(conversation_id,
                                                                                         "conversation_id")
        if key is not None and (not isinstance(key, str) or not key.strip()):
            raise DataError(f"idempotency_key must be non-empty text; got {key!r}")
        turns = keyed(to_messages(messages, conversation), key)
        if key or (conversation_id is None and all(t.conversation_id == conversation for t in turns)):
            turns = recorded_resend(self.store, routing.origin, turns, key=key, window_s=ctx.resend_window) or turns
        stored = self.store.transcript.append(routing, turns, labels)
        return ctx, stored, routing

    def _query(self, question: str, namespaces: list[str], metadata: Mapping[str, Any] | None,
               overrides: dict[str, Any], config: RunnableConfig | None) -> tuple[Context, QueryInput, RunnableConfig]:
        """Settings, graph input (with the checked label filter, when given) and run config of one ``ask``."""
        state: QueryInput = {"question": question, "namespaces": namespaces}
        if metadata is not None:
            state["metadata"] = check_metadata(metadata)
        ctx = self._ctx(overrides)
        run_config = self._config("ask", ",".join(namespaces), ctx.gate_policy, ctx=ctx, config=config)
        return ctx, state, run_config

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
