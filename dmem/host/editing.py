"""Agent tools that correct and forget memories: ``update_memory`` and ``forget_memory``.

Both act on the user the developer bound (the agent's state, context or configurable ``user_id``),
never one the model writes: the model names a memory id (``search_memory`` shows them) and, for
an update, the new text. An id of another user is answered like an unknown one. Each change is
recorded in history with the tool as its reason; a forgotten memory leaves retrieval, its history
stays, and so does the transcript it came from.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import BaseTool, StructuredTool

from dmem.host.binding import MemoryGraphs
from dmem.store import MemoryStore
from dmem.verbatim import write_delete, write_over

UserOf = Callable[[ToolRuntime[Any, Any]], str]


def editing_tools(graphs: MemoryGraphs, user_of: UserOf) -> list[BaseTool]:
    """``update_memory`` and ``forget_memory`` over the graphs' store, for the user ``user_of`` names."""

    def update_memory(memory_id: str, text: str, runtime: ToolRuntime[Any, Any]) -> str:
        """Correct one of the user's memories: give its id (from search_memory) and the corrected text."""
        svc, user = graphs.resources.services(runtime.context), user_of(runtime)
        if not text.strip():
            return "Nothing changed: the corrected text is empty."
        vector = svc.embed([text.strip()])[0]
        with svc.store.transaction():
            record = svc.store.vectors.get(user, memory_id)
            if record is None:
                return f"No memory {memory_id} for this user."
            write_over(svc.store, record, text.strip(), vector, record.metadata,
                       "corrected by the agent (update_memory)")
        return f"Updated memory {memory_id}: {text.strip()}"

    def forget_memory(memory_id: str, runtime: ToolRuntime[Any, Any]) -> str:
        """Forget one of the user's memories for good (e.g. when the user asks to): give its id from search_memory."""
        svc, user = graphs.resources.services(runtime.context), user_of(runtime)
        with svc.store.transaction():
            record = svc.store.vectors.get(user, memory_id)
            if record is None:
                return f"No memory {memory_id} for this user."
            write_delete(svc.store, record, "forgotten at the user's request (forget_memory)")
        return f"Forgot memory {memory_id}: {record.text}"

    async def store_of(runtime: ToolRuntime[Any, Any]) -> MemoryStore:
        svc = graphs.resources.known_services(runtime.context)
        if svc is None:  # the first call with these settings may open the store: off the loop
            svc = await asyncio.to_thread(graphs.resources.services, runtime.context)
        return svc.store

    async def aupdate_memory(memory_id: str, text: str, runtime: ToolRuntime[Any, Any]) -> str:
        """``update_memory`` through ``store.arun``: a worker thread locally, the loop's async pool on PostgreSQL."""
        return await (await store_of(runtime)).arun(update_memory, memory_id, text, runtime)

    async def aforget_memory(memory_id: str, runtime: ToolRuntime[Any, Any]) -> str:
        """``forget_memory`` through ``store.arun``: never blocking the agent's event loop."""
        return await (await store_of(runtime)).arun(forget_memory, memory_id, runtime)

    return [StructuredTool.from_function(update_memory, coroutine=aupdate_memory),
            StructuredTool.from_function(forget_memory, coroutine=aforget_memory)]
