"""A developer's own agent that keeps long-term memory through LangGraph's store, served beside dmem.

It knows nothing about dmem: it writes and searches ``runtime.store`` under ``("memories", user_id)``.
Served with langgraph.json's ``"store"`` entry pointing at ``dmem.langgraph_store.platform.dmem_store``,
what it writes are dmem memories (searched by dmem's retrieval, recorded in dmem's history) and what
dmem formed from conversations is what it finds. Run it with ``langgraph dev`` (see
docs/langgraph-store.md) or in-process with ``builder.compile(store=Memory(...).as_store())``.
"""

from __future__ import annotations

import uuid
from typing import NotRequired

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict


class NoteState(TypedDict):
    """One turn of the note agent."""

    user_id: str
    """Whose memory to use."""
    query: str
    """What to look up in the user's memory."""
    note: NotRequired[str]
    """Something to remember first, if any."""
    found: NotRequired[list[str]]
    """What the store returned for the query, best first."""


async def remember_and_recall(state: NoteState, runtime: Runtime) -> dict[str, list[str]]:
    """Store the note (if any) under the user's namespace, then search that namespace for the query."""
    assert runtime.store is not None, "compile or serve this graph with a store"
    namespace = ("memories", state["user_id"])
    if state.get("note"):
        await runtime.store.aput(namespace, str(uuid.uuid4()), {"content": state["note"], "source": "note_agent"})
    hits = await runtime.store.asearch(namespace, query=state["query"], limit=5)
    return {"found": [str(hit.value["content"]) for hit in hits]}


builder = (StateGraph(NoteState).add_node(remember_and_recall)
           .add_edge(START, "remember_and_recall").add_edge("remember_and_recall", END))
"""The agent, uncompiled: ``builder.compile(store=Memory(...).as_store())`` runs it in-process."""
graph = builder.compile()
"""The compiled agent, for langgraph.json; the server hands it its store."""
