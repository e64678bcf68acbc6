"""dmem's graphs under a real LangGraph API server (``langgraph dev``), driven with ``langgraph_sdk``, offline.

The server runs from this venv on a free loopback port, with a temporary store given through the
environment. Every HTTP(S) proxy variable points at a recording proxy on loopback, so any attempt to
reach the internet is seen (and fails, as it would offline). The server is stopped at the end, also
when a test fails.
"""

from __future__ import annotations

import http.server
import os
import re
import signal
import socket
import socketserver
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient

pytestmark = pytest.mark.server  # every test here talks to a real `langgraph dev`

ROOT = Path(__file__).resolve().parents[1]
EXCHANGE = [{"role": "user", "content": "I adopted a beagle named Rex last week."},
            {"role": "assistant", "content": "Congratulations!"}]
GREETING = [{"role": "user", "content": "Hi there!"}, {"role": "assistant", "content": "Hello! How can I help?"}]
POLICIES = ["quality", "majority", "consensus", "never", "always"]
READY_SECONDS = 180  # a deadline for start-up on a busy machine, not a timing assertion
pytestmark = pytest.mark.server


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Records every request a process sends through its proxy, and refuses it."""

    seen: list[str] = []

    def _refuse(self) -> None:
        self.seen.append(f"{self.command} {self.path}")
        self.send_response(502)
        self.end_headers()

    do_GET = do_POST = do_PUT = do_HEAD = do_CONNECT = _refuse

    def log_message(self, *args: Any) -> None:
        return


@dataclass
class Server:
    url: str
    client: SyncLangGraphClient
    log: Path
    proxied: list[str] = field(default_factory=list)

    def log_text(self) -> str:
        return re.sub(r"\x1b\[[0-9;]*m", "", self.log.read_text(encoding="utf-8", errors="replace"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(store: Path, proxy: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DMEM_", "LANGSMITH_", "LANGCHAIN_")) and "proxy" not in k.lower()}
    env.update(DMEM_STORE_DIR=str(store), DMEM_EMBEDDING_MODEL="hash", LANGGRAPH_CLI_NO_ANALYTICS="1",
               LANGGRAPH_NO_VERSION_CHECK="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env[name] = proxy
    return env


def wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Poll /ok until the server answers; fail with its log if it exits or never answers."""
    with httpx.Client(timeout=2.0, trust_env=False) as http:
        for _ in range(READY_SECONDS * 2):
            if proc.poll() is not None:
                pytest.fail(f"langgraph dev exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
            try:
                if http.get(f"{url}/ok").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            threading.Event().wait(0.5)
    pytest.fail(f"langgraph dev did not answer within {READY_SECONDS}s:\n{log.read_text()[-4000:]}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server's process group (the CLI and the API worker it started)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def dev_command(port: int, *, config: Path = ROOT / "langgraph.json", jobs: int | None = None) -> list[str]:
    """``langgraph dev`` on loopback, never with ``--allow-blocking``: a served graph must not block the loop."""
    cmd = [str(Path(sys.executable).with_name("langgraph")), "dev", "--config", str(config), "--host", "127.0.0.1",
           "--port", str(port), "--no-browser", "--no-reload"]
    return cmd if jobs is None else [*cmd, "--n-jobs-per-worker", str(jobs)]


@contextmanager
def langgraph_dev(workdir: Path, env: dict[str, str], *, config: Path = ROOT / "langgraph.json",
                  jobs: int | None = None, prefix: Sequence[str] = ()) -> Iterator[tuple[str, Path]]:
    """A running ``langgraph dev`` (its log in ``workdir/server.log``): ``(url, log)``; stopped on exit.

    ``prefix`` runs the command under a wrapper (e.g. a mount namespace).
    """
    port, log = free_port(), workdir / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*prefix, *dev_command(port, config=config, jobs=jobs)], cwd=workdir, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_ready(url, proc, log)
        yield url, log
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("langgraph-server")
    _Recorder.seen = []
    proxy = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        with langgraph_dev(tmp, server_env(tmp / "store", f"http://127.0.0.1:{proxy.server_address[1]}"),
                           jobs=8) as (url, log):
            yield Server(url, get_sync_client(url=url), log, _Recorder.seen)
    finally:
        proxy.shutdown()
        proxy.server_close()


def assistant_ids(client: SyncLangGraphClient) -> dict[str, str]:
    return {a["graph_id"]: a["assistant_id"] for a in client.assistants.search()}


def test_schemas_are_served_with_descriptions(server: Server) -> None:
    ids = assistant_ids(server.client)
    assert set(ids) == {"ingestion", "query", "deliberation"}
    for graph_id, assistant in ids.items():
        schemas = server.client.assistants.get_schemas(assistant)
        for kind in ("input_schema", "output_schema", "context_schema"):
            schema = schemas[kind]
            assert schema and schema["properties"], f"{graph_id}: {kind} is empty"
            bare = [p for p, spec in schema["properties"].items() if not spec.get("description")]
            assert bare == [], f"{graph_id}: {kind} fields without a description"
        context = schemas["context_schema"]["properties"]
        assert "api_key" not in context and "resources" not in context and "gate_policy" in context
        assert schemas["input_schema"].get("required", []) == ([] if graph_id == "ingestion" else ["question"])


def test_ingestion_then_query_stream_with_subgraphs(server: Server) -> None:
    parts = list(server.client.runs.stream(None, "ingestion", input={"messages": EXCHANGE, "user_id": "maya"},
                                           stream_mode="updates", stream_subgraphs=True))
    nodes = [node for p in parts if p.event.startswith("updates") for node in p.data]
    assert nodes[:2] == ["read_input", "record"] and "apply_operations" in nodes
    applied = next(p.data["apply_operations"] for p in parts if "apply_operations" in (p.data or {}))
    assert [op["operation"] for op in applied["operations"]] == ["ADD"] and applied["status"] == "formed"

    parts = list(server.client.runs.stream(None, "query", input={"question": "What is my dog's name?",
                                                                   "namespaces": ["maya"]},
                                           context={"gate_policy": "always"}, stream_mode=["updates", "values"],
                                           stream_subgraphs=True))
    inner = {node for p in parts if p.event.startswith("updates|deliberate:") for node in p.data}
    assert {"plan_chunks", "deliberate_chunk", "answer_from_facts"} <= inner
    final = [p.data for p in parts if p.event == "values"][-1]
    assert final["route"] == "deliberation" and final["answer"] == "Rex"


def test_concurrent_runs_with_different_contexts_share_one_store(server: Server) -> None:
    server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE, "user_id": "noor"})
    question = {"question": "What is the name of my beagle?", "namespaces": ["noor"]}
    contexts = [{"gate_policy": "never"}, {"gate_policy": "always", "chunk_size": 10}]
    runs = [server.client.runs.create(server.client.threads.create()["thread_id"], "query", input=question,
                                      context=ctx) for ctx in contexts]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda r: server.client.runs.join(r["thread_id"], r["run_id"]), runs))
    assert [r["route"] for r in results] == ["system1", "deliberation"]
    assert [r["answer"] for r in results] == ["Rex", "Rex"]
    statuses = [server.client.runs.get(r["thread_id"], r["run_id"])["status"] for r in runs]
    assert statuses == ["success", "success"]
    text = server.log_text()
    assert text.count("dmem opened the store in") == 1, "a run reopened the store"
    assert "StoreLockedError" not in text


def test_ingestion_input_metadata_labels_the_memories_of_its_namespace_only(server: Server) -> None:
    labels = {"source": "sdk", "week": 12, "verified": True}
    out = server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE, "user_id": "lena",
                                                             "metadata": labels})
    assert out["status"] == "formed"
    server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE, "user_id": "omar"})
    for user, expected in [("lena", labels), ("omar", {})]:
        found = server.client.runs.wait(None, "query", input={"question": "What is my dog's name?",
                                                                "namespaces": [user]})
        assert found["memories"] and [m["metadata"] for m in found["memories"]] == [expected] * len(found["memories"])


def test_query_input_metadata_answers_from_memories_and_turns_of_that_label_only(server: Server) -> None:
    moved = [{"role": "user", "content": "I moved to Lisbon last spring."},
             {"role": "assistant", "content": "Lovely city!"}]
    server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE, "user_id": "sana",
                                                      "metadata": {"source": "chat"}})
    server.client.runs.wait(None, "ingestion", input={"messages": moved, "user_id": "sana",
                                                      "metadata": {"source": "mail"}})
    question = {"question": "What is my dog's name?", "namespaces": ["sana"]}
    both = server.client.runs.wait(None, "query", input=question, context={"gate_policy": "always"})
    assert both["route"] == "deliberation" and both["answer"] == "Rex"
    mail = server.client.runs.wait(None, "query", input={**question, "metadata": {"source": "mail"}},
                                   context={"gate_policy": "always"})
    assert mail["route"] == "deliberation" and "Rex" not in mail["answer"]
    assert mail["memories"] and all(m["metadata"] == {"source": "mail"} for m in mail["memories"])
    assert not any("Rex" in f["fact"] or "beagle" in f["fact"] for f in mail["facts_used"])
    with pytest.raises(Exception, match="InputError: input field 'metadata': metadata 'tags' is a list"):
        server.client.runs.wait(None, "query", input={**question, "metadata": {"tags": ["a"]}})


def test_bad_input_and_bad_settings_name_the_field(server: Server) -> None:
    with pytest.raises(Exception, match="InputError: input field 'question'"):
        server.client.runs.wait(None, "query", input={"q": "x"})
    with pytest.raises(Exception, match="'messages'"):
        server.client.runs.wait(None, "ingestion", input={"messages": [{"q": 1}]})
    with pytest.raises(Exception, match="InputError: input field 'metadata': metadata 'tags' is a list"):
        server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE, "metadata": {"tags": ["a"]}})
    with pytest.raises(Exception, match="ConfigError: setting 'gate_policy' must be one of"):
        server.client.runs.wait(None, "query", input={"question": "x"}, context={"gate_policy": "bogus"})


def test_the_store_came_from_the_environment_and_nothing_went_online(server: Server) -> None:
    text = server.log_text()
    store = re.search(r"dmem opened the store in (\S+)", text)
    assert store is not None and store.group(1).endswith("/store")
    assert "settings from the environment (DMEM_*)" in text
    assert server.proxied == [], f"the server tried to reach the internet: {server.proxied}"


def test_the_server_froze_its_start_up_heap_once(server: Server) -> None:
    server.client.runs.wait(None, "query", input={"question": "Anything?", "namespaces": ["nobody"]})
    froze = re.findall(r"froze (\d+) start-up objects", server.log_text())
    assert len(froze) == 1 and int(froze[0]) > 100_000, \
        "dmem.server's first factory call freezes the served process's start-up heap, once (dmem.runtime)"


def test_a_stateless_resend_records_nothing_twice(server: Server) -> None:
    from dmem.store import open_store

    send = {"messages": EXCHANGE, "user_id": "ines"}
    statuses = [server.client.runs.wait(None, "ingestion", input=send)["status"] for _ in range(2)]
    assert statuses == ["formed", "duplicate"]  # each stateless run has a new thread
    keyed = {**send, "idempotency_key": "ines-send-7"}
    statuses = [server.client.runs.wait(None, "ingestion", input=keyed)["status"] for _ in range(2)]
    assert statuses == ["formed", "duplicate"]  # a key names a send of its own, recognised when resent
    store = open_store(server.log.parent / "store", dim=None, read_only=True)
    try:
        assert store.transcript.count("ines") == 4
    finally:
        store.close()


@pytest.mark.parametrize("policy", POLICIES)
def test_a_new_user_is_answered_under_every_gate_policy(server: Server, policy: str) -> None:
    question = {"question": "Anything about me?", "namespaces": [f"new-{policy}"]}
    out = server.client.runs.wait(None, "query", input=question, context={"gate_policy": policy})
    assert out["route"] == "no_memory", out
    assert "BlockingError" not in server.log_text()


def test_a_transcript_only_user_deliberates_under_every_gate_policy(server: Server) -> None:
    recorded = server.client.runs.wait(None, "ingestion", input={"messages": GREETING, "user_id": "quiet"})
    assert recorded["status"] == "nothing_admitted"
    for policy in POLICIES:
        out = server.client.runs.wait(None, "query", input={"question": "What did I say?", "namespaces": ["quiet"]},
                                      context={"gate_policy": policy})
        assert out["route"] == ("no_memory" if policy == "never" else "deliberation"), (policy, out)
    assert "BlockingError" not in server.log_text()


@pytest.mark.parametrize("policy", POLICIES)
def test_a_user_with_memories_is_answered_under_every_gate_policy(server: Server, policy: str) -> None:
    server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE, "user_id": f"pet-{policy}"})
    out = server.client.runs.wait(None, "query", input={"question": "What is my dog's name?",
                                                         "namespaces": [f"pet-{policy}"]},
                                  context={"gate_policy": policy})
    expected = {"never": {"system1"}, "always": {"deliberation"}}.get(policy, {"system1", "deliberation"})
    assert out["answer"] == "Rex" and out["route"] in expected
    assert policy in ("never", "always") or out["gate"]["policy"] == policy  # the gate ran, and said why


def test_a_run_context_user_id_is_whose_memory_it_is(server: Server) -> None:
    out = server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE}, context={"user_id": "kim"})
    assert out["status"] == "formed"
    kim = server.client.runs.wait(None, "query", input={"question": "What is my dog's name?"},
                                  context={"user_id": "kim"})
    assert kim["memories"] and {m["namespace"] for m in kim["memories"]} == {"kim"}
    default = server.client.runs.wait(None, "query", context={"gate_policy": "never"},
                                      input={"question": "What is my dog's name?", "namespaces": ["default"]})
    assert default["memories"] == []


def test_an_unknown_context_key_is_the_in_process_config_error(server: Server) -> None:
    with pytest.raises(Exception, match=r"ConfigError: unknown setting\(s\) in context: gate_polcy"):
        server.client.runs.wait(None, "query", input={"question": "x"}, context={"gate_polcy": "never"})
    with pytest.raises(Exception, match="ConfigError: setting 'user_id': .* contains control characters"):
        server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE}, context={"user_id": "a\x01b"})


def test_two_ingestion_runs_on_one_thread(server: Server) -> None:
    thread = server.client.threads.create()["thread_id"]
    turns = [{"conversation_id": "c9", "turn_id": "c9-1", "speaker": "Ivo", "text": "I play the cello."}]
    first = server.client.runs.wait(thread, "ingestion", input={"turns": turns, "user_id": "ivo",
                                                                "metadata": {"source": "form"}})
    assert first["status"] == "formed"
    second = server.client.runs.wait(thread, "ingestion", input={"messages": EXCHANGE})
    assert second["status"] == "formed", second
    third = server.client.runs.wait(thread, "ingestion", input={"messages": EXCHANGE + GREETING})
    assert third["status"] in ("formed", "nothing_admitted"), third
    state = server.client.threads.get_state(thread)["values"]
    assert state.get("turns") is None and state.get("messages") is None and state.get("user_id") is None
    found = server.client.runs.wait(None, "query", input={"question": "What is my dog's name?", "namespaces": [thread]},
                                    context={"gate_policy": "never"})
    ivo = server.client.runs.wait(None, "query", input={"question": "What is my dog's name?", "namespaces": ["ivo"]},
                                  context={"gate_policy": "never"})
    assert found["memories"] == [] and all(m["metadata"] == {"source": "form"} for m in ivo["memories"])
    default = server.client.runs.wait(None, "query", context={"gate_policy": "never"},
                                      input={"question": "What is my dog's name?", "namespaces": ["default"]})
    assert any("Rex" in m["text"] for m in default["memories"])  # the second run's user: 'default', not 'ivo'
    assert all(m["metadata"] == {} for m in default["memories"])  # nor the first run's labels


def test_fifty_concurrent_queries(server: Server) -> None:
    server.client.runs.wait(None, "ingestion", input={"messages": EXCHANGE, "user_id": "many"})
    question = {"question": "What is my dog's name?", "namespaces": ["many"]}
    newcomer = {"question": "Anything about me?", "namespaces": ["nobody-yet"]}
    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(lambda i: server.client.runs.wait(None, "query", input=newcomer if i % 5 == 0
                                                                  else question), range(50)))
    assert [r["route"] == "no_memory" for r in results] == [i % 5 == 0 for i in range(50)]
    assert all(r["answer"] == "Rex" for i, r in enumerate(results) if i % 5)  # System 1 or after deliberating
    text = server.log_text()
    assert "BlockingError" not in text and text.count("dmem opened the store in") == 1
