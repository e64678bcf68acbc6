"""What really leaves in LangSmith traces: a real HTTP collector on loopback records every request.

The LangSmith client is pointed at the collector (``LANGSMITH_ENDPOINT``, a dummy key,
``LANGSMITH_TRACING=true``) and flushed before each assertion. The conversation holds a phone
number, an e-mail address, a street address and a PIN; with ``trace_redaction="pii"`` none of
them may appear anywhere in what was sent, with ``"off"`` all of them do.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import langsmith
import langsmith.utils
import pytest
from langchain_core.messages import BaseMessage
from langchain_core.tracers.langchain import LangChainTracer, wait_for_all_tracers

from dmem.api import Memory
from dmem.testing import FakeChatModel
from dmem.tracing import TraceClients, configure_tracing
from tests.collector import Collector
from tests.conftest import default_script, last_section, scope_all

PERSONAL = {"phone": "555-867-5309", "e-mail": "maya.lind@example.com", "address": "42 Elm Street",
            "PIN": "482913"}
SECRET_MEMORY = "seeing someone new"  # no detector finds it: only the model scopes it USER_PII
TURNS = [
    {"speaker": "Maya", "text": "I finished my first watercolor of the harbour."},
    {"speaker": "assistant", "text": "Lovely!"},
    {"speaker": "Maya", "text": "Call me at 555-867-5309 or write to maya.lind@example.com."},
    {"speaker": "assistant", "text": "Noted."},
    {"speaker": "Maya", "text": "I moved to 42 Elm Street last month."},
    {"speaker": "assistant", "text": "Congratulations on the move."},
    {"speaker": "Maya", "text": "My bank PIN is 482913, please remember it."},
    {"speaker": "assistant", "text": "I will keep it safe."},
    {"speaker": "Maya", "text": f"Between us, I am {SECRET_MEMORY}."},
    {"speaker": "assistant", "text": "Your secret is safe."},
]


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def count(text: str, needle: str) -> int:
    """Occurrences of a needle not glued to other digits or letters, outside run ids.

    A run id is a UUID7 whose groups are four hex digits between dashes: a 4-digit code ("7714") is one
    of them about once in 4,096 ids, so ids are taken out before counting (a PIN inside an id is not it).
    """
    return len(re.findall(rf"(?<![0-9A-Za-z]){re.escape(needle)}(?![0-9A-Za-z])", _UUID.sub(" ", text)))


def scope_secret(messages: list[BaseMessage]) -> dict[str, Any]:
    """The model's labels: the confided fact is USER_PII, the rest EXTERNAL (so the graph must override)."""
    lines = [ln for ln in last_section(messages, "facts").splitlines() if re.match(r"^\d+\. ", ln)]
    labels = scope_all(messages, scope="EXTERNAL", enrich=True)["labels"]
    for label, line in zip(labels, lines, strict=False):
        if SECRET_MEMORY in line:
            label["scope"] = "USER_PII"
    return {"labels": labels}


@pytest.fixture
def collector(langsmith_collector: Collector, monkeypatch: pytest.MonkeyPatch) -> Iterator[Collector]:
    """The loopback collector with tracing on, for this project."""
    monkeypatch.setenv("LANGSMITH_TRACING", "true")
    monkeypatch.setenv("LANGSMITH_PROJECT", "dmem-tests")
    langsmith.utils.get_env_var.cache_clear()
    langsmith.configure(client=None)  # the process-wide client is rebuilt from this environment
    yield langsmith_collector
    wait_for_all_tracers()
    langsmith.configure(client=None)


@pytest.fixture
def fake() -> FakeChatModel:
    script = default_script()
    script["ScopeLabels"] = scope_secret
    script["AnswerDraft"] = [{"reasoning": "memory 2", "answer": "555-867-5309"}]  # a reply with personal data
    return FakeChatModel(script=script)


def converse(memory_factory: Any, fake: FakeChatModel, mode: str) -> Memory:
    mem: Memory = memory_factory(fake, trace_redaction=mode)
    mem.add(TURNS, user_id="maya")
    answer = mem.ask("What is Maya's phone number?", user_id="maya")
    assert answer.route == "system1"
    mem.tracing.flush()
    return mem


def trace_of(runs: dict[str, dict[str, Any]], root_name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The one root run with this name and every run of its trace."""
    (root,) = [r for r in runs.values() if r.get("name") == root_name and not r.get("parent_run_id")]
    return root, [r for r in runs.values() if r.get("trace_id") == root["trace_id"]]


def test_pii_redaction_sends_no_personal_data(collector: Collector, memory_factory: Any,
                                              fake: FakeChatModel) -> None:
    mem = converse(memory_factory, fake, "pii")
    sent = collector.bodies()
    assert {name: count(sent, value) for name, value in PERSONAL.items()} == dict.fromkeys(PERSONAL, 0)
    assert "[redacted: phone number]" in sent and "[redacted: PIN or code]" in sent
    assert "watercolor" in sent  # what is not personal still helps debugging
    assert mem.get_all(user_id="maya")  # the memories themselves are kept, only traces are redacted

    root, ask_runs = trace_of(collector.runs(), "dmem.ask")
    ask_sent = json.dumps(ask_runs)
    assert SECRET_MEMORY not in ask_sent and "[redacted: personal memory]" in ask_sent
    scoped = [m for m in mem.get_all(user_id="maya") if SECRET_MEMORY in m.text]
    assert scoped and scoped[0].scope == "USER_PII"


def test_off_sends_the_same_personal_data(collector: Collector, memory_factory: Any, fake: FakeChatModel) -> None:
    """The control: the same conversation, unredacted, does carry every piece of personal data."""
    converse(memory_factory, fake, "off")
    wait_for_all_tracers()  # 'off' traces through the default, process-wide client
    sent = collector.bodies()
    assert all(count(sent, value) > 0 for value in PERSONAL.values())
    _, ask_runs = trace_of(collector.runs(), "dmem.ask")
    assert SECRET_MEMORY in json.dumps(ask_runs)


def test_run_tree_has_route_and_gate_on_the_root_and_no_router_runs(collector: Collector, memory_factory: Any,
                                                                      fake: FakeChatModel) -> None:
    converse(memory_factory, fake, "pii")
    runs = collector.runs()
    root, ask_runs = trace_of(runs, "dmem.ask")
    assert root["outputs"]["route"] == "system1" and root["outputs"]["gate"]["passed"] is True
    meta = root["extra"]["metadata"]
    assert (meta["route"], meta["gate_policy"], meta["gate_passed"]) == ("system1", "quality", True)
    assert len(meta["gate_reasons"]) == 3 and meta["namespace"] == "maya"
    children = {r["name"] for r in ask_runs if r.get("parent_run_id") == root["id"]}
    assert children == {"read_question", "retrieve", "answer", "quality_gate", "finish"}
    by_id = {r["id"]: r for r in ask_runs}
    calls = [r for r in ask_runs if r["name"] == "quality_gate" and r.get("parent_run_id") != root["id"]]
    assert calls and by_id[calls[0]["parent_run_id"]]["name"] == "quality_gate"  # the model call nests in its node
    assert not [r["name"] for r in runs.values() if r["name"].startswith("route_")]
    ingest_roots = [r for r in runs.values() if r["name"] == "dmem.ingest" and not r.get("parent_run_id")]
    assert len(ingest_roots) == len(TURNS) // 2


def test_all_sends_no_conversation_text(collector: Collector, memory_factory: Any, fake: FakeChatModel) -> None:
    converse(memory_factory, fake, "all")
    sent = collector.bodies()
    for word in [*PERSONAL.values(), "watercolor", "harbour", SECRET_MEMORY, "Maya", "maya", "phone number"]:
        assert count(sent, word) == 0, word
    root, _ = trace_of(collector.runs(), "dmem.ask")
    assert root["extra"]["metadata"]["route"] == "system1" and not root.get("outputs")


def test_graphs_invoked_directly_with_trace_clients(collector: Collector, memory_factory: Any,
                                                    fake: FakeChatModel) -> None:
    mem = converse(memory_factory, fake, "pii")
    tracing = TraceClients()
    config = tracing.config("pii", {"run_name": "host.recall", "tags": ["host"]})
    out = mem.query_graph.invoke({"question": "What is Maya's phone number?", "namespaces": ["maya"]},
                                 config=config)
    tracing.flush()
    assert out["answer"] == "555-867-5309"
    root, runs = trace_of(collector.runs(), "host.recall")
    sent = json.dumps(runs)
    assert all(count(sent, value) == 0 for value in PERSONAL.values()) and SECRET_MEMORY not in sent
    assert root["extra"]["metadata"]["route"] == "system1" and "host" in root["tags"]


def test_a_tracer_passed_by_the_caller_is_redacted_too(collector: Collector, memory_factory: Any,
                                                       fake: FakeChatModel, monkeypatch: pytest.MonkeyPatch) -> None:
    mem = converse(memory_factory, fake, "pii")
    monkeypatch.setenv("LANGSMITH_TRACING", "false")  # only the caller's own tracer traces now
    langsmith.utils.get_env_var.cache_clear()
    own = LangChainTracer(project_name="host-project", client=langsmith.Client(api_url=collector.url, api_key="k"))
    mem.ask("What is Maya's phone number?", user_id="maya",
            config={"callbacks": [own], "run_name": "host.ask", "metadata": {"host": "yes"}, "tags": ["mine"]})
    mem.tracing.flush()
    root, runs = trace_of(collector.runs(), "host.ask")
    sent = json.dumps(runs)
    assert all(count(sent, value) == 0 for value in PERSONAL.values())
    assert root["session_name"] == "host-project" and {"mine", "dmem:ask"} <= set(root["tags"])
    assert root["extra"]["metadata"]["host"] == "yes"


def test_configure_tracing_redacts_process_wide_as_the_served_module_does(collector: Collector, memory_factory: Any,
                                                                        fake: FakeChatModel) -> None:
    mem = converse(memory_factory, fake, "pii")
    client = configure_tracing("pii")
    assert client is not None
    mem.query_graph.invoke({"question": "What is Maya's phone number?", "namespaces": ["maya"]})
    wait_for_all_tracers()
    root, runs = trace_of(collector.runs(), "dmem_query")
    sent = json.dumps(runs)
    assert all(count(sent, value) == 0 for value in PERSONAL.values()) and SECRET_MEMORY not in sent
    assert root["extra"]["metadata"]["route"] == "system1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop the server we started, and whatever it started (its own process group)."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@pytest.mark.server
def test_langgraph_dev_server_sends_redacted_traces(collector: Collector, tmp_path: Path) -> None:
    """A real ``langgraph dev`` serving langgraph.json, traced into the collector, with DMEM_TRACE_REDACTION=pii."""
    from langgraph_sdk import get_sync_client

    port = free_port()
    env = {**os.environ, "DMEM_TRACE_REDACTION": "pii", "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "langgraph_cli", "dev", "--port", str(port), "--no-browser",
                               "--no-reload"], cwd=Path(__file__).resolve().parents[1], env=env,
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        client = get_sync_client(url=f"http://127.0.0.1:{port}")
        for _ in range(600):  # readiness, not a timing assertion: the server imports torch and dmem first
            if server.poll() is not None:
                break
            try:
                client.assistants.search()
                break
            except Exception:
                time.sleep(0.5)
        assert server.poll() is None, (tmp_path / "server.log").read_text()
        question = f"Is {PERSONAL['phone']} still the number of {PERSONAL['e-mail']}?"
        out = client.runs.wait(None, "query", input={"question": question, "namespaces": ["maya"]},
                               context={"store_dir": str(tmp_path / "store"), "embedding_model": "hash"})
        assert isinstance(out, dict) and out["route"] == "no_memory"
    finally:
        stop(server)
        log.close()
    root, _ = trace_of(collector.runs(), "dmem_query")
    assert root["extra"]["metadata"]["route"] == "no_memory"
    sent = collector.bodies()
    assert "[redacted: phone number, e-mail address]" in sent
    assert all(count(sent, value) == 0 for value in PERSONAL.values())


def test_count_finds_a_code_but_not_a_run_id_group_that_spells_it() -> None:
    sent = '{"id": "019ae3f2-7714-7abc-8def-0123456789ab", "text": "the code is 7714", "n": "77140"}'
    assert count(sent, "7714") == 1
