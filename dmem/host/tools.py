"""Agent tools over dmem: search, ask, remember, update and forget, for LangChain's ``create_agent``.

The tools read the user from the agent's runtime (``user_id`` in its state, context or configurable)
and dmem settings from its context's ``dmem`` field; the model only sees the query or the text.
Labels on what ``remember`` stores (``metadata=``) and the label filter on what ``search_memory`` and
``ask_memory`` read (``read_metadata=``) are the developer's, never the model's: search filters and
host code trust them, so a prompt must not be able to set or widen them.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from langchain.tools import ToolRuntime
from langchain_core.messages import HumanMessage
from langchain_core.tools import BaseTool, StructuredTool

from dmem.host.binding import HostLabels, MemoryGraphs, graphs_of, host_user, ingestion_input, labels_of, query_input
from dmem.host.editing import editing_tools
from dmem.services import Services, dmem_context
from dmem.store import SearchFilter
from dmem.store.filters import Hit


def memory_tools(memory: MemoryGraphs | None = None, *, search_limit: int = 5, metadata: HostLabels | None = None,
                 read_metadata: HostLabels | None = None) -> list[BaseTool]:
    """``search_memory``, ``ask_memory``, ``remember``, ``update_memory`` and ``forget_memory`` over a ``Memory``.

    Without a ``Memory`` they drive the served graphs. ``search_memory`` shows each memory's id, which
    ``update_memory`` and ``forget_memory`` take; all five act for the user of the agent's runtime.

    ``metadata`` labels what ``remember`` stores; ``read_metadata`` limits what ``search_memory``
    and ``ask_memory`` read to memories (and, for ``ask_memory``, transcript turns) carrying every
    one of its labels. Each is a mapping, or a function of the agent's state and runtime context;
    the model can neither see nor set them.
    """
    graphs = graphs_of(memory)
    labels, read_filter = labels_of(metadata), labels_of(read_metadata)

    def _state(runtime: ToolRuntime[Any, Any]) -> dict[str, Any] | None:
        return runtime.state if isinstance(runtime.state, dict) else None

    def _user(runtime: ToolRuntime[Any, Any]) -> str:
        return host_user(_state(runtime), runtime.context, runtime.config)

    def _searching(query: str, runtime: ToolRuntime[Any, Any]) -> tuple[Services, list[float], SearchFilter | None]:
        svc = graphs.resources.services(runtime.context)
        wanted = read_filter(_state(runtime) or {}, runtime.context)
        return svc, svc.embed([query])[0], SearchFilter.of_labels(wanted)

    def search_memory(query: str, runtime: ToolRuntime[Any, Any]) -> tuple[str, list[dict[str, Any]]]:
        """Search the user's long-term memory for stored facts related to the query, best match first."""
        svc, vector, where = _searching(query, runtime)
        return _found(svc.store.vectors.search([_user(runtime)], vector, search_limit, where=where))

    async def asearch_memory(query: str, runtime: ToolRuntime[Any, Any]) -> tuple[str, list[dict[str, Any]]]:
        """``search_memory`` with the search awaited (on the loop on PostgreSQL); services and embedding in a thread."""
        svc, vector, where = await asyncio.to_thread(_searching, query, runtime)
        return _found(await svc.store.vectors.asearch([_user(runtime)], vector, search_limit, where=where))

    def _ask(question: str, runtime: ToolRuntime[Any, Any]) -> tuple[dict[str, Any], Any]:
        payload = query_input(question, _user(runtime), read_filter(_state(runtime) or {}, runtime.context))
        return payload, dmem_context(runtime.context)

    def ask_memory(question: str, runtime: ToolRuntime[Any, Any]) -> tuple[str, dict[str, Any]]:
        """Answer a question about the user from long-term memory (reads past conversations when needed)."""
        payload, context = _ask(question, runtime)
        return _answered(graphs.query_graph.invoke(payload, context=context))

    async def aask_memory(question: str, runtime: ToolRuntime[Any, Any]) -> tuple[str, dict[str, Any]]:
        """``ask_memory`` through the query graph's ``ainvoke``, on the agent's event loop."""
        payload, context = _ask(question, runtime)
        return _answered(await graphs.query_graph.ainvoke(payload, context=context))

    def _remember(text: str, runtime: ToolRuntime[Any, Any]) -> tuple[dict[str, Any], Any]:
        thread = (runtime.config.get("configurable") or {}).get("thread_id")
        payload = ingestion_input([HumanMessage(text)], _user(runtime), thread,
                                  labels(_state(runtime) or {}, runtime.context))
        return payload, dmem_context(runtime.context)

    def remember(text: str, runtime: ToolRuntime[Any, Any]) -> str:
        """Store something worth remembering about the user, in the user's own words (first person)."""
        payload, context = _remember(text, runtime)
        return _stored(graphs.ingestion_graph.invoke(payload, context=context))

    async def aremember(text: str, runtime: ToolRuntime[Any, Any]) -> str:
        """``remember`` through the ingestion graph's ``ainvoke``, on the agent's event loop."""
        payload, context = _remember(text, runtime)
        return _stored(await graphs.ingestion_graph.ainvoke(payload, context=context))

    both: Literal["content_and_artifact"] = "content_and_artifact"
    return [StructuredTool.from_function(search_memory, coroutine=asearch_memory, response_format=both),
            StructuredTool.from_function(ask_memory, coroutine=aask_memory, response_format=both),
            StructuredTool.from_function(remember, coroutine=aremember), *editing_tools(graphs, _user)]


def _answered(out: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return str(out["answer"]), {"route": out.get("route"), "memory_ids": list(out.get("memory_ids") or [])}


def _stored(out: dict[str, Any]) -> str:
    added = [op.new_text for op in out.get("operations") or [] if op.operation != "NOOP" and op.new_text]
    if added:
        return "Remembered: " + "; ".join(added)
    return f"Nothing new stored ({out.get('status', 'no_facts')})."


def _found(hits: list[Hit]) -> tuple[str, list[dict[str, Any]]]:
    """The search tool's reply: one line per memory for the model, and the hits as an artifact."""
    if not hits:
        return "No stored memory matches.", []
    lines = [f"- {h.record.render()} (id {h.record.id})" for h in hits]
    return "\n".join(lines), [{"id": h.record.id, "text": h.record.text, "score": h.score} for h in hits]
