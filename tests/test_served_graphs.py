"""Graphs a server can serve: schemas, JSON input, settings checked on every path, DMEM_* defaults, shared services."""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from dmem.errors import ConfigError, InputError
from dmem.graphs import (
    build_query_graph,
    deliberation_graph,
    ingestion_graph,
    query_graph,
    served_resources,
)
from dmem.services import Resources
from dmem.state.context import Context, build_context
from dmem.state.schemas import Message
from dmem.store import Routing
from dmem.testing import FakeChatModel

SERVED = {"ingestion": ingestion_graph, "query": query_graph, "deliberation": deliberation_graph}
EXCHANGE = [{"role": "user", "content": "I adopted a beagle named Rex last week."},
            {"role": "assistant", "content": "Congratulations!"}]


@pytest.fixture
def served_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The served graphs' settings come from DMEM_*; the store is closed after the test."""
    monkeypatch.setenv("DMEM_STORE_DIR", str(tmp_path / "served"))
    monkeypatch.setenv("DMEM_EMBEDDING_MODEL", "hash")
    served_resources.close()
    yield tmp_path / "served"
    served_resources.close()


def undocumented(schema: dict[str, Any]) -> list[str]:
    """Properties without a description, in the schema and in our own $defs (LangChain's messages aside)."""
    parts = [("", schema)] + [(name, d) for name, d in schema.get("$defs", {}).items()
                              if not name.endswith(("Message", "MessageChunk")) and "Tool" not in name
                              and "Token" not in name and name != "UsageMetadata"]
    return [f"{where}.{prop}" for where, part in parts
            for prop, spec in (part.get("properties") or {}).items() if "description" not in spec]


@pytest.mark.parametrize("name", sorted(SERVED))
def test_schemas_generate_with_descriptions(name: str) -> None:
    graph = SERVED[name]
    for schema in (graph.get_input_jsonschema(), graph.get_output_jsonschema(), graph.get_context_jsonschema()):
        assert schema and schema.get("properties"), f"{name}: empty schema"
        assert undocumented(schema) == [], f"{name}: fields without a description"
    required = graph.get_input_jsonschema().get("required", [])
    assert required == ([] if name == "ingestion" else ["question"])


def test_context_schema_holds_settings_only() -> None:
    schema = query_graph.get_context_jsonschema()
    assert schema is not None
    assert "resources" not in schema["properties"] and "api_key" not in schema["properties"]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == set(Context.model_fields)


def test_ingestion_input_takes_chat_messages_without_colliding_with_messages_state() -> None:
    props = ingestion_graph.get_input_jsonschema()["properties"]
    assert {"messages", "turns", "user_id", "conversation_id"} <= set(props)
    assert "HumanMessage" in json.dumps(props["messages"]) and "Message" in json.dumps(props["turns"])
    assert "messages" not in ingestion_graph.get_output_jsonschema()["properties"]


@pytest.mark.parametrize("graph_input, field", [
    ({"q": "x"}, "'question'"),
    ({"question": "  "}, "'question'"),
    ({"question": "x", "namespaces": [1]}, re.escape("'namespaces[0]'")),
])
def test_bad_query_input_names_the_field(served_store: Path, graph_input: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError, match=field):
        query_graph.invoke(graph_input)


@pytest.mark.parametrize("graph_input, field", [
    ({}, "'messages'.*'turns'"),
    ({"messages": [{"q": 1}]}, "'messages'"),
    ({"messages": "hello"}, "'messages'"),
    ({"messages": [{"role": "system", "content": "be nice"}]}, "'messages'"),
    ({"turns": [{"speaker": "Maya", "text": "hi"}]}, r"'turns\[0\].turn_id'"),
    ({"turns": [{"speaker": "Maya", "text": "hi", "turn_id": "1", "timestamp": "soon"}]}, r"'turns\[0\].timestamp'"),
    ({"messages": EXCHANGE, "turns": [{"speaker": "Maya", "turn_id": "1"}]}, "not both"),
    ({"messages": EXCHANGE, "user_id": 7}, "'user_id'"),
    ({"messages": EXCHANGE, "speaker_namespaces": {"Maya": 3}}, "'speaker_namespaces.Maya'"),
])
def test_bad_ingestion_input_names_the_field(served_store: Path, graph_input: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError, match=field):
        ingestion_graph.invoke(graph_input)


def test_json_input_as_the_sdk_sends_it(served_store: Path) -> None:
    out = ingestion_graph.invoke({"messages": EXCHANGE, "user_id": "maya"})
    assert out["status"] == "formed" and any("Rex" in f.text for f in out["facts"])
    again = ingestion_graph.invoke({"messages": EXCHANGE, "user_id": "maya"})
    assert again["status"] == "duplicate"  # ids derived from the messages: nothing is recorded twice
    typed = ingestion_graph.invoke({"messages": [{"type": "human", "content": "My sister Ana lives in Porto."}],
                                    "user_id": "maya", "conversation_id": "chat-2"})
    assert typed["status"] == "formed"
    turns = ingestion_graph.invoke({"turns": [{"speaker": "Maya", "text": "I work as a nurse in Boston.",
                                               "turn_id": "d1", "timestamp": "2024-03-04T09:12:00"}],
                                    "speaker_namespaces": {"Maya": "maya"}})
    assert turns["status"] == "formed" and turns["facts"][0].namespace == "maya"
    answer = query_graph.invoke({"question": "What is the name of my beagle?", "namespaces": ["maya"]},
                                context={"gate_policy": "never"})
    assert answer["answer"] == "Rex" and answer["route"] == "system1"


def test_bad_settings_are_errors_on_every_path(served_store: Path) -> None:
    with pytest.raises(ConfigError, match="gate_policy"):
        Context(gate_policy="bogus")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="gate_policy"):
        query_graph.invoke({"question": "x"}, context={"gate_policy": "bogus"})
    with pytest.raises(ConfigError, match="unknown setting.*top_kay"):
        query_graph.invoke({"question": "x"}, context={"top_kay": 3})
    with pytest.raises(ConfigError, match="DMEM_API_KEY"):
        query_graph.invoke({"question": "x"}, context={"api_key": "sk-secret"})
    with pytest.raises(ConfigError, match="chunk_size"):
        query_graph.invoke({"question": "x"}, context={"chunk_size": 0})
    with pytest.raises(ConfigError, match="chunk_size"):
        served_resources.settings_for({"dmem": {"chunk_size": 0}, "user_id": "maya"})  # a host's dict context


def test_api_key_is_read_from_the_environment_not_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMEM_API_KEY", "sk-from-env")
    assert "api_key" not in build_context().model_dump()
    assert Resources(Context()).api_key == "sk-from-env"
    assert Resources(Context(), api_key="sk-given").api_key == "sk-given"


class HostState(TypedDict, total=False):
    """A host that asks dmem's query graph directly (a subgraph node sharing these keys)."""

    question: str
    namespaces: list[str]
    answer: str


@dataclass(frozen=True)
class HostContext:
    """A host's runtime context with no dmem field."""

    persona: str = "friendly"


def test_without_a_dmem_context_the_dmem_settings_apply_and_the_store_is_logged(
        served_store: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="dmem.services"):
        ingestion_graph.invoke({"messages": EXCHANGE, "user_id": "maya"})
    assert served_store.joinpath("dmem.sqlite").exists() or any(served_store.iterdir())
    assert not Path(".dmem").exists() or Path(".dmem").resolve() != served_store
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert f"store_dir={served_store}" in logged and f"opened the store in {served_store.resolve()}" in logged

    host = StateGraph(HostState, context_schema=HostContext)
    host.add_node("memory", query_graph)
    host.add_edge(START, "memory")
    host.add_edge("memory", END)
    out = host.compile().invoke({"question": "What is the name of my beagle?", "namespaces": ["maya"]},
                                context=HostContext())
    assert out["answer"] == "Rex"  # read from the DMEM_* store, though the host's context has no dmem field


def test_a_graph_is_closed_over_the_owner_it_was_built_with(tmp_path: Path) -> None:
    owners = [Resources(Context(store_dir=str(tmp_path / name), embedding_model="hash")) for name in ("a", "b")]
    try:
        graphs = [build_query_graph(resources=r).compile() for r in owners]
        assert all("configurable" not in (g.config or {}) for g in graphs), "no owner rides in the config"
        owners[0].store.transcript.append(Routing.of("u"), [Message(conversation_id="c", turn_id="t", speaker="U",
                                                                    text="I keep bees.")])
        routes = [g.invoke({"question": "What do I keep?", "namespaces": ["u"]})["route"] for g in graphs]
        assert routes == ["deliberation", "no_memory"]
    finally:
        for r in owners:
            r.close()


def test_runs_with_other_settings_share_the_store_and_embeddings(served_store: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import dmem.store

    opened: list[Path] = []
    real_open = dmem.store.open_store
    monkeypatch.setattr(dmem.store, "open_store", lambda path, **kw: opened.append(path) or real_open(path, **kw))
    base = served_resources.services(None)
    never = served_resources.services(Context(gate_policy="never", use_filter=True, retrieval_top_k=3))
    hot = served_resources.services(Context(temperature=0.5))
    assert never.context.gate_policy == "never" and never.context.store_dir == str(served_store)
    assert never.store is base.store is hot.store and never.embeddings is base.embeddings is hot.embeddings
    assert never.decider is base.decider  # decision-only settings share the decider too
    assert hot.decider is not base.decider and hot.context.temperature == 0.5
    other = served_resources.services(Context(store_dir=str(served_store.parent / "other")))
    assert other.store is not base.store and opened == [served_store.resolve(), (served_store.parent / "other")]


def test_a_run_context_overrides_only_what_it_sets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DMEM_GATE_POLICY", "never")
    owner = Resources(build_context(store_dir=str(tmp_path)))
    assert owner.settings_for(Context(chunk_size=30)).gate_policy == "never"
    assert owner.settings_for(Context(gate_policy="quality")).gate_policy == "quality"  # set, even if default
    assert owner.settings_for({"dmem": {"use_filter": True}}).use_filter is True
    assert owner.settings_for(HostContext()) is owner.settings


def test_concurrent_runs_with_different_settings_on_one_store(fake: FakeChatModel, memory_factory: Any) -> None:
    """Both runs are inside a model call at once (a barrier), on one open store, with their own settings."""
    memory = memory_factory(fake)
    memory.add(["I adopted a beagle named Rex last week.", "Nice!"], user_id="maya")
    barrier = threading.Barrier(2, timeout=30)

    def draft_at_the_barrier(messages: list[BaseMessage]) -> dict[str, Any]:
        barrier.wait()
        return {"reasoning": "memory 1", "answer": "Rex"}

    fake.set_script("AnswerDraft", draft_at_the_barrier)
    results: dict[str, Any] = {}

    def ask(policy: str) -> None:
        results[policy] = memory.query_graph.invoke({"question": "Dog?", "namespaces": ["maya"]},
                                                    context=Context(gate_policy=policy))  # type: ignore[arg-type]

    threads = [threading.Thread(target=ask, args=(p,)) for p in ("never", "quality")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results["never"]["route"] == "system1" and results["never"]["answer"] == "Rex"
    assert results["quality"]["gate"]["policy"] == "quality" and len(fake.calls_for("QualityGateVerdict")) == 1
    assert len(fake.calls_for("AnswerDraft")) == 2 and barrier.broken is False
    assert memory.resources.services(Context(gate_policy="never")).store is memory.store
