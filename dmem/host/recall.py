"""A host node that recalls what dmem knows about the last human message into the host's ``messages``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, RemoveMessage, SystemMessage
from langchain_core.runnables import Runnable, RunnableLambda
from langgraph.config import get_config
from langgraph.runtime import get_runtime

from dmem.host.binding import HostLabels, MemoryGraphs, graphs_of, host_user, labels_of, query_input
from dmem.services import dmem_context
from dmem.state.verdicts import NO_INFO

RECALL_NAME = "dmem_memory"
"""``name`` of the system message the recall node writes (one per thread: each turn replaces it)."""

RecallNode = Runnable[dict[str, Any], dict[str, Any]]


def make_recall_node(memory: MemoryGraphs | None = None, *, read_metadata: HostLabels | None = None) -> RecallNode:
    """A node for a ``MessagesState`` host: dmem's answer to the last human message, as a system message.

    The message (``name='dmem_memory'``) comes right after the user's message and replaces the one
    of the previous turn, so the thread keeps one. Its ``additional_kwargs['dmem']`` holds the route
    and the memory ids. Hosts that need a single leading system prompt read it with ``recall_text``.
    ``read_metadata`` (fixed labels, or a function of the host's state and runtime context) limits
    the answer to memories and transcript turns carrying every one of them, as ``ask(metadata=...)``.
    """
    graphs = graphs_of(memory)
    read_filter = labels_of(read_metadata)

    def ask(state: dict[str, Any]) -> tuple[dict[str, Any], Any] | None:
        """The query graph's input and the run context for the last human message, or None."""
        messages: list[AnyMessage] = list(state.get("messages") or [])
        question = next((m.text for m in reversed(messages) if isinstance(m, HumanMessage) and m.text.strip()), None)
        if question is None:
            return None
        context = get_runtime().context
        user = host_user(state, context, get_config())
        return query_input(question, user, read_filter(state, context)), dmem_context(context)

    def recall(state: dict[str, Any]) -> dict[str, Any]:
        """Ask dmem's query graph the last human message, for the host's user."""
        found = ask(state)
        return {} if found is None else _noted(state, graphs.query_graph.invoke(found[0], context=found[1]))

    async def arecall(state: dict[str, Any]) -> dict[str, Any]:
        """``recall`` through the query graph's ``ainvoke``, on the host's event loop."""
        found = ask(state)
        return {} if found is None else _noted(state, await graphs.query_graph.ainvoke(found[0], context=found[1]))

    return RunnableLambda(recall, arecall, name="recall")


def _noted(state: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """The host's messages update: this turn's recall note, replacing the previous turn's."""
    stale = [RemoveMessage(id=m.id) for m in state.get("messages") or [] if m.name == RECALL_NAME and m.id]
    note = SystemMessage(content=render_recall(out), name=RECALL_NAME, id=f"dmem-recall-{uuid.uuid4().hex}",
                         additional_kwargs={"dmem": {"route": out.get("route"),
                                                     "memory_ids": list(out.get("memory_ids") or [])}})
    return {"messages": [*stale, note]}


def render_recall(out: dict[str, Any]) -> str:
    """The query graph's answer and the memories behind it, as text for the host's model."""
    answer = str(out.get("answer") or "").strip()
    if out.get("route") == "no_memory" or not answer or answer == NO_INFO:
        return "Long-term memory (dmem) holds nothing about the user's last message."
    used = set(out.get("memory_ids") or [])
    sources = [m.render() for m in out.get("memories") or [] if m.id in used]
    sources += [f.fact for f in out.get("facts_used") or []]
    lines = ["Long-term memory (dmem) about the user's last message:", f"answer: {answer}"]
    if sources:
        lines += ["based on:", *(f"- {s}" for s in sources)]
    return "\n".join(lines)


def recall_text(messages: Sequence[BaseMessage]) -> str | None:
    """The text of the latest recall message in a thread, or None."""
    found = next((m for m in reversed(messages) if m.name == RECALL_NAME), None)
    return None if found is None else found.text
