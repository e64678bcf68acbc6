"""Metadata labels through every way in besides ``Memory.add``: the graph's input, host nodes, the remember tool.

Each path hands the labels to the record node (``TranscriptLog.append(labels=...)``), so the same
commit that writes the memories labels them; the labels stay in the namespaces the exchange feeds.
The served graph behind ``langgraph dev`` is covered in ``tests/test_langgraph_server.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph

from dmem.errors import DataError, InputError
from dmem.host import BackgroundIngestion, make_remember_node, memory_tools
from dmem.testing import FakeChatModel, echo_formation_script
from tests.add_worker import turns
from tests.test_host_agent import load_example
from tests.test_ingestion_graph import pair
from tests.test_metadata_labels import failing

LABELS = {"source": "chat", "week": 12, "verified": True}


def labels_of(mem: Any, user: str) -> list[dict[str, Any]]:
    """The metadata of each of the user's memories."""
    return [m.metadata for m in mem.get_all(user_id=user)]


def test_graph_input_metadata_labels_every_memory_it_forms(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    out = mem.ingestion_graph.invoke({"turns": pair("I joined a choir yesterday", "Great!"), "user_id": "ana",
                                      "metadata": LABELS})
    assert out["status"] == "formed"
    assert labels_of(mem, "ana") and labels_of(mem, "ana") == [LABELS] * len(labels_of(mem, "ana"))
    assert [h.memory.text for h in mem.search("choir", user_id="ana", metadata={"week": 12})]
    assert mem.search("choir", user_id="ana", metadata={"week": 13}) == []


def test_chat_messages_with_metadata_are_labelled_and_a_rerun_forms_nothing_twice(
        fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    payload = {"messages": [HumanMessage("My sister Ana lives in Porto.", id="m1")], "user_id": "ana",
               "metadata": {"source": "sdk"}}
    mem.ingestion_graph.invoke(payload)
    again = mem.ingestion_graph.invoke({**payload, "metadata": {"source": "other"}})
    assert again["status"] == "duplicate"
    assert labels_of(mem, "ana") == [{"source": "sdk"}]  # a formed turn keeps the labels it was formed with


def test_a_graph_run_kept_for_retry_keeps_its_labels_for_the_worker_that_forms_it(memory_factory: Any) -> None:
    model = failing()
    mem = memory_factory(model, max_retries=0, retry_backoff=0)
    out = mem.ingestion_graph.invoke({"turns": turns(2), "user_id": "ana", "metadata": LABELS})
    assert out["status"] == "pending_retry" and mem.get_all(user_id="ana") == []
    other = memory_factory(FakeChatModel(script=echo_formation_script()))  # another worker on the same store
    assert {ex.status for ex in other.retry_pending(user_id="ana").exchanges} == {"formed"}
    assert labels_of(other, "ana") == [LABELS, LABELS]


@pytest.mark.parametrize(("metadata", "problem"), [
    (["source", "chat"], "must be a mapping"),
    ({"tags": ["a", "b"]}, "'tags' is a list"),
    ({"": "x"}, "is not a non-empty string"),
])
def test_bad_metadata_is_an_input_error_naming_the_field_and_records_nothing(
        fake: FakeChatModel, memory_factory: Any, metadata: Any, problem: str) -> None:
    mem = memory_factory(fake)
    with pytest.raises(InputError, match=f"input field 'metadata': .*{problem}"):
        mem.ingestion_graph.invoke({"turns": pair("I joined a choir", "ok"), "user_id": "ana", "metadata": metadata})
    assert mem.transcript(user_ids=["ana"]) == [] and fake.calls == []


def test_labels_stay_in_the_namespaces_of_their_exchange(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    speakers = {"Maya": "pair/Maya", "Theo": "pair/Theo"}
    mem.ingestion_graph.invoke({"turns": pair("I live in Lisbon", "I work as a nurse"), "user_id": "pair",
                                "speaker_namespaces": speakers, "metadata": {"source": "pair"}})
    mem.ingestion_graph.invoke({"turns": pair("I live in Lisbon", "I work as a nurse"), "user_id": "solo"})
    assert labels_of(mem, "pair/Maya") == [{"source": "pair"}] and labels_of(mem, "pair/Theo") == [{"source": "pair"}]
    assert labels_of(mem, "solo") and all(m == {} for m in labels_of(mem, "solo"))  # the same turn ids, unlabelled
    assert mem.search("Lisbon", user_id="solo", metadata={"source": "pair"}) == []


def test_the_ingestion_graph_as_a_subgraph_passes_the_hosts_metadata(fake: FakeChatModel, memory_factory: Any) -> None:
    class Host(MessagesState):
        metadata: dict[str, Any]

    mem = memory_factory(fake)
    g = StateGraph(Host)
    g.add_node("memory", mem.ingestion_graph)
    g.add_edge(START, "memory")
    g.add_edge("memory", END)
    g.compile().invoke({"messages": [HumanMessage("I adopted a beagle named Rex.")], "metadata": {"app": "host"}},
                       {"configurable": {"user_id": "carla", "thread_id": "t"}})
    assert labels_of(mem, "carla") == [{"app": "host"}]


def test_a_host_remember_node_labels_with_fixed_metadata_now_and_in_the_background(
        fake: FakeChatModel, memory_factory: Any) -> None:
    example = load_example("host_agent")
    mem = memory_factory(fake)
    ctx = example.HostContext(model=FakeChatModel(script={"text": example.host_reply}), user_id="alice")
    now = example.build_host_graph(mem, metadata={"via": "host"}).compile(checkpointer=InMemorySaver())
    now.invoke({"messages": [HumanMessage("I adopted a beagle named Rex last week.")]},
               {"configurable": {"thread_id": "t1"}}, context=ctx)
    with BackgroundIngestion() as background:
        later = example.build_host_graph(mem, background, {"via": "background"}).compile()
        later.invoke({"messages": [HumanMessage("My sister Ana lives in Porto.")]},
                     {"configurable": {"thread_id": "t2"}}, context=ctx)
        assert background.flush() == []
    thread_of = {m.turn_id: m.conversation_id for m in mem.transcript(user_ids=["alice"])}
    labels = {(thread_of[m.source_turn_ids[0]], m.metadata["via"]) for m in mem.get_all(user_id="alice")}
    assert labels == {("t1", "host"), ("t2", "background")}


def test_a_remember_node_computes_labels_per_run_from_the_hosts_state(fake: FakeChatModel,
                                                                     memory_factory: Any) -> None:
    class Host(MessagesState):
        channel: str

    mem = memory_factory(fake)
    g = StateGraph(Host)
    g.add_node("remember", make_remember_node(mem, metadata=lambda state, context: {"channel": state["channel"]}))
    g.add_edge(START, "remember")
    g.add_edge("remember", END)
    graph = g.compile()
    for user, channel in [("alice", "email"), ("bruno", "sms")]:
        graph.invoke({"messages": [HumanMessage("I adopted a beagle named Rex.")], "channel": channel},
                     {"configurable": {"user_id": user}})
    assert labels_of(mem, "alice") == [{"channel": "email"}] and labels_of(mem, "bruno") == [{"channel": "sms"}]


def test_bad_host_metadata_fails_where_it_is_given(fake: FakeChatModel, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    with pytest.raises(DataError, match="metadata 'tags' is a list"):
        make_remember_node(mem, metadata={"tags": ["a"]})
    with pytest.raises(DataError, match="must be a mapping"):
        memory_tools(mem, metadata=[("source", "x")])  # type: ignore[arg-type]


def call_remember(text: str) -> Any:
    """A scripted agent model: call ``remember`` once, then repeat the tool's reply."""

    def script(messages: list[AnyMessage]) -> AIMessage | str:
        if isinstance(messages[-1], ToolMessage):
            return messages[-1].text
        args = {"text": text, "metadata": {"source": "model"}}  # extra arguments a model might try
        return AIMessage("", tool_calls=[{"name": "remember", "args": args, "id": "r1"}])

    return script


def test_the_remember_tool_writes_the_developers_labels_and_the_model_cannot_set_any(
        fake: FakeChatModel, memory_factory: Any) -> None:
    from langchain.agents import create_agent

    mem = memory_factory(fake)
    tools = memory_tools(mem, metadata=lambda state, context: {"source": "agent", "user": context["user_id"]})
    remember = next(t for t in tools if t.name == "remember")
    assert list(remember.args) == ["text"]  # the model's schema has no metadata
    agent = create_agent(FakeChatModel(script={"text": call_remember("I adopted a beagle named Rex.")}), tools=tools)
    out = agent.invoke({"messages": [HumanMessage("remember my dog")]}, context={"user_id": "alice"})
    assert [m.text for m in out["messages"] if isinstance(m, ToolMessage)][0].startswith("Remembered: ")
    assert labels_of(mem, "alice") == [{"source": "agent", "user": "alice"}]
