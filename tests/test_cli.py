"""The ``dmem`` CLI in-process: ingest, memories, history, ask, graph, and errors as one line (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dmem.cli import main
from dmem.graphs import deliberation_graph, ingestion_graph, query_graph, served_resources

MESSAGES = [
    {"speaker": "Alice", "text": "I adopted a beagle named Rex last week.", "timestamp": "2023-05-08T13:56:00"},
    {"speaker": "Bob", "text": "That's wonderful, congratulations!", "timestamp": "2023-05-08T13:57:00"},
]
JSONL = [
    {"speaker": "Alice", "text": "I work as a nurse in Boston.", "turn_id": "j1", "timestamp": "2023-05-09T09:00:00"},
    {"speaker": "Bob", "text": "Nice.", "turn_id": "j2", "timestamp": "2023-05-09T09:01:00"},
]


@pytest.fixture(autouse=True)
def _close_stores() -> Any:
    yield
    served_resources.close()


def write_inputs(tmp_path: Path) -> tuple[Path, Path]:
    plain = tmp_path / "chat.json"
    plain.write_text(json.dumps(MESSAGES), encoding="utf-8")
    lines = tmp_path / "more.jsonl"
    lines.write_text("\n".join(json.dumps(m) for m in JSONL) + "\n", encoding="utf-8")
    return plain, lines


def ingested(cli: Any, tmp_path: Path) -> list[dict[str, Any]]:
    plain, lines = write_inputs(tmp_path)
    results = []
    for path in (plain, lines):
        code, out, err = cli("--json", "ingest", str(path))
        assert code == 0, err
        results.extend(json.loads(out))
    return results


def test_ingest_json_and_jsonl_then_list_memories(cli: Any, tmp_path: Path) -> None:
    results = ingested(cli, tmp_path)
    exchanges = [ex for r in results for ex in r["exchanges"]]
    assert len(exchanges) == 2 and exchanges[1]["turn_ids"] == ["j1", "j2"]
    admitted = {d["utterance"]: d["admitted"] for ex in exchanges for d in ex["admissions"]}
    assert admitted[MESSAGES[0]["text"]] is True and admitted[JSONL[0]["text"]] is True
    code, out, _ = cli("--json", "memories")
    assert code == 0
    memories = json.loads(out)
    assert any("Rex" in m["text"] for m in memories) and any("nurse" in m["text"] for m in memories)
    assert {m["namespace"] for m in memories} == {"default"}
    assert any("j1" in m["source_turn_ids"] for m in memories)


def test_history_of_a_memory(cli: Any, tmp_path: Path) -> None:
    ingested(cli, tmp_path)
    memories = json.loads(cli("--json", "memories")[1])
    rex = next(m for m in memories if "Rex" in m["text"])
    code, out, _ = cli("--json", "history", rex["id"])
    assert code == 0
    (entry,) = json.loads(out)
    assert entry["memory_id"] == rex["id"] and entry["operation"] == "ADD" and entry["new_text"] == rex["text"]


def test_ask_with_the_offline_engine(cli: Any, tmp_path: Path) -> None:
    ingested(cli, tmp_path)
    code, out, _ = cli("--json", "ask", "What is the name of Alice's dog?")
    assert code == 0
    ans = json.loads(out)
    assert ans["engine"] == "offline" and ans["route"] in ("system1", "deliberation")
    assert "Rex" in ans["answer"] and ans["gate_reasons"]


def test_ask_an_empty_namespace_says_no_memory(cli: Any, tmp_path: Path) -> None:
    ingested(cli, tmp_path)
    code, out, _ = cli("--json", "ask", "Anything?", "--user-id", "nobody")
    assert code == 0 and json.loads(out)["route"] == "no_memory"


def test_reading_a_store_that_does_not_exist_is_one_line(cli: Any) -> None:
    code, _, err = cli("--json", "ask", "Anything?")
    assert code == 2 and "no store at" in one_error_line(err)


def test_search_and_history_are_per_user(cli: Any, tmp_path: Path) -> None:
    ingested(cli, tmp_path)
    code, out, _ = cli("--json", "search", "beagle", "--user-id", "default")
    assert code == 0
    hits = json.loads(out)
    assert "Rex" in hits[0]["memory"]["text"]
    rex = hits[0]["memory"]["id"]
    code, _, err = cli("--json", "history", rex, "--user-id", "mallory")
    assert code == 2 and one_error_line(err) == f"dmem: error: no memory {rex!r} for user 'mallory'"
    assert json.loads(cli("--json", "search", "beagle", "--user-id", "mallory")[1]) == []


def test_graph_prints_mermaid_for_each_graph(cli: Any) -> None:
    code, out, _ = cli("graph")
    assert code == 0
    sections = dict(part.split("\n", 1) for part in out.split("%% ")[1:])
    assert set(sections) == {"ingestion graph", "query graph", "deliberation graph"}
    for name, graph in (("ingestion", ingestion_graph), ("query", query_graph),
                        ("deliberation", deliberation_graph)):
        expected = graph.get_graph().draw_mermaid().expandtabs(8)  # rich expands tabs; Mermaid ignores them
        assert sections[f"{name} graph"].strip() == expected.strip()
    code, out, _ = cli("graph", "query")
    assert code == 0 and "deliberate_chunk" in out  # a single graph is drawn with its subgraphs


def one_error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got {lines}"
    if lines[0].startswith("{"):  # --json: {"error": ..., "kind": ...}
        return "dmem: error: " + json.loads(lines[0])["error"]
    assert lines[0].startswith("dmem: error: ")
    return lines[0]


def test_missing_file_is_one_line_and_exit_2(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("ingest", "missing.json")
    assert code == 2 and out == ""
    assert "missing.json" in one_error_line(err) and "does not exist" in err


def test_long_error_stays_on_one_line(cli: Any, tmp_path: Path) -> None:
    code, _, err = cli("ingest", str(tmp_path / ("a-rather-long-directory-name" * 3) / "missing.json"))
    assert code == 2
    one_error_line(err)


def test_unknown_setting_in_config_file(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("dmem.toml").write_text("[dmem]\nretrieval_top_k = 5\nbogus_setting = 1\n", encoding="utf-8")
    code, _, err = cli("--config", "dmem.toml", "--json", "memories")
    assert code == 2
    line = one_error_line(err)
    assert "unknown setting" in line and "bogus_setting" in line and "dmem.toml" in line


def test_a_writer_holding_the_lock_makes_ingest_wait_then_fail_in_one_line(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from dmem.store.local.writelock import WriteLock

    plain, _ = write_inputs(tmp_path)
    assert cli("--json", "ingest", str(plain))[0] == 0
    monkeypatch.setenv("DMEM_LOCK_TIMEOUT", "0.2")
    holder = WriteLock(tmp_path / "store", 1.0)  # another writer, mid-transaction
    holder.acquire()
    try:
        code, _, err = cli("--json", "ingest", str(plain))
        line = one_error_line(err)
        assert code == 2 and "is busy" in line and f"process {os.getpid()}" in line and "waiting 0." in line
        code, out, _ = cli("--json", "memories")  # readers need no lock
        assert code == 0 and json.loads(out)
    finally:
        holder.release()
    assert cli("--json", "ingest", str(plain))[0] == 0


def test_version_is_the_installed_packages(capsys):
    from importlib.metadata import version

    import dmem

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"dmem {version('dmem')}" == f"dmem {dmem.__version__}"


def test_reset_erases_one_namespace_with_its_confirmation(cli: Any, tmp_path: Path) -> None:
    plain, _ = write_inputs(tmp_path)
    for user in ("maya", "theo"):
        assert cli("ingest", str(plain), "--user-id", user)[0] == 0
    code, _, err = cli("reset", "--user-id", "maya", "--confirm", "yes")
    assert code == 2 and "confirm='maya'" in err
    code, _, err = cli("reset", "--confirm", "everything")
    assert code == 2 and "--user-id" in err and "--everything" in err
    code, out, err = cli("--json", "reset", "--user-id", "maya", "--confirm", "maya")
    assert code == 0, err
    erased = json.loads(out)
    assert erased["erased"] == "maya" and erased["memories"] >= 1
    code, out, _ = cli("--json", "memories", "--user-id", "maya")
    assert code == 0 and json.loads(out) == []
    code, out, _ = cli("--json", "memories", "--user-id", "theo")
    assert code == 0 and len(json.loads(out)) == erased["memories"]
    code, out, err = cli("reset", "--everything", "--confirm", "everything")
    assert code == 0 and "cannot be undone" in out
    code, out, _ = cli("--json", "users")
    assert code == 0 and json.loads(out) == []


def test_export_to_json_lines_reports_what_it_wrote(cli: Any, tmp_path: Path) -> None:
    plain, _ = write_inputs(tmp_path)
    assert cli("ingest", str(plain), "--user-id", "maya")[0] == 0
    code, out, _ = cli("--json", "memories", "--user-id", "maya")
    count = len(json.loads(out))
    code, out, err = cli("--json", "export", str(tmp_path / "maya.jsonl"), "--user-id", "maya")
    assert code == 0, err
    assert json.loads(out) == {"path": str(tmp_path / "maya.jsonl"), "memories": count, "namespaces": ["maya"]}
    kinds = [json.loads(line)["kind"] for line in (tmp_path / "maya.jsonl").read_text(encoding="utf-8").splitlines()]
    assert kinds.count("memory") == count and kinds[0] == "header" and "turn" in kinds
