"""Two users with the same conversation ids, turn ids and file names never see or touch each other's data.

Every path: the Python API, both graphs invoked directly, export/import, and the CLI as a process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dmem.errors import DataError, NotFoundError, StoreError
from dmem.state.context import Context
from dmem.state.schemas import Message

ROOT = Path(__file__).resolve().parents[1]
ALICE = [{"speaker": "Ines", "text": "I live in Lisbon near the old tram stop.", "turn_id": "t0",
          "timestamp": "2024-03-04T09:00:00"},
         {"speaker": "assistant", "text": "Lisbon sounds lovely.", "turn_id": "t1", "timestamp": "2024-03-04T09:01:00"}]
BOB = [{"speaker": "Ravi", "text": "I live in Oslo by the fjord.", "turn_id": "t0", "timestamp": "2024-03-05T10:00:00"},
       {"speaker": "assistant", "text": "Oslo must be cold.", "turn_id": "t1", "timestamp": "2024-03-05T10:01:00"}]


def texts(messages: list[Message]) -> list[str]:
    return [m.text for m in messages]


@pytest.fixture
def two_users(fake: Any, memory_factory: Any) -> Any:
    mem = memory_factory(fake)
    alice = mem.add(ALICE, user_id="alice", conversation_id="chat")
    bob = mem.add(BOB, user_id="bob", conversation_id="chat")  # same conversation and turn ids
    assert [ex.status for ex in alice.exchanges + bob.exchanges] == ["formed", "formed"]
    return mem


def test_same_ids_are_two_conversations(two_users: Any) -> None:
    mem = two_users
    assert texts(mem.transcript(user_id="bob")) == [m["text"] for m in BOB]
    assert texts(mem.transcript(user_id="alice")) == [m["text"] for m in ALICE]
    assert all("Oslo" in m.text for m in mem.get_all(user_id="bob"))
    assert mem.search("Lisbon tram stop", user_id="bob")[0].memory.namespace == "bob"
    again = mem.add(BOB, user_id="bob", conversation_id="chat")
    assert [ex.status for ex in again.exchanges] == ["duplicate"]


def test_asking_one_user_reads_only_that_users_transcript(two_users: Any, fake: Any) -> None:
    answer = two_users.ask("Where does the user live?", user_id="bob", gate_policy="always")
    chunks = " ".join(c.prompt for c in fake.calls_for("ChunkFacts"))
    assert answer.route == "deliberation" and "Oslo" in chunks and "Lisbon" not in chunks


def test_a_conversation_id_inside_a_message_stays_in_the_callers_namespace(two_users: Any) -> None:
    mem = two_users
    sneaky = {"speaker": "Ravi", "text": "What did the other user say?", "turn_id": "t9", "conversation_id": "chat"}
    mem.add([sneaky], user_id="bob")
    assert texts(mem.transcript(user_id="alice")) == [m["text"] for m in ALICE]
    assert "What did the other user say?" in texts(mem.transcript(user_id="bob"))
    with pytest.raises(DataError, match="turn 't0' of conversation 'chat' in namespace 'bob'"):
        mem.add([{**ALICE[0], "conversation_id": "chat"}], user_id="bob")  # bob's t0, other text: refused


def test_by_id_calls_refuse_another_users_memory_like_an_unknown_id(two_users: Any) -> None:
    mem = two_users
    [secret] = [m for m in mem.get_all(user_id="alice") if "Lisbon" in m.text][:1]
    for call in (mem.get, mem.history, mem.delete):
        with pytest.raises(NotFoundError) as theirs:
            call(secret.id, user_id="bob")
        with pytest.raises(NotFoundError) as unknown:
            call("no-such-id", user_id="bob")
        assert str(theirs.value) == str(unknown.value).replace("no-such-id", secret.id)
    assert mem.get(secret.id, user_id="alice") == secret
    assert len(mem.history(secret.id, user_id="alice")) == 1


def test_retry_forms_each_users_turns_in_their_own_namespace(fake: Any, memory_factory: Any) -> None:
    fake.set_script("FactDrafts", [ConnectionError("provider down")])
    mem = memory_factory(fake, retry_backoff=0)  # the provider retries run at once: no backoff sleeps
    mem.add(ALICE, user_id="alice", conversation_id="chat")
    mem.add(BOB, user_id="bob", conversation_id="chat")
    assert len(mem.pending(user_id="alice")) == 2 and len(mem.pending(user_id="bob")) == 2
    from tests.conftest import split_each

    fake.set_script("FactDrafts", split_each)
    assert {t for ex in mem.retry_pending(user_id="bob").exchanges for t in ex.turn_ids} == {"t0", "t1"}
    assert mem.get_all(user_id="alice") == [] and len(mem.pending(user_id="alice")) == 2
    assert {m.namespace for m in mem.get_all(user_id="bob")} == {"bob"}
    mem.retry_pending(user_ids=["alice"])
    assert all("Lisbon" in m.text or "Ines" in m.text for m in mem.get_all(user_id="alice"))


def test_both_graphs_invoked_directly_keep_users_apart(fake: Any, memory_factory: Any) -> None:
    mem = memory_factory(fake)
    for user, turns in (("alice", ALICE), ("bob", BOB)):
        messages = [Message(conversation_id="chat", turn_id=t["turn_id"], speaker=t["speaker"], text=t["text"])
                    for t in turns]
        out = mem.ingestion_graph.invoke({"turns": messages, "user_id": user})
        assert out["status"] == "formed"
    out = mem.query_graph.invoke({"question": "Where does the user live?", "namespaces": ["alice"]},
                                 context=Context(gate_policy="always"))
    chunks = " ".join(c.prompt for c in fake.calls_for("ChunkFacts"))
    assert out["route"] == "deliberation" and "Lisbon" in chunks and "Oslo" not in chunks
    with pytest.raises(DataError, match="user_id must be a non-empty string"):
        mem.ingestion_graph.invoke({"turns": [], "user_id": ""})


def test_export_import_checks_namespaces_ids_and_versions(two_users: Any, fake: Any, memory_factory: Any,
                                                          tmp_path: Path) -> None:
    mem = two_users
    data = mem.export(tmp_path / "alice.json", user_id="alice")
    assert data["version"] == 3 and data["namespaces"] == ["alice"] and data["embedding"] == mem.embedding
    with pytest.raises(DataError, match=r"namespace\(s\) \['alice'\], not 'bob'"):
        mem.import_(tmp_path / "alice.json", user_id="bob")
    with pytest.raises(StoreError, match="belong to another namespace"):  # alice's ids, moved to bob
        mem.import_(tmp_path / "alice.json", user_id="bob", namespaces={"alice": "bob"})
    assert all("Oslo" in m.text or "Ravi" in m.text for m in mem.get_all(user_id="bob"))
    other = memory_factory(fake, sub="other")
    assert other.import_(tmp_path / "alice.json", user_id="alice") == len(data["memories"])
    assert [m.id for m in other.get_all(user_id="alice")] == [m.id for m in mem.get_all(user_id="alice")]
    top = other.search("Lisbon", user_id="alice")[0]
    assert top.score == pytest.approx(mem.search("Lisbon", user_id="alice")[0].score)  # the same vectors
    for bad, message in (({**data, "version": 9}, "unknown dmem export version 9"),
                         ({**data, "format": "other"}, "not a dmem export"),
                         ({**data, "embedding": "openai:text-embedding-3-small"}, "reembed=True"),
                         ({**data, "memories": [data["memories"][0]] * 2}, "twice")):
        with pytest.raises(DataError, match=message):
            other.import_(bad, user_id="alice")
    reembedded = {**data, "embedding": "openai:text-embedding-3-small", "dim": 1536}
    assert memory_factory(fake, sub="third").import_(reembedded, user_id="alice", reembed=True) == len(data["memories"])


def cli(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DMEM_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "dmem.cli", "--store", str(store), "--embeddings", "hash", *args],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.slow  # drives `python -m dmem.cli` subprocesses
def test_cli_users_with_the_same_file_name_stay_apart(tmp_path: Path) -> None:
    store = tmp_path / "store"
    for user, turns in (("alice", ALICE), ("bob", BOB)):
        (tmp_path / user).mkdir()
        (tmp_path / user / "chat.json").write_text(json.dumps(turns), encoding="utf-8")
        done = cli(store, "--json", "ingest", str(tmp_path / user / "chat.json"), "--user-id", user)
        assert done.returncode == 0, done.stderr
        [result] = json.loads(done.stdout)
        assert [ex["status"] for ex in result["exchanges"]] != ["duplicate"]
    asked = cli(store, "--json", "ask", "Where does the user live?", "--user-id", "bob", "--policy", "always")
    assert asked.returncode == 0, asked.stderr
    assert "Lisbon" not in asked.stdout and json.loads(asked.stdout)["route"] == "deliberation"
    alice = json.loads(cli(store, "--json", "memories", "--user-id", "alice").stdout)
    bob = json.loads(cli(store, "--json", "memories", "--user-id", "bob").stdout)
    assert alice and bob and {m["namespace"] for m in alice} == {"alice"} and "Lisbon" not in json.dumps(bob)
    stolen = cli(store, "--json", "history", alice[0]["id"], "--user-id", "bob")
    assert stolen.returncode == 2
    assert json.loads(stolen.stderr) == {"error": f"no memory {alice[0]['id']!r} for user 'bob'", "kind": "not_found"}
