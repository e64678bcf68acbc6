"""A complete, private export: the transcript travels with its labels and status, JSON Lines too, files are 0600."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from dmem.errors import DataError
from dmem.messages import to_messages
from dmem.store import Routing


@pytest.fixture
def source(fake: Any, memory_factory: Any) -> Any:
    mem = memory_factory(fake)
    mem.add(["I keep bees on the roof.", "Lovely."], user_id="maya", conversation_id="c1", metadata={"app": "web"})
    mem.add(["My sister lives in Faro.", "Nice."], user_id="maya", conversation_id="c2")
    return mem


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("name", ["maya.json", "maya.jsonl"])
def test_an_imported_user_can_be_deliberated_over(source: Any, fake: Any, memory_factory: Any, tmp_path: Path,
                                                  name: str) -> None:
    data = source.export(user_id="maya")
    written = source.export(tmp_path / name, user_id="maya")
    assert written == data if name.endswith(".json") else written["counts"]["memories"] == len(data["memories"])
    assert [t["text"] for t in data["transcript"]] == [m.text for m in source.transcript(user_id="maya")]
    assert [t["labels"] for t in data["transcript"]] == [{"app": "web"}] * 2 + [{}] * 2
    other = memory_factory(fake, sub=f"other-{name}")
    assert other.import_(tmp_path / name, user_id="maya") == len(data["memories"])
    assert other.transcript(user_id="maya") == source.transcript(user_id="maya")
    web = other.store.transcript.messages(["maya"], labels={"app": "web"})
    assert [m.text for m in web] == ["I keep bees on the roof.", "Lovely."]
    assert other.retry_pending(user_id="maya").exchanges == []  # formed turns are never formed again
    before = len(fake.calls)  # ``calls`` is a copy: count, then read only this question's calls
    other.ask("Where does my sister live?", user_id="maya", gate_policy="always", deliberation_mode="full")
    read = " ".join(str(m.content) for c in fake.calls[before:] if c.schema == "ChunkFacts" for m in c.messages)
    assert "My sister lives in Faro." in read and "I keep bees on the roof." in read


def test_json_lines_holds_one_record_a_line(source: Any, tmp_path: Path) -> None:
    summary = source.export(tmp_path / "maya.jsonl", user_id="maya")
    data = source.export(user_id="maya")
    assert summary["counts"] == {part: len(data[part]) for part in ("memories", "history", "transcript")}
    assert summary["path"] == str(tmp_path / "maya.jsonl") and summary["namespaces"] == ["maya"]
    rows = [json.loads(line) for line in (tmp_path / "maya.jsonl").read_text(encoding="utf-8").splitlines()]
    kinds = [r["kind"] for r in rows]
    assert kinds[0] == "header" and rows[0]["version"] == 3
    assert kinds.count("memory") == len(data["memories"]) and kinds.count("turn") == len(data["transcript"])
    assert kinds.count("history") == len(data["history"])
    source.export(tmp_path / "forced.out", user_id="maya", format="jsonl")
    assert (tmp_path / "forced.out").read_text(encoding="utf-8").splitlines()[0].startswith('{"kind": "header"')
    with pytest.raises(DataError, match="'json' or 'jsonl'"):
        source.export(tmp_path / "x", user_id="maya", format="csv")


def test_unformed_turns_travel_unformed(fake: Any, memory_factory: Any, tmp_path: Path) -> None:
    mem = memory_factory(fake)
    mem.store.transcript.append(Routing.of("maya"), to_messages(["I swim on Sundays.", "Great."], "maya"))
    data = mem.export(tmp_path / "maya.json", user_id="maya")
    assert [t["formed"] for t in data["transcript"]] == [False, False]
    other = memory_factory(fake, sub="other")
    other.import_(tmp_path / "maya.json", user_id="maya")
    assert [ex.status for ex in other.retry_pending(user_id="maya").exchanges] == ["formed"]


@pytest.mark.parametrize("name", ["new.json", "old.json", "new.jsonl"])
def test_export_files_are_private_even_under_umask_000(source: Any, tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    if name.startswith("old"):
        target.write_text("{}", encoding="utf-8")
        target.chmod(0o644)
    previous = os.umask(0)
    try:
        source.export(target, user_id="maya")
    finally:
        os.umask(previous)
    assert mode(target) == 0o600


def test_a_broken_json_lines_file_names_its_line(source: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    source.export(path, user_id="maya")
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], "{not json", *lines[1:]]), encoding="utf-8")
    with pytest.raises(DataError, match="line 2 is not valid JSON"):
        source.import_(path, user_id="maya")
