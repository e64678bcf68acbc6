"""Forming a batch of recorded turns: one ingestion-graph run per exchange, failures kept pending.

Every exchange of one batch runs under one worker token (the claim on its turns). A model
failure that escapes the graph still leaves the exchange's turns pending with the reason, and
the batch goes on; any other failure (the store down, full or locked) also leaves them pending
with the reason, releasing the claim, and propagates.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import merge_configs

from dmem import pacing
from dmem.errors import ModelError
from dmem.nodes.recording import CLAIM_KEY, RECORDED_KEY
from dmem.state.context import Context
from dmem.state.results import ExchangeResult
from dmem.state.schemas import Message
from dmem.store import MemoryStore, Routing
from dmem.store.claims import new_worker
from dmem.store.namespaces import turn_keys

log = logging.getLogger(__name__)
Progress = Callable[[int, int], None]


def iter_exchanges(messages: Iterable[Message], size: int = 2) -> list[list[Message]]:
    """Consecutive exchanges of ``size`` messages."""
    msgs = list(messages)
    return [msgs[i:i + size] for i in range(0, len(msgs), max(1, size))]


def unformed_groups(store: MemoryStore, namespaces: Sequence[str]) -> list[tuple[Routing, list[Message]]]:
    """The namespaces' unformed turns, grouped by the routing they were recorded with, in order.

    A turn recorded in several of the namespaces (a speaker map) appears once.
    """
    groups: dict[tuple[Routing, str], dict[str, Message]] = {}
    for ns in namespaces:
        for turn in store.transcript.unformed(ns):
            group = groups.setdefault((turn.routing, turn.message.conversation_id), {})
            group.setdefault(turn.message.turn_id, turn.message)
    return [(routing, sorted(turns.values(), key=lambda m: m.seq)) for (routing, _), turns in groups.items()]


class BatchForming:
    """Runs the ingestion graph over a batch's exchanges for one Memory."""

    def __init__(self, graph: Any, store: MemoryStore,
                 config: Callable[[str, Context, RunnableConfig | None], RunnableConfig]) -> None:
        self.graph = graph
        self.store = store
        self.config = config
        """Run config for a namespace, the call's settings and the caller's config (run name, tags, tracing)."""

    def run(self, messages: list[Message], routing: Routing, ctx: Context, exchange_size: int = 2,
            progress: Progress | None = None, *, config: RunnableConfig | None = None) -> list[ExchangeResult]:
        """Form the exchanges in order, under one worker token (``config`` is the caller's run config)."""
        worker = new_worker()
        exchanges = iter_exchanges(messages, exchange_size)
        results = []
        for done, exchange in enumerate(exchanges, start=1):
            results.append(self.exchange(exchange, routing, ctx, worker, config))
            if progress:
                progress(done, len(exchanges))
        return results

    async def arun(self, messages: list[Message], routing: Routing, ctx: Context, exchange_size: int = 2,
                   progress: Progress | None = None, *, config: RunnableConfig | None = None) -> list[ExchangeResult]:
        """``run`` on the event loop: each exchange is one ``ainvoke`` of the graph, in order."""
        worker = new_worker()
        exchanges = iter_exchanges(messages, exchange_size)
        results = []
        for done, exchange in enumerate(exchanges, start=1):
            results.append(await self.aexchange(exchange, routing, ctx, worker, config))
            if progress:
                progress(done, len(exchanges))
        return results

    def exchange(self, exchange: list[Message], routing: Routing, ctx: Context, worker: str,
                 caller: RunnableConfig | None = None) -> ExchangeResult:
        """One graph run; a model failure that escapes the graph still leaves the turns pending."""
        state, config = self._inputs(exchange, routing, ctx, worker, caller)
        try:
            out = self.graph.invoke(state, context=ctx, config=config)
        except BaseException as exc:
            return self._failed(exchange, routing, worker, exc)
        return exchange_result(exchange, out)

    async def aexchange(self, exchange: list[Message], routing: Routing, ctx: Context, worker: str,
                        caller: RunnableConfig | None = None) -> ExchangeResult:
        """``exchange`` through the graph's ``ainvoke`` (a burst of runs starts a few per turn of the loop)."""
        await pacing.start()
        state, config = self._inputs(exchange, routing, ctx, worker, caller)
        try:
            out = await self.graph.ainvoke(state, context=ctx, config=config)
        except BaseException as exc:
            return await self.store.arun(self._failed, exchange, routing, worker, exc)  # store work: never on the loop
        return exchange_result(exchange, out)

    def _inputs(self, exchange: list[Message], routing: Routing, ctx: Context, worker: str,
                caller: RunnableConfig | None) -> tuple[dict[str, Any], RunnableConfig]:
        ours: RunnableConfig = {"configurable": {CLAIM_KEY: worker, RECORDED_KEY: True}}  # recorded by the caller
        config = merge_configs(self.config(routing.origin, ctx, caller), ours)
        state = {"turns": exchange, "user_id": routing.origin, "speaker_namespaces": dict(routing.speakers)}
        return state, config

    def _failed(self, exchange: list[Message], routing: Routing, worker: str, exc: BaseException) -> ExchangeResult:
        """Keep the turns pending with the reason; a model failure is a result, any other failure re-raises.

        The claim is released before the error reaches the caller (also when the store is down:
        ``TurnStatus.fail`` then writes the release before this process's next claim).
        """
        reason = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, ModelError):
            self.store.transcript.mark_pending(routing.namespaces(), turn_keys(exchange), reason, worker=worker)
            log.warning("formation failed, turns kept for retry: %s", reason)
            return exchange_result(exchange, {"status": "pending_retry", "error": reason})
        if not self.store.closed and not self.store.read_only:
            self.store.transcript.fail(worker, reason)
        raise exc


def exchange_result(exchange: list[Message], out: dict[str, Any]) -> ExchangeResult:
    """What one graph run did, for ``AddResult``."""
    return ExchangeResult(turn_ids=[m.turn_id for m in exchange],
                          conversation_id=exchange[0].conversation_id if exchange else None,
                          status=out.get("status", "formed"), admissions=out.get("admissions") or [],
                          facts=out.get("facts") or [], operations=out.get("operations") or [],
                          error=out.get("error"), usage=out.get("usage") or [])
