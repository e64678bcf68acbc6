"""What a run puts on the event loop: bursts are paced, nodes make no run of their own, pure nodes stay on it."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler

from dmem import pacing
from tests.conftest import conversation


async def test_a_burst_of_run_starts_is_spread_over_turns_of_the_loop():
    loop = asyncio.get_running_loop()
    turn = 0
    ticking = True

    def tick() -> None:  # one call per turn of the loop: the turn counter
        nonlocal turn
        turn += 1
        if ticking:
            loop.call_soon(tick)

    loop.call_soon(tick)
    await asyncio.sleep(0)
    started: list[int] = []

    async def run() -> None:
        await pacing.start()
        started.append(turn)

    await asyncio.gather(*(run() for _ in range(5 * pacing.RUNS_PER_TURN + 3)))
    ticking = False
    per_turn = Counter(started)
    assert len(started) == 5 * pacing.RUNS_PER_TURN + 3
    assert max(per_turn.values()) == pacing.RUNS_PER_TURN
    assert len(per_turn) == 6  # five full turns and the rest


class RunNames(BaseCallbackHandler):
    """Names of the chain runs a graph run makes."""

    def __init__(self) -> None:
        self.names: Counter[str] = Counter()

    def on_chain_start(self, serialized: Any, inputs: Any, *, name: str | None = None, **kwargs: Any) -> None:
        self.names[str(name)] += 1


async def test_each_node_is_one_run_on_both_paths(fake, memory_factory):
    """A node's run is LangGraph's; the node makes none inside it (the decider's call is one run of its own)."""
    mem = memory_factory(fake)
    mem.add(conversation(2), user_id="ivo")
    names = {}
    for path in ("sync", "async"):
        seen = RunNames()
        state = {"question": "What did they talk about?", "namespaces": ["ivo"]}
        config: Any = {"callbacks": [seen]}
        if path == "sync":
            await asyncio.to_thread(mem.query_graph.invoke, state, config=config, context={"gate_policy": "never"})
        else:
            await mem.query_graph.ainvoke(state, config=config, context={"gate_policy": "never"})
        for node in ("read_question", "retrieve", "finish"):
            assert seen.names[node] == 1, (path, node, seen.names)
        assert "ends_run" not in seen.names
        names[path] = seen.names
    assert names["async"] == names["sync"]


async def test_pure_nodes_run_on_the_loop_and_store_steps_off_it(fake, memory_factory, monkeypatch):
    import dmem.nodes.inputs as inputs
    import dmem.nodes.recording as recording

    threads: dict[str, int] = {}
    real_read, real_record = inputs.read_question, recording.record

    def read_question(state: Any, ctx: Any, runtime: Any) -> dict[str, Any]:
        threads["read_question"] = threading.get_ident()
        return real_read(state, ctx, runtime)

    def record(state: Any, svc: Any) -> dict[str, Any]:
        threads["record"] = threading.get_ident()
        return real_record(state, svc)

    monkeypatch.setattr("dmem.graphs.query.read_question", read_question)
    monkeypatch.setattr("dmem.graphs.ingestion.record", record)
    mem = memory_factory(fake)
    await mem.aadd(conversation(2), user_id="ivo")
    await mem.aask("What did they talk about?", user_id="ivo", gate_policy="never")
    assert threads["read_question"] == threading.get_ident()
    assert threads["record"] != threading.get_ident()


def test_a_calls_settings_are_built_once_and_still_checked(memory_factory):
    import pytest

    from dmem.errors import ConfigError

    mem = memory_factory()
    assert mem._ctx({"gate_policy": "never"}) is mem._ctx({"gate_policy": "never"})
    mem._ctx({"retrieval_top_k": 1})
    with pytest.raises(ConfigError):
        mem._ctx({"retrieval_top_k": True})  # equal to 1 as a key, but not a valid count


def test_services_are_kept_per_run_settings_and_follow_a_new_knowledge_source(memory_factory):
    from dmem.store.knowledge import StaticKnowledge

    mem = memory_factory()
    owner = mem.resources
    run = mem._ctx({"gate_policy": "never"})
    assert owner.known_services(run) is None  # not built yet: a node builds them off the loop
    built = owner.services(run)
    assert owner.known_services(run) is built and owner.services(run) is built
    owner.knowledge = StaticKnowledge({})
    assert owner.known_services(run) is None and owner.services(run).knowledge is owner.knowledge
    owner.close()
    assert owner.known_services(run) is None
