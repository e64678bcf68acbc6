"""langgraph.json's ``"store"`` entry under a real ``langgraph dev``: a developer's agent served beside dmem's graphs.

The agent (examples/store_agent.py) only knows ``runtime.store``; with the entry pointing at
``dmem.langgraph_store.platform.dmem_store`` what it writes are dmem memories, what dmem's ingestion
graph formed is what it finds, and the server's own ``/store`` API reads the same memories.
"""

from __future__ import annotations

import json
import socketserver
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from dmem.api import Memory
from dmem.state.schemas import Operation
from tests.test_langgraph_server import EXCHANGE, ROOT, Server, _Recorder, langgraph_dev, server_env

pytestmark = pytest.mark.server


@pytest.fixture(scope="module", params=["local", pytest.param("postgres", marks=pytest.mark.postgres)])
def served(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any]]]:
    """A langgraph dev serving dmem's ingestion graph and the note agent with dmem as its store, on each backend."""
    tmp = tmp_path_factory.mktemp("store-server")
    where: dict[str, Any] = {"path": tmp / "store"}
    if request.param == "postgres":
        where["store_url"] = request.getfixturevalue("postgres_server").fresh_url()
    config = {"python_version": "3.11", "dependencies": [str(ROOT)],
              "graphs": {"ingestion": "dmem.server:ingestion_graph",
                         "note_agent": f"{ROOT / 'examples' / 'store_agent.py'}:graph"},
              "store": {"path": "dmem.langgraph_store.platform.dmem_store"}}
    (tmp / "langgraph.json").write_text(json.dumps(config), encoding="utf-8")
    _Recorder.seen = []
    proxy = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    env = server_env(tmp / "store", f"http://127.0.0.1:{proxy.server_address[1]}")
    if "store_url" in where:
        env["DMEM_STORE_URL"] = where["store_url"]
    try:
        with langgraph_dev(tmp, env, config=tmp / "langgraph.json") as (url, log):
            yield Server(url=url, client=get_sync_client(url=url), log=log, proxied=_Recorder.seen), where
    finally:
        proxy.shutdown()


def run(server: Server, graph: str, payload: dict[str, Any]) -> dict[str, Any]:
    thread = server.client.threads.create()
    out = server.client.runs.wait(thread["thread_id"], graph, input=payload)
    assert isinstance(out, dict), f"{graph} failed: {out}\n{server.log_text()[-3000:]}"
    return out


def test_a_served_agent_reads_and_writes_dmem_memory_through_runtime_store(served: tuple[Server, dict[str, Any]]
                                                                          ) -> None:
    server, where = served
    wrote = run(server, "note_agent", {"user_id": "maya", "note": "Maya keeps bees on the roof", "query": "bees"})
    assert wrote["found"] == ["Maya keeps bees on the roof"]
    again = run(server, "note_agent", {"user_id": "maya", "query": "what does Maya keep on the roof"})
    assert again["found"] == ["Maya keeps bees on the roof"]  # another thread, the same long-term memory
    assert run(server, "note_agent", {"user_id": "theo", "query": "bees roof"})["found"] == []

    run(server, "ingestion", {"messages": EXCHANGE, "user_id": "theo"})
    found = run(server, "note_agent", {"user_id": "theo", "query": "beagle named Rex"})["found"]
    assert any("Rex" in text for text in found)  # what dmem formed is what the agent's store finds

    items = server.client.store.search_items(["memories", "maya"], query="bees")["items"]
    assert [(i["value"]["content"], i["value"]["source"]) for i in items] == [
        ("Maya keeps bees on the roof", "note_agent")]
    assert server.proxied == []
    assert server.log_text().count("dmem opened the store in") == 1  # the graphs and the store share one handle

    with Memory(where["path"], embeddings="hash", store_url=where.get("store_url"), read_only=True) as mem:
        [record] = mem.get_all(user_id="maya")
        assert record.text == "Maya keeps bees on the roof" and record.metadata["source"] == "note_agent"
        [added] = mem.history(record.id, user_id="maya")
        assert added.operation == Operation.ADD and "LangGraph store" in added.reason
