"""A host node that remembers the last exchange: now, or in the background after the host replied."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AnyMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableLambda
from langgraph.config import get_config
from langgraph.runtime import get_runtime

from dmem.host.background import BackgroundIngestion
from dmem.host.binding import HostLabels, MemoryGraphs, graphs_of, host_user, ingestion_input, labels_of
from dmem.host.recall import RECALL_NAME
from dmem.services import dmem_context

RememberNode = Runnable[dict[str, Any], dict[str, Any]]


def last_exchange(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """The last human message and everything after it (the reply, tool calls), without recall notes."""
    start = next((i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], HumanMessage)), None)
    if start is None:
        return []
    return [m for m in messages[start:] if m.name != RECALL_NAME]


def make_remember_node(memory: MemoryGraphs | None = None, *, background: BackgroundIngestion | None = None,
                       metadata: HostLabels | None = None) -> RememberNode:
    """A node for a ``MessagesState`` host that runs dmem's ingestion graph on the last exchange.

    The conversation is the host's thread (``thread_id``), the user the host's (``host_user``);
    message ids are the turn ids, so an exchange is never formed twice. With ``background``, the
    node returns at once and the exchange is formed in ``background``'s worker; the host must
    ``flush()`` or ``close()`` it before exiting (failures are logged and returned there).
    ``metadata`` labels every memory the exchange creates or updates, as ``Memory.add(metadata=...)``:
    a mapping, or a function of the host's state and runtime context (checked on each run, before
    anything is queued).
    """
    graphs = graphs_of(memory)
    labels = labels_of(metadata)

    def exchange_of(state: dict[str, Any]) -> tuple[dict[str, Any], Any, str] | None:
        """The ingestion graph's input, the run context and a label for the last exchange, or None."""
        exchange = last_exchange(list(state.get("messages") or []))
        if not exchange:
            return None
        config, context = get_config(), get_runtime().context
        user = host_user(state, context, config)
        thread = (config.get("configurable") or {}).get("thread_id")
        payload = ingestion_input(exchange, user, thread, labels(state, context))
        return payload, dmem_context(context), f"{user}/{thread or '-'}"

    def remember(state: dict[str, Any]) -> dict[str, Any]:
        """Hand the last exchange to dmem's ingestion graph."""
        found = exchange_of(state)
        if found is not None:
            if background is not None:
                background.submit(graphs.ingestion_graph, found[0], context=found[1], label=found[2])
            else:
                graphs.ingestion_graph.invoke(found[0], context=found[1])
        return {}

    async def aremember(state: dict[str, Any]) -> dict[str, Any]:
        """``remember`` through the ingestion graph's ``ainvoke``, on the host's event loop."""
        found = exchange_of(state)
        if found is not None:
            if background is not None:
                background.submit(graphs.ingestion_graph, found[0], context=found[1], label=found[2])
            else:
                await graphs.ingestion_graph.ainvoke(found[0], context=found[1])
        return {}

    return RunnableLambda(remember, aremember, name="remember")
