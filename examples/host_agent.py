"""A host chat agent that embeds dmem: recall before it replies, remember after.

The host has its own state (``messages`` with ``add_messages``, ``user_id``) and its own context
dataclass; our settings travel inside it as the ``dmem`` field. Our graphs have other state keys
(``question``, ``answer``, ``messages: list[dmem Message]``), so each runs as a subgraph *called
from a node* that maps the host's state in and out: nothing of ours lands in the host's state.

Run it offline (a scripted host model, dmem's offline engine, hash embeddings)::

    .venv/bin/python examples/host_agent.py
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NotRequired

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from dmem.graphs import ingestion_graph, query_graph
from dmem.state.context import Context
from dmem.state.schemas import Message


@dataclass(frozen=True)
class HostContext:
    """The host's runtime context: its own chat model, plus dmem's settings in ``dmem``."""

    model: BaseChatModel
    """The model the host replies with."""
    dmem: Context
    """dmem's settings and live resources (e.g. ``Memory(...).context``)."""
    persona: str = "You are a friendly assistant with long-term memory."


class HostState(MessagesState):
    """The host's state: its chat messages, whose memory to use, and what was recalled."""

    user_id: str
    """Whose memories to read and write (dmem namespace)."""
    recalled: NotRequired[str]
    """dmem's answer to the last user message (the host's own key, not ours)."""
    recall_route: NotRequired[str]
    """How dmem answered: system1, deliberation or no_memory."""


def last_of(messages: list[AnyMessage], kind: type) -> Any:
    """The last message of a type, or None."""
    return next((m for m in reversed(messages) if isinstance(m, kind)), None)


def recall(state: HostState, runtime: Runtime[HostContext]) -> dict[str, Any]:
    """Ask dmem's query graph the user's last message, in the user's namespace."""
    question = last_of(state["messages"], HumanMessage)
    out = query_graph.invoke({"question": question.text, "namespaces": [state["user_id"]]},
                             context=runtime.context.dmem)
    return {"recalled": out["answer"], "recall_route": out["route"]}


def reply(state: HostState, runtime: Runtime[HostContext]) -> dict[str, Any]:
    """Reply with the host's model, given what dmem recalled."""
    system = (f"{runtime.context.persona}\n<memory>\n{state.get('recalled', '')}\n</memory>\n"
              "Use the memory when it answers the user; ignore it otherwise.")
    answer = runtime.context.model.invoke([SystemMessage(system), *state["messages"]])
    return {"messages": [answer]}


def to_dmem(messages: list[AnyMessage], conversation_id: str) -> list[Message]:
    """The host's last human + AI messages as dmem Messages; turn ids are the host message ids."""
    pair = [m for m in (last_of(messages, HumanMessage), last_of(messages, AIMessage)) if m is not None]
    now = datetime.now(UTC)
    return [Message(conversation_id=conversation_id, turn_id=str(m.id), text=m.text, timestamp=now,
                    speaker="user" if isinstance(m, HumanMessage) else "assistant")
            for m in pair]  # no seq: the store appends each turn after the conversation's last one


def remember(state: HostState, runtime: Runtime[HostContext]) -> dict[str, Any]:
    """Run dmem's ingestion graph on the new exchange (the transcript dedupes on turn id)."""
    conversation = str(get_config().get("configurable", {}).get("thread_id") or state["user_id"])
    ingestion_graph.invoke({"messages": to_dmem(state["messages"], conversation), "user_id": state["user_id"]},
                           context=runtime.context.dmem)
    return {}


HostGraph = CompiledStateGraph[HostState, HostContext, HostState, HostState]


def build_host_graph() -> StateGraph[HostState, HostContext, HostState, HostState]:
    """The host graph: recall → reply → remember."""
    g = StateGraph(HostState, context_schema=HostContext)
    g.add_node("recall", recall)
    g.add_node("reply", reply)
    g.add_node("remember", remember)
    g.add_edge(START, "recall")
    g.add_edge("recall", "reply")
    g.add_edge("reply", "remember")
    g.add_edge("remember", END)
    return g


def compile_host_graph(checkpointer: Any = None) -> HostGraph:
    """Compile the host; our subgraphs share its checkpointer and its callbacks (traces nest)."""
    return build_host_graph().compile(checkpointer=checkpointer, name="host_agent")


def main() -> None:
    """Three turns of one thread, offline."""
    from dmem.api import Memory
    from dmem.testing import FakeChatModel

    def host_reply(messages: list[AnyMessage]) -> str:
        memory = str(messages[0].content).split("<memory>\n", 1)[1].split("\n</memory>", 1)[0]
        return f"(recalled: {memory or 'nothing'}) Noted!"

    with Memory(tempfile.mkdtemp(prefix="dmem-host-"), embeddings="hash") as memory:
        host = compile_host_graph(checkpointer=InMemorySaver())
        ctx = HostContext(model=FakeChatModel(script={"text": host_reply}), dmem=memory.context)
        config: RunnableConfig = {"configurable": {"thread_id": "t1"}}
        for text in ["I adopted a beagle named Rex last week.", "I work as a nurse in Boston.",
                     "What is the name of my beagle?"]:
            turn: HostState = {"messages": [HumanMessage(text)], "user_id": "alice"}
            out = host.invoke(turn, config, context=ctx)
            print(f"user: {text}\nhost: {out['messages'][-1].text}  [dmem route: {out['recall_route']}]")
        print("memories:", [m.text for m in memory.get_all(user_id="alice")])


if __name__ == "__main__":
    main()
