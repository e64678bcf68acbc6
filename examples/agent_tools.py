"""dmem as agent tools: ``search_memory``, ``ask_memory`` and ``remember`` in LangChain's ``create_agent``.

The agent's model decides when to use memory. The tools take the user from the agent's runtime
context (``user_id``), so the model never sees or chooses whose memory it is; the labels on what
``remember`` stores are the developer's (``metadata=``), never the model's. The query graph also
works as a plain tool: ``memory.query_graph.as_tool()`` (its arguments are the graph's input; ``arg_types``
keeps its label filter, ``metadata``, out of the model's hands).

Run it offline (a scripted tool-calling model, dmem's offline engine, hash embeddings)::

    .venv/bin/python examples/agent_tools.py
"""

from __future__ import annotations

import tempfile
import warnings
from dataclasses import dataclass
from typing import Any

from langchain.agents import create_agent
from langchain_core._api import LangChainBetaWarning
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from dmem import Memory
from dmem.host import memory_tools


@dataclass(frozen=True)
class AgentContext:
    """The agent's runtime context: whose memory the tools use."""

    user_id: str
    """The user the agent talks to."""


def scripted_model(messages: list[AnyMessage]) -> AIMessage | str:
    """A stand-in for a tool-calling model: remember statements, ask memory about questions."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return f"[{last.name}] {last.text}"
    text = last.text
    if text.rstrip().endswith("?"):
        return AIMessage("", tool_calls=[{"name": "ask_memory", "args": {"question": text}, "id": "call-ask"}])
    return AIMessage("", tool_calls=[{"name": "remember", "args": {"text": text}, "id": "call-remember"}])


def build_agent(memory: Memory, model: Any) -> Any:
    """An agent with dmem's three tools and a checkpointer; what it remembers is labelled source=agent."""
    return create_agent(model, tools=memory_tools(memory, metadata={"source": "agent"}), context_schema=AgentContext,
                        checkpointer=InMemorySaver(), system_prompt="You help the user and remember what matters.")


def main() -> None:
    """Remember, then ask, then search; finally the query graph as a plain tool."""
    from dmem.testing import FakeChatModel

    with Memory(tempfile.mkdtemp(prefix="dmem-tools-"), embeddings="hash") as memory:
        agent = build_agent(memory, FakeChatModel(script={"text": scripted_model}))
        ctx, config = AgentContext(user_id="alice"), {"configurable": {"thread_id": "t1"}}
        for text in ["I adopted a beagle named Rex last week.", "What is the name of my beagle?"]:
            out = agent.invoke({"messages": [HumanMessage(text)]}, config, context=ctx)
            print(f"user: {text}\nagent: {out['messages'][-1].text}")
        print("labels:", [m.metadata for m in memory.get_all(user_id="alice")])
        search = next(t for t in memory_tools(memory) if t.name == "search_memory")
        print("tools:", [t.name for t in memory_tools(memory)], "| search_memory args:", list(search.args))
        with warnings.catch_warnings():  # Runnable.as_tool is marked beta in langchain-core
            warnings.simplefilter("ignore", LangChainBetaWarning)
            # arg_types: the model gets the question and whose memory; the label filter ('metadata') stays ours.
            as_tool = memory.query_graph.as_tool(name="dmem_query", description="Answer from dmem's memory.",
                                                 arg_types={"question": str, "namespaces": list[str]})
        print("as_tool:", as_tool.invoke({"question": "What is my beagle's name?", "namespaces": ["alice"]})["answer"])


if __name__ == "__main__":
    main()
