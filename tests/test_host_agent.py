"""examples/host_agent.py: dmem's graphs embedded as subgraphs of a host chat agent."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from dmem.state.verdicts import NO_INFO
from dmem.testing import FakeChatModel
from tests.conftest import last_section

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "host_agent.py"
TURNS = ["I adopted a beagle named Rex last week.", "What is my dog's name?", "Thanks, and what breed is he?"]


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("host_agent_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve string annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def answer_from_memories(messages: list[BaseMessage]) -> dict[str, Any]:
    """dmem's System 1 answers 'Rex' only if a memory mentioning Rex was retrieved."""
    found = "Rex" in last_section(messages, "memories")
    return {"reasoning": "memories", "answer": "Rex" if found else NO_INFO}


def host_reply(messages: list[BaseMessage]) -> str:
    memory = str(messages[0].content).split("<memory>\n", 1)[1].split("\n</memory>", 1)[0]
    return f"I remember: {memory}"


@pytest.fixture
def host(fake: FakeChatModel, memory_factory: Any) -> tuple[Any, Any, Any, FakeChatModel]:
    example = load_example()
    fake.set_script("AnswerDraft", answer_from_memories)
    memory = memory_factory(fake)
    host_model = FakeChatModel(script={"text": host_reply})
    ctx = example.HostContext(model=host_model, dmem=memory.context)
    return example, memory, ctx, host_model


def run_turns(graph: Any, ctx: Any, config: dict[str, Any], turns: list[str]) -> list[dict[str, Any]]:
    """Each turn streams with subgraphs=True; returns the namespaces (and nodes) seen plus the state."""
    seen = []
    for text in turns:
        chunks = list(graph.stream({"messages": [HumanMessage(text)], "user_id": "alice"}, config,
                                   context=ctx, subgraphs=True, stream_mode=["updates", "values"]))
        nodes = {(ns[0].split(":")[0] if ns else "", node)
                 for ns, mode, data in chunks if mode == "updates" for node in data}
        final = [data for ns, mode, data in chunks if mode == "values" and ns == ()][-1]
        seen.append({"nodes": nodes, "state": final})
    return seen


def test_second_turn_recalls_the_memory_formed_in_the_first(host: Any) -> None:
    example, memory, ctx, host_model = host
    graph = example.compile_host_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    first, second, third = run_turns(graph, ctx, config, TURNS)

    assert first["state"]["recall_route"] == "no_memory"
    assert any("Rex" in m.text for m in memory.get_all(user_id="alice"))
    assert second["state"]["recalled"] == "Rex" and second["state"]["recall_route"] == "system1"
    assert "<memory>\nRex\n</memory>" in host_model.calls_for("text")[1].prompt
    assert second["state"]["messages"][-1].text == "I remember: Rex"
    assert len(third["state"]["messages"]) == 6  # the checkpointer kept the whole thread


def test_host_state_holds_only_host_messages_and_keys(host: Any) -> None:
    example, memory, ctx, _ = host
    graph = example.compile_host_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t2"}}
    run_turns(graph, ctx, config, TURNS[:2])
    values = graph.get_state(config).values
    assert set(values) == {"messages", "user_id", "recalled", "recall_route"}
    kinds = [type(m) for m in values["messages"]]
    assert kinds == [HumanMessage, AIMessage, HumanMessage, AIMessage]
    # Our transcript uses the host's message ids as stable turn ids, in the thread's conversation.
    recorded = memory.transcript(user_ids=["alice"])
    assert [m.turn_id for m in recorded] == [str(m.id) for m in values["messages"]]
    assert {m.conversation_id for m in recorded} == {"t2"}
    assert [m.speaker for m in recorded] == ["user", "assistant", "user", "assistant"]


def test_subgraph_runs_appear_under_the_host_nodes(host: Any) -> None:
    example, _, ctx, _ = host
    graph = example.compile_host_graph(checkpointer=InMemorySaver())
    _, second = run_turns(graph, ctx, {"configurable": {"thread_id": "t3"}}, TURNS[:2])
    nodes = second["nodes"]
    assert {("", "recall"), ("", "reply"), ("", "remember")} <= nodes
    assert {("recall", "retrieve"), ("recall", "answer"), ("recall", "quality_gate"), ("recall", "finish")} <= nodes
    assert {("remember", "record"), ("remember", "admit"), ("remember", "apply_operations")} <= nodes


def test_without_a_checkpointer_memory_still_carries_across_invocations(host: Any) -> None:
    example, _, ctx, _ = host
    graph = example.compile_host_graph()
    first, second = run_turns(graph, ctx, {}, TURNS[:2])
    assert len(second["state"]["messages"]) == 2  # the host forgot, dmem did not
    assert second["state"]["recalled"] == "Rex"


def test_settings_reach_the_subgraphs_through_the_dmem_field(host: Any, fake: FakeChatModel) -> None:
    example, _, ctx, _ = host
    never = example.HostContext(model=ctx.model, dmem=ctx.dmem.with_overrides(gate_policy="never"))
    graph = example.compile_host_graph()
    run_turns(graph, never, {}, TURNS[:2])
    assert fake.calls_for("AnswerDraft") and fake.calls_for("QualityGateVerdict") == []
