"""Agents over ``Memory.as_store()``: LangMem's tools in ``create_agent``, and dmem's own update and forget tools.

A scripted tool-calling model drives the agents; what they do must land in dmem's memories (with
history) and come back on another thread, for the user the developer names only.
"""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langmem import create_manage_memory_tool, create_search_memory_tool

from dmem.host import memory_tools
from dmem.state.schemas import Operation
from dmem.testing import FakeChatModel

NAMESPACE = ("memories", "{langgraph_user_id}")


def scripted(messages: list[AnyMessage]) -> AIMessage | str:
    """'verb: argument' from the user becomes one tool call; a tool's reply is the final answer."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return last.text
    verb, _, rest = last.text.partition(": ")
    calls = {
        "remember": ("manage_memory", {"content": rest, "action": "create"}),
        "recall": ("search_memory", {"query": rest}),
        "correct": ("manage_memory", {"id": rest.split(" ", 1)[0], "content": rest.split(" ", 1)[-1],
                                      "action": "update"}),
        "drop": ("manage_memory", {"id": rest, "action": "delete"}),
        "search": ("search_memory", {"query": rest}),
        "update": ("update_memory", {"memory_id": rest.split(" ", 1)[0], "text": rest.split(" ", 1)[-1]}),
        "forget": ("forget_memory", {"memory_id": rest}),
    }
    name, args = calls[verb]
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{len(messages)}"}])


def say(agent: Any, text: str, user: str, thread: str) -> str:
    out = agent.invoke({"messages": [HumanMessage(text)]},
                       {"configurable": {"thread_id": thread, "langgraph_user_id": user, "user_id": user}})
    return str(out["messages"][-1].text)


def react_agent(model: Any, *, tools: list[Any], store: Any, checkpointer: Any) -> Any:
    """LangGraph's prebuilt ReAct agent (deprecated in favour of create_agent, still in wide use)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from langgraph.prebuilt import create_react_agent

        return create_react_agent(model, tools=tools, store=store, checkpointer=checkpointer)


@pytest.mark.parametrize("build", [create_agent, react_agent], ids=["create_agent", "create_react_agent"])
def test_langmem_tools_over_dmem_remember_across_threads_and_edit(memory_factory: Any, build: Any) -> None:
    mem = memory_factory()
    agent = build(FakeChatModel(script={"text": scripted}),
                  tools=[create_manage_memory_tool(NAMESPACE), create_search_memory_tool(NAMESPACE)],
                  store=mem.as_store(), checkpointer=InMemorySaver())
    created = say(agent, "remember: Maya keeps bees on the roof", "maya", "t1")
    key = re.search(r"memory ([0-9a-f-]{36})", created).group(1)  # type: ignore[union-attr]
    found = json.loads(say(agent, "recall: bees on the roof", "maya", "t2"))
    assert [(m["key"], m["value"]) for m in found] == [(key, {"content": "Maya keeps bees on the roof"})]
    assert found[0]["namespace"] == ["memories", "maya"] and found[0]["score"] > 0
    assert json.loads(say(agent, "recall: bees on the roof", "theo", "t3")) == []

    [record] = mem.get_all(user_id="maya")
    assert record.text == "Maya keeps bees on the roof"
    say(agent, f"correct: {key} Maya gave the bees to a neighbour", "maya", "t4")
    assert [r.text for r in mem.get_all(user_id="maya")] == ["Maya gave the bees to a neighbour"]
    say(agent, f"drop: {key}", "maya", "t5")
    assert mem.get_all(user_id="maya") == []
    ops = [(h.operation, h.reason.split(" ")[0]) for h in mem.history(record.id, user_id="maya")]
    assert ops == [(Operation.ADD, "put"), (Operation.UPDATE, "put"), (Operation.DELETE, "deleted")]


def test_dmem_tools_update_and_forget_only_the_bound_users_memories(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    mem.add(["I smoke after lunch.", "Noted.", "I live in Braga.", "Nice."], user_id="maya")
    mem.add(["I live in Faro.", "Nice."], user_id="theo")
    agent = create_agent(FakeChatModel(script={"text": scripted}), tools=memory_tools(mem),
                         checkpointer=InMemorySaver())
    listing = say(agent, "search: smoke after lunch", "maya", "t1")
    smoke = re.search(r"smoke after lunch\.? \(id ([^)]+)\)", listing).group(1)  # type: ignore[union-attr]
    before = mem.get_all(user_id="theo")
    theirs = before[0].id

    assert say(agent, f"forget: {theirs}", "maya", "t2") == f"No memory {theirs} for this user."
    assert say(agent, f"update: {theirs} Theo moved", "maya", "t2") == f"No memory {theirs} for this user."
    assert mem.get_all(user_id="theo") == before
    braga = next(r for r in mem.get_all(user_id="maya") if "Braga" in r.text)
    assert say(agent, f"update: {braga.id} Maya lives in Porto now", "maya", "t3").startswith("Updated")
    assert say(agent, f"forget: {smoke}", "maya", "t3").startswith("Forgot")
    texts = [r.text for r in mem.get_all(user_id="maya")]
    assert "Maya lives in Porto now" in texts and not any("smoke" in t or "Braga" in t for t in texts)
    history = mem.history(smoke, user_id="maya")
    assert history[-1].operation == Operation.DELETE and "forget_memory" in history[-1].reason
    assert "update_memory" in mem.history(braga.id, user_id="maya")[-1].reason
    for tool in memory_tools(mem):
        assert "user" not in " ".join(tool.args)  # whose memory is the developer's, never the model's
