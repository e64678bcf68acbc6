"""What LangSmith would see, checked with a local tracer: run names, nesting, tags, metadata; nothing sent.

A ``BaseTracer`` subclass keeps every run in memory. It is attached through ``register_configure_hook``
(the mechanism LangSmith's own tracer uses), as an inheritable handler so that it sees the whole tree,
or passed in ``config`` as a caller would. What a real LangSmith client sends, redacted or not, is
checked against a loopback collector in ``test_tracing_collector.py``.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import langsmith
import langsmith.utils
import pytest
from langchain_core.tracers.base import BaseTracer
from langchain_core.tracers.context import register_configure_hook
from langchain_core.tracers.langchain import LangChainTracer
from langchain_core.tracers.schemas import Run

from dmem.testing import FakeChatModel
from tests.conftest import FAIL, PASS, conversation


class RunTracer(BaseTracer):
    """Collects every run locally, in start order; persists nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[Run] = []

    def _start_trace(self, run: Run) -> None:
        super()._start_trace(run)
        self.runs.append(run)

    def _persist_run(self, run: Run) -> None:
        pass

    def named(self, name: str) -> list[Run]:
        return [r for r in self.runs if r.name == name]

    def parent(self, run: Run) -> Run | None:
        return next((r for r in self.runs if r.id == run.parent_run_id), None)

    def model_calls(self, name: str) -> list[Run]:
        """Structured model calls (tagged 'dmem' by the caller) of one stage."""
        return [r for r in self.named(name) if "dmem" in (r.tags or [])]


_tracer_var: ContextVar[RunTracer | None] = ContextVar("dmem_test_tracer", default=None)
register_configure_hook(_tracer_var, inheritable=True)


@contextmanager
def traced() -> Iterator[RunTracer]:
    tracer = RunTracer()
    token = _tracer_var.set(tracer)
    try:
        yield tracer
    finally:
        _tracer_var.reset(token)


def metadata(run: Run) -> dict[str, Any]:
    return dict((run.extra or {}).get("metadata") or {})


@pytest.fixture
def seeded(fake: FakeChatModel, memory_factory: Any) -> Any:
    mem = memory_factory(fake)
    mem.add(conversation(10), user_id="u1")
    return mem


def test_ask_run_tree_through_full_deliberation(seeded: Any, fake: FakeChatModel) -> None:
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": FAIL}])
    with traced() as tracer:
        ans = seeded.ask("When did Maya go to the baking workshop?", user_id="u1")
    assert ans.route == "deliberation"

    (root,) = [r for r in tracer.runs if r.parent_run_id is None]
    assert root.name == "dmem.ask"
    assert {"dmem:ask", "policy:quality"} <= set(root.tags or [])
    for node in ("retrieve", "answer", "quality_gate", "deliberate", "plan_chunks", "deliberate_chunk",
                 "reduce_facts", "answer_from_facts", "adopt_deliberation"):
        assert tracer.named(node), f"no run for node {node}"
    assert not tracer.named("finish") and not tracer.named("no_memory")
    (sub,) = tracer.named("dmem_full_deliberation")
    assert tracer.parent(sub).name == "deliberate"  # type: ignore[union-attr]

    # Structured calls are named by stage and nest under the node that made them.
    for stage, node in (("answer", "answer"), ("quality_gate", "quality_gate"), ("read_chunk", "deliberate_chunk")):
        calls = tracer.model_calls(stage)
        assert calls, f"no structured call named {stage!r}"
        assert tracer.parent(calls[0]).name == node  # type: ignore[union-attr]
    assert {"dmem", "query", "quality_gate"} <= set(tracer.model_calls("quality_gate")[0].tags or [])
    assert {"dmem", "deliberation", "read_chunk"} <= set(tracer.model_calls("read_chunk")[0].tags or [])

    # Tags and the namespace are inherited by every run of the tree.
    for run in tracer.runs:
        assert "policy:quality" in (run.tags or []), run.name
        assert metadata(run).get("namespace") == "u1", run.name
        assert run.trace_id == root.trace_id


def test_query_graph_with_config_callbacks(seeded: Any, fake: FakeChatModel) -> None:
    tracer = RunTracer()
    ctx = seeded.context.with_overrides(gate_policy="never")
    out = seeded.query_graph.invoke({"question": "When?", "namespaces": ["u1"]}, context=ctx,
                             config={"callbacks": [tracer], "tags": ["host:test"], "metadata": {"namespace": "u1"}})
    assert out["route"] == "system1"
    (root,) = [r for r in tracer.runs if r.parent_run_id is None]
    assert root.name == "dmem_query"
    nodes = [r.name for r in tracer.runs if tracer.parent(r) is root]
    assert [n for n in nodes if not n.startswith("route_")] == ["read_question", "retrieve", "answer", "finish"]
    assert tracer.model_calls("answer") and not tracer.model_calls("quality_gate")
    assert all("host:test" in (r.tags or []) for r in tracer.runs)


@pytest.mark.parametrize("completeness, route", [(PASS, "system1"), (FAIL, "deliberation")])
def test_route_taken_is_tagged(seeded: Any, fake: FakeChatModel, completeness: dict[str, Any], route: str) -> None:
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": completeness}])
    with traced() as tracer:
        ans = seeded.ask("When?", user_id="u1")
    assert ans.route == route
    assert any(f"route:{route}" in (r.tags or []) or metadata(r).get("route") == route for r in tracer.runs)


@pytest.fixture
def no_langsmith_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for ns in ("LANGSMITH", "LANGCHAIN"):
        for key in ("TRACING", "TRACING_V2", "API_KEY", "ENDPOINT", "PROJECT"):
            monkeypatch.delenv(f"{ns}_{key}", raising=False)
    langsmith.utils.get_env_var.cache_clear()  # langsmith caches environment lookups
    yield
    langsmith.utils.get_env_var.cache_clear()


def test_nothing_is_sent_without_langsmith_env(seeded: Any, fake: FakeChatModel, no_langsmith_env: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert langsmith.utils.tracing_is_enabled() is False
    created: list[str] = []
    connects: list[Any] = []

    def no_client(self: Any, *args: Any, **kwargs: Any) -> None:
        created.append(type(self).__name__)
        raise AssertionError("a LangSmith client was created")

    monkeypatch.setattr(langsmith.Client, "__init__", no_client)
    monkeypatch.setattr(LangChainTracer, "__init__", no_client)
    monkeypatch.setattr(socket.socket, "connect", lambda self, addr: connects.append(addr))
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": FAIL}])
    with traced() as tracer:
        ans = seeded.ask("When?", user_id="u1")
    assert ans.route == "deliberation" and tracer.named("deliberate_chunk")  # the run really was traced
    assert created == [] and connects == []


def test_tracing_check_follows_the_environment(no_langsmith_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Control for the test above: the same check turns True once LANGSMITH_TRACING is set."""
    monkeypatch.setenv("LANGSMITH_TRACING", "true")
    langsmith.utils.get_env_var.cache_clear()
    assert langsmith.utils.tracing_is_enabled() is True


def test_memory_passes_the_callers_config_to_the_graphs(seeded: Any, fake: FakeChatModel) -> None:
    fake.set_script("QualityGateVerdict", [{"relevance": PASS, "faithfulness": PASS, "completeness": FAIL}])
    tracer = RunTracer()
    config = {"callbacks": [tracer], "tags": ["host:agent"], "metadata": {"session": "s-42"},
              "run_name": "host.memory_lookup"}
    ans = seeded.ask("When?", user_id="u1", config=config)
    (root,) = [r for r in tracer.runs if r.parent_run_id is None]
    assert root.name == "host.memory_lookup"
    assert {"host:agent", "dmem:ask", "policy:quality"} <= set(root.tags or [])
    assert metadata(root)["session"] == "s-42" and metadata(root)["namespace"] == "u1"
    # The route and the gate's verdict are on the root run: outputs and metadata.
    assert root.outputs and root.outputs["route"] == ans.route == "deliberation"
    assert root.outputs["gate"]["passed"] is False
    assert (metadata(root)["route"], metadata(root)["gate_passed"]) == ("deliberation", False)
    assert any("completeness: fail" in r for r in metadata(root)["gate_reasons"])
    assert not [r.name for r in tracer.runs if r.name.startswith("route_")]  # routers are not traced

    tracer = RunTracer()
    seeded.add(conversation(2, conv="c2"), user_id="u1", config={"callbacks": [tracer], "tags": ["host:agent"]})
    (root,) = [r for r in tracer.runs if r.parent_run_id is None]
    assert root.name == "dmem.ingest" and "host:agent" in (root.tags or [])
