"""The async half of ``Memory``: graph runs through the graphs' ``ainvoke``, store work never on the loop's time.

``aadd``, ``aretry_pending`` and ``aask`` await the compiled graphs on the caller's loop (a burst of
them starts a few per turn of the loop, ``dmem.pacing``). What they do to the store themselves
(recording turns, finding unformed ones) and the methods that only touch the store (get, update,
delete, history) run the sync method's body through ``store.arun``: in a worker thread on the local
store, on the loop with every query awaited on its async pool on PostgreSQL (one body, the sync
one). ``asearch`` awaits the embeddings' async API and the store's ``asearch``. None blocks the loop
(tests/test_served_runs.py and tests/test_postgres_async_writes.py run them under the event-loop
guard ``langgraph dev`` uses).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig

from dmem import pacing
from dmem import validation as check
from dmem.api_core import MemoryCore
from dmem.batches import unformed_groups
from dmem.messages import MessageLike
from dmem.metadata import check_metadata
from dmem.scopes import scope, scopes
from dmem.state.results import AddResult, Answer, SearchResult
from dmem.state.schemas import HistoryEntry, MemoryRecord
from dmem.store import SearchFilter


class AsyncMethods:
    """Async twins of ``Memory``'s methods (mixed into ``Memory``)."""

    async def aadd(self: MemoryCore, messages: MessageLike | Sequence[MessageLike], *, user_id: str = "default",
                   agent_id: str | None = None, run_id: str | None = None, conversation_id: str | None = None,
                   speaker_namespaces: dict[str, str] | None = None, exchange_size: int = 2,
                   metadata: Mapping[str, Any] | None = None, progress: Any = None,
                   config: RunnableConfig | None = None, infer: bool = True, idempotency_key: str | None = None,
                   **overrides: Any) -> AddResult:
        """``add`` with every exchange formed by ``await graph.ainvoke`` (``infer=False``: the sync ``add``'s body)."""
        check.add_arguments(exchange_size, progress, config)
        if not infer:
            add = partial(self.add, messages, user_id=user_id, agent_id=agent_id, run_id=run_id,
                          conversation_id=conversation_id, speaker_namespaces=speaker_namespaces, metadata=metadata,
                          infer=False, idempotency_key=idempotency_key, **overrides)
            return await self.store.arun(add)
        ctx, stored, routing = await self.store.arun(self._record, messages, scope(user_id, agent_id, run_id),
                                                     conversation_id, speaker_namespaces, metadata, overrides,
                                                     idempotency_key)
        started = time.perf_counter()
        exchanges = await self._forming.arun(stored, routing, ctx, exchange_size, progress, config=config)
        return AddResult(exchanges=exchanges, seconds=time.perf_counter() - started)

    async def aretry_pending(self: MemoryCore, *, user_id: str = "default", user_ids: Sequence[str] | None = None,
                             agent_id: str | None = None, run_id: str | None = None,
                             config: RunnableConfig | None = None, **overrides: Any) -> AddResult:
        """``retry_pending`` through ``ainvoke``."""
        ctx = self._ctx(overrides)
        started = time.perf_counter()
        exchanges = []
        groups = await self.store.arun(unformed_groups, self.store, scopes(user_ids, user_id, agent_id, run_id))
        for routing, turns in groups:
            exchanges += await self._forming.arun(turns, routing, ctx, config=config)
        return AddResult(exchanges=exchanges, seconds=time.perf_counter() - started)

    async def aask(self: MemoryCore, question: str, *, user_ids: Sequence[str] | None = None, user_id: str = "default",
                   agent_id: str | None = None, run_id: str | None = None, metadata: Mapping[str, Any] | None = None,
                   config: RunnableConfig | None = None, **overrides: Any) -> Answer:
        """``ask`` through ``await query_graph.ainvoke`` (``metadata`` filters what it reads, as there)."""
        await pacing.start()
        ctx, state, run_config = self._query(question, scopes(user_ids, user_id, agent_id, run_id), metadata,
                                            overrides, config)
        started = time.perf_counter()
        out = await self.query_graph.ainvoke(state, context=ctx, config=run_config)
        return Answer.from_state(question, out, time.perf_counter() - started, self.services.decider.name)

    async def asearch(self: MemoryCore, query: str, *, user_id: str = "default", agent_id: str | None = None,
                      run_id: str | None = None, limit: int = 10, where: SearchFilter | None = None,
                      metadata: Mapping[str, Any] | None = None, threshold: float | None = None) -> list[SearchResult]:
        """``search`` with the query embedded through the embeddings' async API and the search awaited.

        On PostgreSQL the search runs on the caller's loop (async pool), on the local store in a worker thread.
        """
        check.search_arguments(query, limit, where)
        ns = scope(user_id, agent_id, run_id)
        if metadata is not None:
            where = SearchFilter.with_metadata(check_metadata(metadata), where)
        vector = (await self.services.embeddings.aembed_documents([query]))[0]
        hits = await self.store.vectors.asearch([ns], vector, limit, where=where, min_score=check.threshold(threshold))
        return [SearchResult(memory=h.record, score=h.score) for h in hits]

    async def aget(self: MemoryCore, memory_id: str, **kwargs: Any) -> MemoryRecord:
        """Async ``get``."""
        return await self.store.arun(partial(self.get, memory_id, **kwargs))

    async def aget_all(self: MemoryCore, **kwargs: Any) -> list[MemoryRecord]:
        """Async ``get_all``."""
        return await self.store.aoffload(partial(self.get_all, **kwargs))  # decoding many rows: a worker thread

    async def ahistory(self: MemoryCore, memory_id: str, **kwargs: Any) -> list[HistoryEntry]:
        """Async ``history``."""
        return await self.store.arun(partial(self.history, memory_id, **kwargs))

    async def aupdate(self: MemoryCore, memory_id: str, text: str | None = None, **kwargs: Any) -> MemoryRecord:
        """Async ``update`` (embedding the new text, then one store transaction)."""
        return await self.store.arun(partial(self.update, memory_id, text, **kwargs))

    async def adelete(self: MemoryCore, memory_id: str, **kwargs: Any) -> MemoryRecord:
        """Async ``delete``."""
        return await self.store.arun(partial(self.delete, memory_id, **kwargs))

    async def adelete_all(self: MemoryCore, **kwargs: Any) -> int:
        """Async ``delete_all``."""
        return await self.store.arun(partial(self.delete_all, **kwargs))
