"""A MessagesState host with dmem's recall and remember nodes (examples/host_agent.py), with a checkpointer."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph

from dmem.host import RECALL_NAME, make_recall_node, make_remember_node
from dmem.state.context import Context
from dmem.state.verdicts import NO_INFO
from dmem.testing import FakeChatModel
from tests.conftest import last_section

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TURNS = ["I adopted a beagle named Rex last week.", "What is my dog's name?", "Thanks, and what breed is he?"]


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve string annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def answer_from_memories(messages: list[BaseMessage]) -> dict[str, Any]:
    """dmem's System 1 answers 'Rex' only if a memory mentioning Rex was retrieved."""
    found = "Rex" in last_section(messages, "memories")
    return {"reasoning": "memories", "answer": "Rex" if found else NO_INFO}


@pytest.fixture
def host(fake: FakeChatModel, memory_factory: Any) -> tuple[Any, Any, Any, FakeChatModel]:
    example = load_example("host_agent")
    fake.set_script("AnswerDraft", answer_from_memories)
    memory = memory_factory(fake)
    host_model = FakeChatModel(script={"text": example.host_reply})
    ctx = example.HostContext(model=host_model, user_id="alice")
    return example, memory, ctx, host_model


def run_turns(graph: Any, ctx: Any, config: dict[str, Any], turns: list[str]) -> list[dict[str, Any]]:
    """Each turn streams with subgraphs=True; returns the (namespace, node) pairs seen plus the state."""
    seen = []
    for text in turns:
        chunks = list(graph.stream({"messages": [HumanMessage(text)]}, config, context=ctx, subgraphs=True,
                                   stream_mode=["updates", "values"]))
        nodes = {(ns[0].split(":")[0] if ns else "", node)
                 for ns, mode, data in chunks if mode == "updates" for node in data}
        final = [data for ns, mode, data in chunks if mode == "values" and ns == ()][-1]
        seen.append({"nodes": nodes, "state": final})
    return seen


def test_example_runs_offline(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    load_example("host_agent").main()
    assert list(tmp_path.iterdir()) == []  # its store was temporary: nothing is left behind
    out = capsys.readouterr().out
    assert "host: (memory: nothing yet) Noted!" in out and "host: (memory: Rex) Noted!" in out
    assert "beagle named Rex" in out and "nurse in Boston" in out


def test_second_turn_recalls_the_memory_formed_in_the_first(host: Any) -> None:
    example, memory, ctx, host_model = host
    graph = example.build_host_graph(memory).compile(checkpointer=InMemorySaver())
    first, second, third = run_turns(graph, ctx, {"configurable": {"thread_id": "t1"}}, TURNS)

    assert first["state"]["messages"][-1].text == "(memory: nothing yet) Noted!"
    assert any("Rex" in m.text for m in memory.get_all(user_id="alice"))
    assert second["state"]["messages"][-1].text == "(memory: Rex) Noted!"
    note = [m for m in host_model.calls_for("text")[1].messages if m.name == RECALL_NAME]
    assert len(note) == 1 and "answer: Rex" in note[0].text and "beagle named Rex" in note[0].text
    assert note[0].additional_kwargs["dmem"]["route"] == "system1"
    assert len(third["state"]["messages"]) == 7  # 3 turns x (human, reply) + this turn's recall note


def test_thread_keeps_one_recall_note_right_after_the_users_message(host: Any) -> None:
    example, memory, ctx, _ = host
    graph = example.build_host_graph(memory).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t2"}}
    run_turns(graph, ctx, config, TURNS[:2])
    values = graph.get_state(config).values
    assert set(values) == {"messages"}
    kinds = [type(m) for m in values["messages"]]
    assert kinds == [HumanMessage, AIMessage, HumanMessage, SystemMessage, AIMessage]
    # Our transcript uses the host's message ids as turn ids, in the thread's conversation.
    recorded = memory.transcript(user_ids=["alice"])
    said = [m for m in values["messages"] if m.name != RECALL_NAME]
    assert [m.turn_id for m in recorded] == [str(m.id) for m in said]
    assert {m.conversation_id for m in recorded} == {"t2"}
    assert [m.speaker for m in recorded] == ["user", "assistant", "user", "assistant"]
    assert [m.seq for m in recorded] == [0, 1, 2, 3]


def test_subgraph_runs_appear_under_the_host_nodes(host: Any) -> None:
    example, memory, ctx, _ = host
    graph = example.build_host_graph(memory).compile(checkpointer=InMemorySaver())
    _, second = run_turns(graph, ctx, {"configurable": {"thread_id": "t3"}}, TURNS[:2])
    nodes = second["nodes"]
    assert {("", "recall"), ("", "reply"), ("", "remember")} <= nodes
    assert {("recall", "retrieve"), ("recall", "answer"), ("recall", "quality_gate"), ("recall", "finish")} <= nodes
    assert {("remember", "read_input"), ("remember", "record"), ("remember", "apply_operations")} <= nodes


def test_without_a_checkpointer_memory_still_carries_across_invocations(host: Any) -> None:
    example, memory, ctx, _ = host
    graph = example.build_host_graph(memory).compile()
    _, second = run_turns(graph, ctx, {}, TURNS[:2])
    assert len(second["state"]["messages"]) == 3  # the host forgot, dmem did not
    assert second["state"]["messages"][-1].text == "(memory: Rex) Noted!"


def test_settings_reach_the_subgraphs_through_the_dmem_field(host: Any, fake: FakeChatModel) -> None:
    example, memory, ctx, _ = host
    never = example.HostContext(model=ctx.model, user_id="alice", dmem=Context(gate_policy="never"))
    run_turns(example.build_host_graph(memory).compile(), never, {}, TURNS[:2])
    assert fake.calls_for("AnswerDraft") and fake.calls_for("QualityGateVerdict") == []


def test_user_comes_from_the_config_when_the_host_context_has_none(fake: FakeChatModel, memory_factory: Any) -> None:
    memory = memory_factory(fake)
    fake.set_script("AnswerDraft", answer_from_memories)
    g = StateGraph(MessagesState)
    g.add_node("recall", make_recall_node(memory))
    g.add_node("remember", make_remember_node(memory))
    g.add_edge(START, "recall")
    g.add_edge("recall", "remember")
    g.add_edge("remember", END)
    graph = g.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t4", "user_id": "bruno"}}
    graph.invoke({"messages": [HumanMessage("I adopted a beagle named Rex last week.")]}, config)
    assert any("Rex" in m.text for m in memory.get_all(user_id="bruno"))
    assert memory.get_all(user_id="default") == []
    out = graph.invoke({"messages": [HumanMessage("What is my dog's name?")]}, config)
    assert "answer: Rex" in [m for m in out["messages"] if m.name == RECALL_NAME][-1].text


def test_ingestion_graph_is_a_node_of_a_messages_state_host(fake: FakeChatModel, memory_factory: Any) -> None:
    memory = memory_factory(fake)
    g = StateGraph(MessagesState)
    g.add_node("memory", memory.ingestion_graph)
    g.add_edge(START, "memory")
    g.add_edge("memory", END)
    graph = g.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t5", "user_id": "carla"}}
    first = graph.invoke({"messages": [HumanMessage("I adopted a beagle named Rex last week.")]}, config)
    again = graph.invoke({"messages": [HumanMessage("My sister Ana lives in Porto.")]}, config)
    assert [type(m) for m in again["messages"]] == [HumanMessage, HumanMessage]  # our keys never reach the host
    texts = [m.text for m in memory.get_all(user_id="carla")]
    assert len(texts) == 2 and any("Rex" in t for t in texts) and any("Porto" in t for t in texts)
    assert [m.turn_id for m in memory.transcript(user_ids=["carla"])] == [str(m.id) for m in again["messages"]]
    assert first["messages"][0].id == again["messages"][0].id


async def test_host_nodes_run_the_graphs_on_the_hosts_event_loop(fake: FakeChatModel, memory_factory: Any) -> None:
    from tests.loop_guard import server_loop_guard

    memory = memory_factory(fake)
    memory.store  # noqa: B018  (the owner opens its store before the host runs)
    fake.set_script("AnswerDraft", answer_from_memories)
    g = StateGraph(MessagesState)
    g.add_node("recall", make_recall_node(memory))
    g.add_node("remember", make_remember_node(memory))
    g.add_edge(START, "recall")
    g.add_edge("recall", "remember")
    g.add_edge("remember", END)
    graph = g.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t9", "user_id": "dana"}}
    with server_loop_guard():
        await graph.ainvoke({"messages": [HumanMessage("I adopted a beagle named Rex last week.")]}, config)
        out = await graph.ainvoke({"messages": [HumanMessage("What is my dog's name?")]}, config)
    assert "answer: Rex" in [m for m in out["messages"] if m.name == RECALL_NAME][-1].text
    assert {c.via for c in fake.calls_for("AnswerDraft")} == {"async"}
    assert {c.via for c in fake.calls_for("AdmissionVerdicts")} == {"async"}
