"""Runs as a LangGraph server makes them, in-process: on an event loop that must never block, with a run
context, and several runs on one thread (``langgraph dev`` itself: tests/test_langgraph_server.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from dmem.errors import ConfigError
from dmem.graphs import compile_ingestion_graph, compile_query_graph
from dmem.state.gate_policy import GATE_POLICIES
from tests.conftest import conversation
from tests.loop_guard import server_loop_guard

EXCHANGE = [{"role": "user", "content": "I adopted a beagle named Rex last week."},
            {"role": "assistant", "content": "Congratulations!"}]
POLICIES = list(GATE_POLICIES)


def rejecting(fake: Any) -> Any:
    """The fake with admission rejecting every turn: the transcript is recorded, no memory is formed."""
    fake.set_script("AdmissionVerdicts", lambda messages: {"verdicts": []})
    return fake


@pytest.mark.parametrize("policy", POLICIES)
async def test_a_new_user_is_answered_without_blocking_the_loop(fake, memory_factory, policy):
    mem = memory_factory(fake)
    with server_loop_guard():
        out = await mem.query_graph.ainvoke({"question": "Anything about me?", "namespaces": ["newcomer"]},
                                            context={"gate_policy": policy})
    assert out["route"] == "no_memory"


@pytest.mark.parametrize("policy", POLICIES)
async def test_a_transcript_only_user_deliberates_without_blocking_the_loop(fake, memory_factory, policy):
    mem = memory_factory(rejecting(fake))
    added = mem.add(conversation(6), user_id="talker")
    assert added.exchanges and mem.get_all(user_id="talker") == [] and mem.store.transcript.count("talker") == 6
    with server_loop_guard():
        out = await mem.query_graph.ainvoke({"question": "What did they talk about?", "namespaces": ["talker"]},
                                            context={"gate_policy": policy})
    assert out["route"] == ("no_memory" if policy == "never" else "deliberation")


def test_retrieve_records_whether_the_filtered_transcript_has_a_turn(fake, memory_factory):
    mem = memory_factory(rejecting(fake))
    mem.add(conversation(4), user_id="talker", metadata={"source": "chat"})
    seen: dict[str, Any] = {}
    for labels in (None, {"source": "chat"}, {"source": "mail"}):
        state = {"question": "What did they talk about?", "namespaces": ["talker"]}
        if labels:
            state["metadata"] = labels
        for part in mem.query_graph.stream(state, stream_mode="updates", context={"gate_policy": "never"}):
            if "retrieve" in part:
                seen[str(labels)] = part["retrieve"]["has_transcript"]
    assert seen == {"None": True, "{'source': 'chat'}": True, "{'source': 'mail'}": False}


def test_a_run_context_user_id_is_whose_memory_it_is(fake, memory_factory):
    mem = memory_factory(fake)
    out = mem.ingestion_graph.invoke({"messages": EXCHANGE}, context={"user_id": "kim"})
    assert out["status"] == "formed"
    assert mem.get_all(user_id="kim") and mem.get_all(user_id="default") == []
    found = mem.query_graph.invoke({"question": "What is my dog's name?"}, context={"user_id": "kim"})
    assert found["memories"] and {m.namespace for m in found["memories"]} == {"kim"}
    assert mem.query_graph.invoke({"question": "What is my dog's name?"})["memories"] == []


def test_a_run_context_user_id_must_be_a_namespace(fake, memory_factory):
    mem = memory_factory(fake)
    with pytest.raises(ConfigError, match="setting 'user_id': user_id 'a\\\\x01b' contains control characters"):
        mem.ingestion_graph.invoke({"messages": EXCHANGE}, context={"user_id": "a\x01b"})


def test_an_unknown_context_key_is_a_config_error(fake, memory_factory):
    mem = memory_factory(fake)
    with pytest.raises(ConfigError, match="unknown setting.*gate_polcy"):
        mem.query_graph.invoke({"question": "x"}, context={"gate_polcy": "never"})


def test_two_ingestion_runs_on_one_thread_do_not_leak_inputs(fake, memory_factory):
    mem = memory_factory(fake)
    graph = compile_ingestion_graph(resources=mem.resources, checkpointer=InMemorySaver())
    fresh = graph.invoke({"messages": EXCHANGE, "user_id": "bo"}, {"configurable": {"thread_id": "t0"}})
    thread = {"configurable": {"thread_id": "t1"}}
    first = graph.invoke({"turns": [t.model_dump() for t in conversation(2)], "user_id": "ana"}, thread)
    assert first["status"] == "formed"
    second = graph.invoke({"messages": EXCHANGE, "user_id": "ana"}, thread)
    assert second["status"] == "formed"
    assert [op.new_text for op in second["operations"]] == [op.new_text for op in fresh["operations"]]
    assert len(second["usage"]) == len(fresh["usage"])  # this run's model work only
    state = graph.get_state(thread).values
    assert state.get("turns") is None and state.get("messages") is None


def test_two_query_runs_on_one_thread_report_their_own_gate_and_usage(fake, memory_factory):
    mem = memory_factory(fake)
    mem.add(conversation(4), user_id="u1")
    graph = compile_query_graph(resources=mem.resources, checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "q1"}}
    first = graph.invoke({"question": "When?", "namespaces": ["u1"]}, thread, context={"gate_policy": "quality"})
    second = graph.invoke({"question": "When?", "namespaces": ["u1"]}, thread, context={"gate_policy": "never"})
    assert first["gate"]["policy"] == "quality" and second.get("gate", {}).get("policy") != "quality"
    assert len(second["usage"]) == 1  # the one answer call of this run


def test_no_private_langgraph_api_and_no_hidden_owner_key() -> None:
    """Wiring is explicit (nodes closed over their owner) and only LangGraph's public API is used."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "dmem"
    found = [f"{path.relative_to(root)}: {needle}" for path in root.rglob("*.py")
             for needle in ("langgraph._internal", ".branches", "spec._replace", "__dmem_resources", "RunnableCallable")
             if needle in path.read_text(encoding="utf-8")]
    assert found == []


async def test_the_async_api_never_blocks_the_event_loop(fake, memory_factory):
    mem = memory_factory(fake)
    mem.store  # noqa: B018  (an owner opens its store once, before its runs)
    with server_loop_guard():
        added = await mem.aadd(conversation(4), user_id="u1")
        found = await mem.asearch("message number 1", user_id="u1")
        answer = await mem.aask("What about topic 1?", user_id="u1")
        retried = await mem.aretry_pending(user_id="u1")
    assert added.exchanges and all(e.status == "formed" for e in added.exchanges)
    assert found and answer.answer and retried.exchanges == []


async def test_a_failed_async_exchange_is_kept_pending_off_the_loop(fake, memory_factory):
    mem = memory_factory(fake)
    mem.store  # noqa: B018
    fake.set_script("AdmissionVerdicts", ["not a verdict"] * 10)
    with server_loop_guard():
        added = await mem.aadd(conversation(2), user_id="u2")
    assert [e.status for e in added.exchanges] == ["pending_retry"]


async def test_aask_calls_the_model_through_its_async_api_and_ask_through_its_sync_one(fake, memory_factory):
    mem = memory_factory(fake, use_filter=True)
    mem.add(conversation(4), user_id="u1")
    await mem.aask("What about topic 1?", user_id="u1")
    mem.ask("What about topic 1?", user_id="u1")
    vias = {schema: [c.via for c in fake.calls_for(schema)] for schema in
            ("MemorySelection", "AnswerDraft", "QualityGateVerdict")}
    assert vias == {schema: ["async", "sync"] for schema in vias}


@pytest.mark.slow
async def test_concurrent_aask_overlap_their_model_calls_up_to_the_endpoint_limit(fake, memory_factory):
    fake.delay = 0.2  # long enough that ten calls started together are all in flight at once
    mem = memory_factory(fake, endpoint_concurrency=10, gate_policy="never")
    for i in range(12):
        mem.add(conversation(2, conv=f"c{i}"), user_id=f"u{i}")
    fake._state.calls.clear()
    answers = await asyncio.gather(*(mem.aask("What about topic 1?", user_id=f"u{i}") for i in range(12)))
    assert all(a.answer for a in answers)
    assert fake.max_in_flight("AnswerDraft") == 10  # the endpoint's limit, not the thread pool's (6 here)


async def test_aadd_forms_through_the_models_async_api_and_add_through_its_sync_one(fake, memory_factory):
    mem = memory_factory(fake)
    await mem.aadd(conversation(2), user_id="u1")
    mem.add(conversation(2, conv="c2"), user_id="u1")
    vias = {schema: [c.via for c in fake.calls_for(schema)] for schema in
            ("AdmissionVerdicts", "FactDrafts", "ScopeLabels")}
    assert vias == {schema: ["async", "sync"] for schema in vias}


async def test_full_deliberation_reads_chunks_through_the_models_async_api(fake, memory_factory):
    mem = memory_factory(fake, gate_policy="always", deliberation_mode="full", chunk_size=2)
    mem.add(conversation(6), user_id="u1")
    with server_loop_guard():
        answer = await mem.aask("What about topic 1?", user_id="u1")
    assert answer.route == "deliberation"
    chunks = fake.calls_for("ChunkFacts")
    assert len(chunks) == 3 and {c.via for c in chunks} == {"async"}
    assert fake.max_in_flight("ChunkFacts") >= 1 and fake.calls_for("AnswerDraft")[-1].via == "async"


@pytest.mark.parametrize("policy", ["majority", "consensus"])
async def test_voting_samples_and_groups_through_the_models_async_api(fake, memory_factory, policy):
    mem = memory_factory(fake, gate_policy=policy)
    mem.add(conversation(4), user_id="u1")
    with server_loop_guard():
        answer = await mem.aask("What about topic 1?", user_id="u1")
    assert answer.gate_passed is True and len(fake.calls_for("AnswerDraft")) == 3
    assert {c.via for c in fake.calls_for("AnswerDraft") + fake.calls_for("AnswerGroups")} == {"async"}


async def test_prompt_mode_answers_through_the_models_agenerate(fake, memory_factory):
    mem = memory_factory(fake, structured_output="prompt", gate_policy="quality")
    mem.add(conversation(4), user_id="u1")
    await mem.aask("What about topic 1?", user_id="u1")
    calls = fake.calls_for("AnswerDraft") + fake.calls_for("QualityGateVerdict")
    assert [(c.method, c.via) for c in calls][-2:] == [("prompt", "async"), ("prompt", "async")]  # _agenerate
