"""dmem's agent tools in LangChain's create_agent (examples/agent_tools.py), and the query graph as a tool."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from dmem.host import memory_tools
from dmem.testing import FakeChatModel
from tests.test_host_agent import answer_from_memories, load_example


@pytest.fixture
def example() -> Any:
    return load_example("agent_tools")


def test_example_runs_offline(example: Any, capsys: pytest.CaptureFixture[str]) -> None:
    example.main()
    out = capsys.readouterr().out
    assert "agent: [remember] Remembered: " in out and "beagle named Rex" in out
    assert "agent: [ask_memory] Rex" in out and "as_tool: Rex" in out
    assert "search_memory args: ['query']" in out  # the user never appears among the model's arguments
    assert "labels: [{'source': 'agent'}]" in out  # the developer's labels, on what the model remembered


def test_agent_calls_the_tools_for_the_user_of_its_context(example: Any, fake: FakeChatModel,
                                                           memory_factory: Any) -> None:
    fake.set_script("AnswerDraft", answer_from_memories)
    memory = memory_factory(fake)
    model = FakeChatModel(script={"text": example.scripted_model})
    agent = example.build_agent(memory, model)
    alice, bruno = example.AgentContext(user_id="alice"), example.AgentContext(user_id="bruno")
    agent.invoke({"messages": [HumanMessage("I adopted a beagle named Rex last week.")]},
                 {"configurable": {"thread_id": "a"}}, context=alice)
    asked = agent.invoke({"messages": [HumanMessage("What is the name of my beagle?")]},
                         {"configurable": {"thread_id": "a"}}, context=alice)
    other = agent.invoke({"messages": [HumanMessage("What is the name of my beagle?")]},
                         {"configurable": {"thread_id": "b"}}, context=bruno)

    assert [m.text for m in memory.get_all(user_id="alice")] and memory.get_all(user_id="bruno") == []
    tool_msgs = [m for m in asked["messages"] if isinstance(m, ToolMessage)]
    assert [(m.name, m.text) for m in tool_msgs][-1] == ("ask_memory", "Rex")
    assert tool_msgs[-1].artifact["route"] == "system1"
    assert [m for m in other["messages"] if isinstance(m, ToolMessage)][-1].text == "No information available."
    # No tool argument lets the model pick the user: that comes from the agent's context.
    for tool in memory_tools(memory):
        assert "user" not in " ".join(tool.args) and "runtime" not in tool.args


def test_search_memory_returns_the_users_memories_best_first(fake: FakeChatModel, memory_factory: Any) -> None:
    from langchain.agents import create_agent

    memory = memory_factory(fake)
    memory.add(["I adopted a beagle named Rex last week.", "Nice!", "My sister Ana lives in Porto.", "Cool."],
               user_id="alice")

    def call_search(messages: list[AnyMessage]) -> AIMessage | str:
        if isinstance(messages[-1], ToolMessage):
            return messages[-1].text
        return AIMessage("", tool_calls=[{"name": "search_memory", "args": {"query": "beagle Rex"}, "id": "s1"}])

    agent = create_agent(FakeChatModel(script={"text": call_search}), tools=memory_tools(memory))
    out = agent.invoke({"messages": [HumanMessage("what do you know about my dog?")]},
                       {"configurable": {"user_id": "alice"}})
    (found,) = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert "beagle named Rex" in found.text.splitlines()[0]
    assert found.artifact[0]["score"] >= found.artifact[-1]["score"]
    assert {hit["id"] for hit in found.artifact} <= {m.id for m in memory.get_all(user_id="alice")}


def test_query_graph_as_tool(fake: FakeChatModel, memory_factory: Any) -> None:
    memory = memory_factory(fake)
    tool = memory.query_graph.as_tool(name="dmem_query", description="Answer from memory.",
                                      arg_types={"question": str, "namespaces": list[str]})
    assert set(tool.args) == {"question", "namespaces"}  # the label filter is not the model's to set
    out = tool.invoke({"question": "When?", "namespaces": ["alice"]})
    assert out["route"] == "no_memory"


async def test_the_agent_tools_run_the_graphs_on_the_agents_event_loop(example: Any, fake: FakeChatModel,
                                                                        memory_factory: Any) -> None:
    from tests.loop_guard import server_loop_guard

    fake.set_script("AnswerDraft", answer_from_memories)
    memory = memory_factory(fake)
    memory.store  # noqa: B018  (the owner opens its store before the agent runs)
    agent = example.build_agent(memory, FakeChatModel(script={"text": example.scripted_model}))
    alice = example.AgentContext(user_id="alice")
    with server_loop_guard():
        await agent.ainvoke({"messages": [HumanMessage("I adopted a beagle named Rex last week.")]},
                            {"configurable": {"thread_id": "a"}}, context=alice)
        asked = await agent.ainvoke({"messages": [HumanMessage("What is the name of my beagle?")]},
                                    {"configurable": {"thread_id": "a"}}, context=alice)
    tool_msgs = [m for m in asked["messages"] if isinstance(m, ToolMessage)]
    assert [(m.name, m.text) for m in tool_msgs][-1] == ("ask_memory", "Rex")
    assert {c.via for c in fake.calls_for("AnswerDraft")} == {"async"}
    assert {c.via for c in fake.calls_for("AdmissionVerdicts")} == {"async"}


async def test_the_editing_tools_correct_and_forget_off_the_agents_event_loop(fake: FakeChatModel,
                                                                              memory_factory: Any) -> None:
    from langchain.agents import create_agent

    from tests.loop_guard import server_loop_guard

    memory = memory_factory(fake)
    memory.add(["I adopted a beagle named Rex last week.", "Nice!", "My sister Ana lives in Porto.", "Cool."],
               user_id="alice")
    rex, ana = sorted(memory.get_all(user_id="alice"), key=lambda m: "Rex" not in m.text)[:2]
    calls = iter([("update_memory", {"memory_id": rex.id, "text": "Alice's beagle is named Rex Junior"}),
                  ("forget_memory", {"memory_id": ana.id})])

    def edit(messages: list[AnyMessage]) -> AIMessage | str:
        step = next(calls, None)
        if step is None:
            return "done"
        return AIMessage("", tool_calls=[{"name": step[0], "args": step[1], "id": step[0]}])

    agent = create_agent(FakeChatModel(script={"text": edit}), tools=memory_tools(memory))
    with server_loop_guard():  # sqlite and the embedding model must stay off the loop
        out = await agent.ainvoke({"messages": [HumanMessage("fix my memories")]},
                                  {"configurable": {"user_id": "alice"}})
    done = {m.name: m.text for m in out["messages"] if isinstance(m, ToolMessage)}
    assert done["update_memory"].startswith(f"Updated memory {rex.id}")
    assert done["forget_memory"].startswith(f"Forgot memory {ana.id}")
    live = {m.id: m.text for m in memory.get_all(user_id="alice")}
    assert live[rex.id] == "Alice's beagle is named Rex Junior" and ana.id not in live
