"""benchmarks/compare_runs.py: two eval runs compared question by question (means, questions up and down)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import benchmark_module


@pytest.fixture(scope="module")
def compare_runs() -> Iterator[ModuleType]:
    yield from benchmark_module("compare_runs")


def _record(method: str, index: int, answer: str, f1: float, recall: float | None = 1.0) -> dict[str, object]:
    return {"key": f"{method}|Invented_1_Ada_Bram|{index}", "method": method, "conversation_id": "Invented_1_Ada_Bram",
            "index": index, "question": f"Where did Ada go on trip {index}?", "gold": "Tromso", "answer": answer,
            "scores": {"f1_mem0": f1}, "evidence_recall": {"system1": recall, "answer": 0.5},
            "evidence_precision": {"answer": 0.25}}


def _run(folder: Path, records: list[dict[str, object]]) -> Path:
    folder.mkdir()
    (folder / "answers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return folder


def test_a_flat_mean_still_shows_the_answers_won_and_lost(compare_runs: ModuleType, tmp_path: Path) -> None:
    base = _run(tmp_path / "base", [_record("mem0", 0, "Oslo", 0.0), _record("mem0", 1, "Tromso", 1.0),
                                    _record("mem0", 2, "north", 0.5, recall=0.5)])
    new = _run(tmp_path / "new", [_record("mem0", 0, "Tromso", 1.0), _record("mem0", 1, "Oslo", 0.0),
                                  _record("mem0", 2, "north", 0.5, recall=1.0)])
    out = compare_runs.report(compare_runs.load(base), compare_runs.load(new / "answers.jsonl"), verbose=True)
    assert "mem0: 3 questions in both" in out
    assert "F1 (x100): 50.00 -> 50.00 (1 up / 1 down, n=3)" in out
    assert "System 1 evidence recall: 0.833 -> 1.000 (1 up / 0 down, n=3)" in out
    assert "up   'Where did Ada go on trip 0?' gold 'Tromso': 'Oslo' -> 'Tromso'" in out
    assert "down 'Where did Ada go on trip 1?' gold 'Tromso': 'Tromso' -> 'Oslo'" in out


def test_questions_one_run_lacks_are_counted_apart_and_missing_scores_skipped(compare_runs: ModuleType,
                                                                              tmp_path: Path) -> None:
    base = {r["key"]: r for r in (_record("mem0", 0, "Oslo", 0.0, recall=None), _record("mem0", 1, "x", 0.2),
                                  _record("quality", 0, "Oslo", 0.0))}
    new = {r["key"]: r for r in (_record("mem0", 0, "Tromso", 1.0), _record("mem0", 5, "y", 0.3))}
    out = compare_runs.report(base, new)
    assert out.splitlines()[0] == "mem0: 1 questions in both; only in base 1, only in new 1"
    assert "F1 (x100): 0.00 -> 100.00 (1 up / 0 down, n=1)" in out
    assert "System 1 evidence recall: n/a" in out  # the one shared question has no recall in base
    assert "quality" not in out  # a method only one run answered is not compared


def test_a_folder_without_answers_is_one_clear_error(compare_runs: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no answers.jsonl"):
        compare_runs.load(tmp_path)
    (tmp_path / "answers.jsonl").write_text('{"key": "a"}\nnot json\n', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"answers.jsonl:2: not a JSON line"):
        compare_runs.load(tmp_path)


def test_answers_of_two_settings_in_one_file_are_refused_not_mixed(compare_runs: ModuleType, tmp_path: Path) -> None:
    first, second = _record("mem0", 0, "Oslo", 0.0), _record("mem0", 0, "Tromso", 1.0)
    first["config"], second["config"] = "a1b2c3d4e5f6", "0f9e8d7c6b5a"
    run = _run(tmp_path / "run", [first, second])
    with pytest.raises(SystemExit, match="holds answers of two settings to 'mem0|Invented_1_Ada_Bram|0'"):
        compare_runs.load(run)
