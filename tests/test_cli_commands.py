"""The ``dmem`` command driven as a person would: a subprocess, output piped, with and without --json.

One store is ingested once per module (offline engine, hash embeddings: no model, no network);
tests that change it work on a copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # every test drives `python -m dmem` subprocesses (the in-process CLI: test_cli.py)

ROOT = Path(__file__).resolve().parents[1]
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("DMEM_")}, "PYTHONPATH": str(ROOT)}
CHAT = [
    {"speaker": "Maya", "text": "I adopted a beagle named Rex last week.", "timestamp": "2024-05-08T13:56:00"},
    {"speaker": "Oskar", "text": "That's wonderful!", "timestamp": "2024-05-08T13:57:00"},
    {"speaker": "Maya", "text": "I work as a nurse in Lisbon.", "timestamp": "2024-05-08T13:58:00"},
    {"speaker": "Oskar", "text": "Nice.", "timestamp": "2024-05-08T13:59:00"},
]


def dmem(store: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m dmem --store <store> --embeddings hash <args>`` with stdout and stderr piped."""
    return subprocess.run([sys.executable, "-m", "dmem", "--store", str(store), "--embeddings", "hash", *args],
                          capture_output=True, text=True, env=ENV, cwd=cwd or store.parent, timeout=300)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def json_error(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The one JSON error line of a failed --json command (exit 2)."""
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    error = json.loads(line)
    assert set(error) == {"error", "kind"}
    return error


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with Maya's chat in namespace 'maya', labelled source=chat."""
    root = tmp_path_factory.mktemp("cli")
    (root / "chat.json").write_text(json.dumps(CHAT), encoding="utf-8")
    done = dmem(root / "store", "--progress-every", "0", "ingest", "chat.json", "--user-id", "maya",
                "--metadata", "source=chat")
    assert "2 exchanges" in ok(done)
    progress = done.stderr.strip().splitlines()  # piped: plain lines on stderr, the last one at the end
    assert progress and all(line.startswith("dmem: ingesting chat.json: ") for line in progress)
    assert progress[-1].endswith("2/2 (100%), 0:00 elapsed, done") or "2/2 (100%)" in progress[-1]
    return root / "store"


@pytest.fixture
def copy(ingested: Path, tmp_path: Path) -> Path:
    """A copy of the ingested store that a test may change."""
    shutil.copytree(ingested, tmp_path / "store")
    return tmp_path / "store"


def memories(store: Path, *args: str) -> list[dict[str, Any]]:
    return json.loads(ok(dmem(store, "--json", "memories", "--user-id", "maya", *args)))


def test_memories_piped_are_one_record_per_line_and_filter(ingested: Path) -> None:
    lines = ok(dmem(ingested, "memories", "--user-id", "maya")).splitlines()
    assert len(lines) == 2
    fields = [line.split("\t") for line in lines]
    assert all(len(f) == 6 for f in fields) and any("Rex" in f[5] for f in fields)
    assert ok(dmem(ingested, "memories", "--user-id", "maya", "--limit", "1")).count("\n") == 1
    nurse = memories(ingested, "--category", "persona")
    assert [m["text"] for m in nurse] == ["Maya works as a nurse in Lisbon"]
    assert all(m["metadata"] == {"source": "chat"} for m in memories(ingested))
    assert memories(ingested, "--speaker", "Oskar") == [] and memories(ingested, "--metadata", "source=mail") == []


def test_users_lists_namespaces_with_counts(ingested: Path) -> None:
    assert ok(dmem(ingested, "users")).splitlines() == ["maya\t2\t4"]
    assert json.loads(ok(dmem(ingested, "--json", "users"))) == [{"namespace": "maya", "memories": 2, "turns": 4}]


def test_search_with_metadata_filter_then_get_and_history_by_prefix(ingested: Path) -> None:
    hits = json.loads(ok(dmem(ingested, "--json", "search", "beagle", "--user-id", "maya", "--metadata",
                              "source=chat", "--limit", "5")))
    assert len(hits) == 2 and all(h["memory"]["metadata"]["source"] == "chat" for h in hits)
    rex = next(h["memory"] for h in hits if "Rex" in h["memory"]["text"])
    got = json.loads(ok(dmem(ingested, "--json", "get", rex["id"][:8], "--user-id", "maya")))
    assert got == rex
    shown = ok(dmem(ingested, "get", rex["id"], "--user-id", "maya"))
    assert f"id: {rex['id']}" in shown and "metadata: {'source': 'chat'}" in shown
    (entry,) = json.loads(ok(dmem(ingested, "--json", "history", rex["id"][:8], "--user-id", "maya")))
    assert entry["operation"] == "ADD" and entry["new_text"] == rex["text"]
    assert ok(dmem(ingested, "history", rex["id"], "--user-id", "maya")).split("\t")[1] == "ADD"


def test_ask_with_metadata_answers_only_from_memories_and_turns_so_labelled(ingested: Path) -> None:
    ask = ("--json", "ask", "What is the name of Maya's dog?", "--user-id", "maya", "--policy", "always")
    chat = json.loads(ok(dmem(ingested, *ask, "--metadata", "source=chat")))
    assert chat["route"] == "deliberation" and chat["retrieved"]
    assert all(r["memory"]["metadata"] == {"source": "chat"} for r in chat["retrieved"])
    mail = json.loads(ok(dmem(ingested, *ask, "--metadata", "source=mail")))
    assert mail["route"] == "no_memory" and mail["retrieved"] == [] and mail["facts_used"] == []
    assert json_error(dmem(ingested, *ask, "--metadata", "source"))["error"].startswith("--metadata takes KEY=VALUE")


def test_ask_an_unknown_namespace_names_the_ones_the_store_holds(ingested: Path) -> None:
    done = dmem(ingested, "--json", "ask", "Where does Maya work?", "--user-id", "Maya")
    assert json.loads(ok(done))["route"] == "no_memory"
    (note,) = [json.loads(line) for line in done.stderr.strip().splitlines()]
    assert note["missing"] == ["Maya"] and note["suggestions"] == ["maya"] and note["namespaces"] == ["maya"]
    plain = dmem(ingested, "ask", "Where does Maya work?", "--user-id", "Maya")
    assert "did you mean 'maya'?" in plain.stderr and "dmem users" in plain.stderr


def test_update_delete_and_delete_all_are_recorded(copy: Path) -> None:
    rex = next(m for m in memories(copy) if "Rex" in m["text"])
    updated = json.loads(ok(dmem(copy, "--json", "update", rex["id"][:8], "Maya adopted a beagle called Rex.",
                                 "--user-id", "maya", "--metadata", "verified=true", "--reason", "typo")))
    assert updated["text"] == "Maya adopted a beagle called Rex." and updated["metadata"] == {
        "source": "chat", "verified": True}
    rows = json.loads(ok(dmem(copy, "--json", "history", rex["id"], "--user-id", "maya")))
    assert [(r["operation"], r["reason"]) for r in rows][-1] == ("UPDATE", "typo")
    assert rows[-1]["old_text"] == rex["text"]
    assert "deleted" in ok(dmem(copy, "delete", rex["id"], "--user-id", "maya"))
    assert json_error(dmem(copy, "--json", "get", rex["id"], "--user-id", "maya"))["kind"] == "not_found"
    refused = json_error(dmem(copy, "--json", "delete", "--all", "--user-id", "maya"))
    assert "--yes" in refused["error"] and refused["kind"] == "data"
    assert json.loads(ok(dmem(copy, "--json", "delete", "--all", "--yes", "--user-id", "maya"))) == {
        "deleted": 1, "namespace": "maya"}
    assert memories(copy) == []


def test_export_then_import_into_another_store(ingested: Path, tmp_path: Path) -> None:
    out = tmp_path / "maya.json"
    summary = json.loads(ok(dmem(ingested, "--json", "export", str(out), "--user-id", "maya")))
    assert summary == {"path": str(out), "memories": 2, "namespaces": ["maya"]}
    other = tmp_path / "other"
    done = dmem(other, "import", str(out), "--map", "maya=maya-archive")
    assert ok(done).strip() == "imported 2 memories (maya -> maya-archive)"
    assert ok(dmem(other, "users")).splitlines() == ["maya-archive\t2\t4"]  # the transcript came along
    refused = json_error(dmem(ingested, "--json", "import", str(out), "--map", "maya=maya-archive"))
    assert refused["kind"] == "store" and "already belong to another namespace" in refused["error"]


def test_retry_forms_nothing_when_everything_is_formed(ingested: Path) -> None:
    result = json.loads(ok(dmem(ingested, "--json", "retry", "--user-id", "maya")))
    assert result["exchanges"] == []


def test_agent_and_run_scoping_compose_the_namespace(copy: Path) -> None:
    chat = copy.parent / "plan.jsonl"
    chat.write_text(json.dumps({"speaker": "Maya", "text": "I am training for a marathon in October."}) + "\n",
                    encoding="utf-8")
    ok(dmem(copy, "ingest", str(chat), "--user-id", "maya", "--agent-id", "coach", "--run-id", "r1"))
    assert "maya/agent:coach/run:r1" in ok(dmem(copy, "users"))
    scoped = json.loads(ok(dmem(copy, "--json", "memories", "--user-id", "maya", "--agent-id", "coach",
                                "--run-id", "r1")))
    assert scoped and all(m["namespace"] == "maya/agent:coach/run:r1" for m in scoped)
    assert json_error(dmem(copy, "--json", "memories", "--agent-id", "a/b"))["kind"] == "data"


def test_read_commands_never_create_a_store(tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    for args in (["ask", "Anything?"], ["memories"], ["users"], ["search", "x"], ["delete", "abc"]):
        error = json_error(dmem(missing, "--json", *args))
        assert error["kind"] == "store" and str(missing) in error["error"]
    plain = dmem(missing, "memories")
    assert plain.returncode == 2 and plain.stderr.strip().splitlines() == [
        f"dmem: error: {json_error(dmem(missing, '--json', 'memories'))['error']}"]
    assert not missing.exists()


def test_usage_errors_are_json_with_json(tmp_path: Path) -> None:
    error = json_error(dmem(tmp_path / "s", "--json", "ask"))
    assert error["kind"] == "usage" and "question" in error["error"] and "dmem ask --help" in error["error"]
    plain = dmem(tmp_path / "s", "memories", "--limit", "many")
    assert plain.returncode == 2 and len(plain.stderr.strip().splitlines()) == 1
    assert plain.stderr.startswith("dmem: error: argument --limit")


def test_every_command_has_help_with_two_examples() -> None:
    from dmem.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():  # type: ignore[union-attr]
        text = command.format_help()
        examples = text.split("examples:")[-1].strip().splitlines()
        assert len([e for e in examples if e.strip().startswith("dmem ")]) >= 2, name
        for action in command._actions:
            assert action.help, f"dmem {name} {action.dest} has no help"
