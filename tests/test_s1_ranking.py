"""benchmarks/s1_ranking.py: an invented chat's store is found by its id and hash, a held-out one is refused, and
a replay's per-question recall is compared with a saved one (questions up and down).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import benchmark_module


@pytest.fixture(scope="module")
def s1_ranking() -> Iterator[ModuleType]:
    """benchmarks/s1_ranking.py imported with benchmarks/ on the path (it imports formation.py)."""
    yield from benchmark_module("s1_ranking")


def test_an_invented_chats_store_is_found_by_its_id_and_hash(s1_ranking: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "Invented7_1_Ada_Bram-0a1b2c3d").mkdir()
    (tmp_path / "Invented7_1_Ada_Bram-0a1b2c3d.done").write_text("5s")
    (tmp_path / "conv-9").mkdir()
    assert s1_ranking.store_of(tmp_path, "invented", "Invented7_1_Ada_Bram").name == "Invented7_1_Ada_Bram-0a1b2c3d"
    assert s1_ranking.store_of(tmp_path, "invented", "Invented7_2_Cy_Dora") is None
    assert s1_ranking.store_of(tmp_path, "locomo", "conv-9") == tmp_path / "conv-9"
    assert s1_ranking.store_of(tmp_path, "locomo", "conv-8") is None


def test_a_held_out_store_is_refused(s1_ranking: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chats = tmp_path / "chats"
    chats.mkdir()
    turn = {"clean_text": "morning Bram, the kiln is hot", "speaker": "Ada", "date_time": "05.09.2031, 10:15:00",
            "img_file": [], "img_url": [], "dia_id": "D1:1"}
    chat = {"name": {"speaker_1": "Ada", "speaker_2": "Bram"}, "session_1": [turn],
            "session_1_date_time": "05.09.2031, 10:15:00", "qa": []}
    (chats / "AskedC1_Ada_Bram.json").write_text(json.dumps(chat))
    stores = tmp_path / "stores"
    (stores / "AskedC1_Ada_Bram-0a1b2c3d").mkdir(parents=True)
    monkeypatch.setattr(sys, "argv", ["s1_ranking.py", "invented", "--chats", str(chats), "--stores", str(stores)])
    with pytest.raises(SystemExit, match="held out"):
        s1_ranking.conversations("invented")


def test_recall_is_compared_question_by_question(s1_ranking: ModuleType, tmp_path: Path) -> None:
    before = tmp_path / "before.json"
    before.write_text(json.dumps({"c#0": 0.5, "c#1": 1.0, "c#2": 0.0, "c#3": 1.0}))
    now = {"c#0": 1.0, "c#1": 0.5, "c#2": 0.0, "c#3": 1.0, "c#4": 1.0}
    assert s1_ranking.compared(now, before) == "against before.json: 1 questions up, 1 down, of 4"
