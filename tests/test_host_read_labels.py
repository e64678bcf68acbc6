"""The host developer's read filter (``read_metadata=``) on the recall node and the search/ask tools.

Alice's memory holds a chat-labelled exchange (her beagle Rex) and a mail-labelled one (her office
in Porto). A piece bound to ``source=mail`` must never show the model anything about Rex, whatever
the model puts in its tool calls; the filter is fixed or computed from the host's state or context.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph

from dmem.errors import DataError
from dmem.host import RECALL_NAME, HostLabels, make_recall_node, memory_tools
from dmem.testing import FakeChatModel
from tests.test_host_agent import answer_from_memories


@pytest.fixture
def mem(fake: FakeChatModel, memory_factory: Any) -> Any:
    fake.set_script("AnswerDraft", answer_from_memories)
    memory = memory_factory(fake, gate_policy="never")
    memory.add(["I adopted a beagle named Rex last week.", "Nice!"], user_id="alice", conversation_id="chat",
               metadata={"source": "chat"})
    memory.add(["My new office is in Porto.", "Cool."], user_id="alice", conversation_id="mail",
               metadata={"source": "mail"})
    fake._state.calls.clear()
    return memory


class Host(MessagesState):
    channel: str


def recall_graph(mem: Any, read_metadata: HostLabels | None) -> Any:
    g = StateGraph(Host)
    g.add_node("recall", make_recall_node(mem, read_metadata=read_metadata))
    g.add_edge(START, "recall")
    g.add_edge("recall", END)
    return g.compile()


def recalled(graph: Any, channel: str = "chat", context: Any = None) -> str:
    out = graph.invoke({"messages": [HumanMessage("What is my dog's name?")], "channel": channel},
                       {"configurable": {"user_id": "alice"}}, context=context)
    (note,) = [m for m in out["messages"] if m.name == RECALL_NAME]
    return str(note.text)


def model_saw(fake: FakeChatModel) -> str:
    return "\n".join(c.prompt for c in fake.calls)


@pytest.mark.parametrize(("read_metadata", "finds_rex"), [
    ({"source": "mail"}, False),
    ({"source": "chat"}, True),
    (None, True),
    ({}, True),
])
def test_the_recall_node_reads_only_what_its_fixed_filter_allows(mem: Any, fake: FakeChatModel,
                                                               read_metadata: Any, finds_rex: bool) -> None:
    note = recalled(recall_graph(mem, read_metadata))
    assert ("answer: Rex" in note) is finds_rex and ("Rex" in model_saw(fake)) is finds_rex


def test_the_recall_nodes_filter_can_come_from_the_hosts_state_and_context(mem: Any, fake: FakeChatModel) -> None:
    by_state = recall_graph(mem, lambda state, context: {"source": state["channel"]})
    assert "Rex" in recalled(by_state, "chat")
    fake._state.calls.clear()
    assert "Rex" not in recalled(by_state, "mail") and "Rex" not in model_saw(fake)
    by_context = recall_graph(mem, lambda state, context: {"source": context["source"]} if context else None)
    assert "Rex" not in recalled(by_context, context={"source": "mail", "user_id": "alice"})
    assert "Rex" in recalled(by_context)  # the function returned None: no filter


def call(tool: str, args: dict[str, Any]) -> Any:
    """A scripted agent model: call ``tool`` once with ``args``, then repeat the tool's reply."""

    def script(messages: list[AnyMessage]) -> AIMessage | str:
        if isinstance(messages[-1], ToolMessage):
            return messages[-1].text
        return AIMessage("", tool_calls=[{"name": tool, "args": args, "id": "c1"}])

    return script


def run_tool(tools: list[Any], tool: str, args: dict[str, Any], context: dict[str, Any]) -> ToolMessage:
    from langchain.agents import create_agent

    agent = create_agent(FakeChatModel(script={"text": call(tool, args)}), tools=tools)
    out = agent.invoke({"messages": [HumanMessage("what do you know?")]}, context=context)
    (reply,) = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    return reply


def test_search_and_ask_tools_read_only_what_the_developers_filter_allows(mem: Any, fake: FakeChatModel) -> None:
    tools = memory_tools(mem, read_metadata={"source": "mail"})
    by_name = {t.name: t for t in tools}
    assert list(by_name["search_memory"].args) == ["query"] and list(by_name["ask_memory"].args) == ["question"]
    widen = {"source": "chat"}  # an argument a model might try: dropped, the filter is not the model's
    found = run_tool(tools, "search_memory", {"query": "beagle Rex", "metadata": widen}, {"user_id": "alice"})
    mail_ids = {m.id for m in mem.get_all(user_id="alice") if m.metadata == {"source": "mail"}}
    assert found.artifact and {hit["id"] for hit in found.artifact} <= mail_ids and "Rex" not in found.text
    asked = run_tool(tools, "ask_memory", {"question": "What is my dog's name?", "metadata": widen},
                     {"user_id": "alice"})
    assert asked.text != "Rex" and "Rex" not in model_saw(fake)
    unfiltered = run_tool(memory_tools(mem), "ask_memory", {"question": "What is my dog's name?"},
                          {"user_id": "alice"})
    assert unfiltered.text == "Rex"


def test_the_tools_filter_can_be_a_function_of_the_agents_context(mem: Any, fake: FakeChatModel) -> None:
    tools = memory_tools(mem, read_metadata=lambda state, context: {"source": context["source"]})
    for source, finds_rex in [("mail", False), ("chat", True)]:
        reply = run_tool(tools, "ask_memory", {"question": "What is my dog's name?"},
                         {"user_id": "alice", "source": source})
        assert (reply.text == "Rex") is finds_rex
        hits = run_tool(tools, "search_memory", {"query": "beagle"}, {"user_id": "alice", "source": source})
        assert ("Rex" in hits.text) is finds_rex


def test_a_bad_read_filter_fails_where_it_is_given(mem: Any, fake: FakeChatModel) -> None:
    with pytest.raises(DataError, match="metadata 'tags' is a list"):
        make_recall_node(mem, read_metadata={"tags": ["a"]})
    with pytest.raises(DataError, match="must be a mapping"):
        memory_tools(mem, read_metadata=[("source", "x")])  # type: ignore[arg-type]
    graph = recall_graph(mem, lambda state, context: {"tags": ["a"]})
    with pytest.raises(DataError, match="metadata 'tags' is a list"):
        recalled(graph)
    assert fake.calls == []
