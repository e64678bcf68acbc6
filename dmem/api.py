"""``Memory``: the Python API over one store directory and the two compiled graphs."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from dmem.errors import DataError, StoreError
from dmem.graphs import compile_ingestion_graph, compile_query_graph
from dmem.models.embeddings import embedding_dim, embedding_name, make_embeddings
from dmem.models.endpoints import Endpoints
from dmem.services import Resources, services_for
from dmem.state.context import Context, build_context
from dmem.state.results import AddResult, Answer, ExchangeResult, SearchResult
from dmem.state.schemas import HistoryEntry, MemoryRecord, Message
from dmem.store import SearchFilter, open_store
from dmem.store.knowledge import KnowledgeSource

MessageLike = Message | dict[str, Any] | str
Progress = Callable[[int, int], None]


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
                 config_file: str | Path | None = None, read_only: bool = False,
                 endpoints: Endpoints | None = None, **settings: Any) -> None:
        if path is not None:
            settings["store_dir"] = str(path)
        if isinstance(llm, str):
            settings["chat_model"] = llm
        if isinstance(embeddings, str):
            settings["embedding_model"] = embeddings
        ctx = build_context(config_file=config_file, **settings)
        emb = make_embeddings(embeddings if isinstance(embeddings, Embeddings) else ctx.embedding_model,
                              base_url=ctx.base_url, api_key=ctx.api_key)
        store = open_store(ctx.store_dir, dim=embedding_dim(emb), read_only=read_only,
                           embedding=embedding_name(emb))
        chat = llm if isinstance(llm, BaseChatModel) else None
        self.resources = Resources(chat_model=chat, embeddings=emb, store=store, knowledge=knowledge,
                                   endpoints=endpoints or Endpoints())
        self.context = build_context(base=ctx, environ={}, resources=self.resources)
        self.services = services_for(self.context)
        self.store = store
        self.ingestion_graph = compile_ingestion_graph()
        self.query_graph = compile_query_graph()

    # Writing ------------------------------------------------------------------------------
    def add(self, messages: MessageLike | Sequence[MessageLike], *, user_id: str = "default",
            conversation_id: str | None = None, speaker_namespaces: dict[str, str] | None = None,
            exchange_size: int = 2, progress: Progress | None = None,
            **overrides: Any) -> AddResult:
        """Record messages and form memories, one exchange (default: a message pair) at a time, in order.

        Turns already formed are skipped; turns recorded but not formed (a crash, or kept for retry
        after a malformed reply) are formed again. ``overrides`` change settings for this call only,
        e.g. ``location="Lisbon"`` to ground "here".
        """
        ctx = self._ctx(overrides)
        started = time.perf_counter()
        msgs = self._normalize(messages, conversation_id or user_id)
        exchanges = iter_exchanges(msgs, exchange_size)
        results = []
        for done, exchange in enumerate(exchanges, start=1):
            out = self.ingestion_graph.invoke(  # type: ignore[call-overload]
                {"messages": exchange, "user_id": user_id, "speaker_namespaces": speaker_namespaces or {}},
                context=ctx, config=self._config("ingest", user_id))
            results.append(_exchange_result(exchange, out))
            if progress:
                progress(done, len(exchanges))
        return AddResult(exchanges=results, seconds=time.perf_counter() - started)

    def retry_pending(self, *, user_id: str = "default",
                      speaker_namespaces: dict[str, str] | None = None) -> AddResult:
        """Run formation again on turns kept for retry after malformed model replies."""
        pending = [m for m, _ in self.store.transcript.pending()]
        if not pending:
            return AddResult()
        return self.add(pending, user_id=user_id, speaker_namespaces=speaker_namespaces)

    def delete(self, memory_id: str, *, reason: str = "deleted by the user") -> MemoryRecord:
        """Remove a memory from retrieval; its history keeps the text."""
        from dmem.state.schemas import Operation

        with self.store.transaction():
            removed = self.store.vectors.delete(memory_id)
            if removed is None:
                raise StoreError(f"no memory with id {memory_id!r}")
            self.store.history.append(memory_id, removed.namespace, Operation.DELETE, removed.text, None, reason)
        return removed

    # Reading ------------------------------------------------------------------------------
    def ask(self, question: str, *, user_ids: Sequence[str] | None = None, user_id: str | None = None,
            **overrides: Any) -> Answer:
        """Answer from memory; the gate decides whether Full Deliberation reads the transcript."""
        ctx = self._ctx(overrides)
        namespaces = list(user_ids or [user_id or "default"])
        started = time.perf_counter()
        out = self.query_graph.invoke({"question": question, "namespaces": namespaces}, context=ctx,
                                      config=self._config("ask", ",".join(namespaces), ctx.gate_policy))  # type: ignore[call-overload]
        return Answer.from_state(question, out, time.perf_counter() - started, self.services.decider.name)

    def search(self, query: str, *, user_id: str = "default", limit: int = 10,
               where: SearchFilter | None = None) -> list[SearchResult]:
        """Memories most similar to the query, best first."""
        vector = self.services.embed([query])[0]
        hits = self.store.vectors.search([user_id], vector, limit, where=where)
        return [SearchResult(memory=h.record, score=h.score) for h in hits]

    def get_all(self, *, user_id: str = "default") -> list[MemoryRecord]:
        """Every live memory of a namespace, oldest first."""
        return self.store.vectors.list(user_id)

    def history(self, memory_id: str) -> list[HistoryEntry]:
        """Every operation on one memory, oldest first (deleted memories keep theirs)."""
        return self.store.history.for_memory(memory_id)

    def transcript(self, *, user_ids: Sequence[str] | None = None) -> list[Message]:
        """The raw messages recorded for these namespaces, in time order."""
        return self.store.transcript.messages(list(user_ids or ["default"]))

    # Export / import ----------------------------------------------------------------------
    def export(self, path: str | Path | None = None, *, user_id: str | None = None) -> dict[str, Any]:
        """Memories (and their history) as JSON-ready data; written to ``path`` when given."""
        records = self.store.export_records(user_id)
        data = {"format": "dmem-export", "version": 1,
                "memories": [r.model_dump(mode="json") for r in records],
                "history": [h.model_dump(mode="json") for r in records for h in self.history(r.id)]}
        if path is not None:
            Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
        return data

    def import_(self, source: str | Path | dict[str, Any]) -> int:
        """Load memories exported by ``export`` (re-embedded with this store's model); returns the count."""
        data = source if isinstance(source, dict) else _read_json(Path(source))
        if data.get("format") != "dmem-export":
            raise DataError("not a dmem export: expected {'format': 'dmem-export', ...}")
        records = [MemoryRecord.model_validate(r) for r in data.get("memories", [])]
        vectors = self.services.embed([r.text for r in records])
        return self.store.import_records(records, vectors)

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

    async def ahistory(self, memory_id: str) -> list[HistoryEntry]:
        """Async ``history``."""
        return await asyncio.to_thread(self.history, memory_id)

    async def adelete(self, memory_id: str, **kwargs: Any) -> MemoryRecord:
        """Async ``delete``."""
        return await asyncio.to_thread(self.delete, memory_id, **kwargs)

    # Plumbing -----------------------------------------------------------------------------
    def close(self) -> None:
        """Release the store (and its writer lock)."""
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ctx(self, overrides: dict[str, Any]) -> Context:
        if not overrides:
            return self.context
        return self.context.with_overrides(**overrides)

    def _config(self, action: str, namespace: str, policy: str | None = None) -> dict[str, Any]:
        tags = [f"dmem:{action}", f"engine:{self.services.decider.name}"]
        if policy:
            tags.append(f"policy:{policy}")
        return {"run_name": f"dmem.{action}", "tags": tags, "max_concurrency": self.context.max_concurrency,
                "metadata": {"namespace": namespace}, "recursion_limit": 100}

    def _normalize(self, messages: MessageLike | Sequence[MessageLike], conversation_id: str) -> list[Message]:
        items = [messages] if isinstance(messages, str | dict | Message) else list(messages)
        last = self.store.transcript.before(conversation_id, 2**62, 1)
        base = last[0].seq + 1 if last else 0
        seen: dict[str, int] = {}
        out = []
        for i, item in enumerate(items):
            msg = to_message(item, conversation_id)
            if msg.turn_id == "":
                key = f"{msg.speaker}|{msg.text}|{msg.timestamp}"
                seen[key] = seen.get(key, 0) + 1
                digest = hashlib.sha1(f"{key}|{seen[key]}".encode()).hexdigest()[:12]
                msg = msg.model_copy(update={"turn_id": f"auto-{digest}"})
            if "seq" not in msg.model_fields_set:
                msg = msg.model_copy(update={"seq": base + i})
            out.append(msg)
        return out


def to_message(item: MessageLike, conversation_id: str) -> Message:
    """A Message from a Message, a dict (speaker/role, text/content, timestamp, turn_id) or a string."""
    if isinstance(item, Message):
        return item
    if isinstance(item, str):
        return Message(conversation_id=conversation_id, turn_id="", speaker="user", text=item)
    if not isinstance(item, dict):
        raise DataError(f"cannot read a message from {type(item).__name__}: use a dict or a string")
    text = item.get("text", item.get("content"))
    if text is None:
        raise DataError(f"message {item!r} has no 'text' or 'content'")
    stamp = item.get("timestamp")
    if isinstance(stamp, str):
        try:
            stamp = datetime.fromisoformat(stamp)
        except ValueError:
            raise DataError(f"timestamp {stamp!r} is not ISO 8601 (e.g. 2023-05-08T13:56:00)") from None
    return Message(conversation_id=str(item.get("conversation_id") or conversation_id),
                   turn_id=str(item.get("turn_id") or item.get("id") or ""),
                   speaker=str(item.get("speaker") or item.get("role") or item.get("name") or "user"),
                   text=str(text), timestamp=stamp, image_caption=item.get("image_caption"),
                   **({"seq": int(item["seq"])} if item.get("seq") is not None else {}))


def _exchange_result(exchange: list[Message], out: dict[str, Any]) -> ExchangeResult:
    return ExchangeResult(turn_ids=[m.turn_id for m in exchange], status=out.get("status", "formed"),
                          admissions=out.get("admissions") or [], facts=out.get("facts") or [],
                          operations=out.get("operations") or [], error=out.get("error"),
                          usage=out.get("usage") or [])


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"file {str(path)!r} does not exist") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"file {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise DataError(f"file {str(path)!r} must hold a JSON object")
    return data


def iter_exchanges(messages: Iterable[Message], size: int = 2) -> list[list[Message]]:
    """Consecutive exchanges of ``size`` messages."""
    msgs = list(messages)
    return [msgs[i:i + size] for i in range(0, len(msgs), max(1, size))]
