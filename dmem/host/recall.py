"""A host node that recalls what dmem knows about the last human message into the host's ``messages``."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, RemoveMessage, SystemMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from dmem.host.binding import HostLabels, MemoryGraphs, graphs_of, host_user, labels_of, query_input
from dmem.services import dmem_context
from dmem.state.verdicts import NO_INFO

RECALL_NAME = "dmem_memory"
"""``name`` of the system message the recall node writes (one per thread: each turn replaces it)."""

RecallNode = Callable[[dict[str, Any], Runtime[Any]], dict[str, Any]]


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

    def recall(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        """Ask dmem's query graph the last human message, for the host's user."""
        messages: list[AnyMessage] = list(state.get("messages") or [])
        question = next((m.text for m in reversed(messages) if isinstance(m, HumanMessage) and m.text.strip()), None)
        if question is None:
            return {}
        user = host_user(state, runtime.context, get_config())
        out = graphs.query_graph.invoke(query_input(question, user, read_filter(state, runtime.context)),
                                        context=dmem_context(runtime.context))
        stale = [RemoveMessage(id=m.id) for m in messages if m.name == RECALL_NAME and m.id]
        note = SystemMessage(content=render_recall(out), name=RECALL_NAME, id=f"dmem-recall-{uuid.uuid4().hex}",
                             additional_kwargs={"dmem": {"route": out.get("route"),
                                                         "memory_ids": list(out.get("memory_ids") or [])}})
        return {"messages": [*stale, note]}

    return recall


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
