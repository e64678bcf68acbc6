"""A ``MessagesState`` chat agent with long-term memory from dmem's ready nodes: recall → reply → remember.

The host keeps LangGraph's plain ``MessagesState``. ``make_recall_node`` asks dmem about the user's
last message and adds what it recalls to ``messages`` as one system message (replaced every turn);
``make_remember_node`` hands the finished exchange to dmem's ingestion graph. Whose memory it is comes
from the host's runtime context (``user_id``), and per-run dmem settings from its ``dmem`` field.

Run it offline (a scripted host model, dmem's offline engine, hash embeddings)::

    .venv/bin/python examples/host_agent.py
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.runtime import Runtime

from dmem import Context, Memory
from dmem.host import BackgroundIngestion, HostLabels, make_recall_node, make_remember_node, recall_text

PERSONA = "You are a friendly assistant with long-term memory."


@dataclass(frozen=True)
class HostContext:
    """The host's runtime context: its model, whose memory to use, and optional dmem settings."""

    model: BaseChatModel
    """The model the host replies with."""
    user_id: str
    """Whose memories to read and write (dmem's namespace)."""
    dmem: Context | None = None
    """dmem settings for this run (e.g. ``Context(gate_policy="never")``); None keeps the Memory's."""


def reply(state: MessagesState, runtime: Runtime[HostContext]) -> dict[str, Any]:
    """Reply with the host's model; the recalled memory is already among the messages."""
    return {"messages": [runtime.context.model.invoke([SystemMessage(PERSONA), *state["messages"]])]}


def build_host_graph(memory: Memory, background: BackgroundIngestion | None = None,
                     metadata: HostLabels | None = None) -> StateGraph[
        MessagesState, HostContext, MessagesState, MessagesState]:
    """Recall → reply → remember over one Memory (``background`` defers remembering; ``metadata`` labels it)."""
    g = StateGraph(MessagesState, context_schema=HostContext)
    g.add_node("recall", make_recall_node(memory))
    g.add_node("reply", reply)
    g.add_node("remember", make_remember_node(memory, background=background, metadata=metadata))
    g.add_edge(START, "recall")
    g.add_edge("recall", "reply")
    g.add_edge("reply", "remember")
    g.add_edge("remember", END)
    return g


def host_reply(messages: list[AnyMessage]) -> str:
    """The scripted host model: it repeats what dmem recalled."""
    recalled = recall_text(messages) or ""
    answer = recalled.split("answer: ", 1)[1].splitlines()[0] if "answer: " in recalled else "nothing yet"
    return f"(memory: {answer}) Noted!"


def main() -> None:
    """Three turns of one thread, offline."""
    from dmem.testing import FakeChatModel

    with tempfile.TemporaryDirectory(prefix="dmem-host-") as directory, Memory(directory, embeddings="hash") as memory:
        host = build_host_graph(memory).compile(checkpointer=InMemorySaver(), name="host_agent")
        ctx = HostContext(model=FakeChatModel(script={"text": host_reply}), user_id="alice")
        config: RunnableConfig = {"configurable": {"thread_id": "t1"}}
        for text in ["I adopted a beagle named Rex last week.", "I work as a nurse in Boston.",
                     "What is the name of my beagle?"]:
            out = host.invoke({"messages": [HumanMessage(text)]}, config, context=ctx)
            print(f"user: {text}\nhost: {out['messages'][-1].text}")
        print("memories:", [m.text for m in memory.get_all(user_id="alice")])


if __name__ == "__main__":
    main()
