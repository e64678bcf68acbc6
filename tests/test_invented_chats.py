"""The invented chats (benchmarks/data/invented_chats) load as RealTalk chats and the formation benchmark measures them.

They are the held-out instrument for formation: people and events made up, in the RealTalk format, so the
loader, ``dmem eval realtalk DIR`` and ``benchmarks/formation.py invented`` read them like the dev data.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from dmem.datasets.datasets import detect_kind, load_dataset
from dmem.errors import DataError

ROOT = Path(__file__).resolve().parents[1]
CHATS = ROOT / "benchmarks" / "data" / "invented_chats"


@pytest.fixture(scope="module")
def formation(monkeypatch_module: pytest.MonkeyPatch) -> ModuleType:
    """benchmarks/formation.py as a module, its command line empty (pytest's own flags are not its)."""
    monkeypatch_module.setattr(sys, "argv", ["formation.py"])
    monkeypatch_module.syspath_prepend(str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("formation_benchmark", ROOT / "benchmarks" / "formation.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch_module.setitem(sys.modules, spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_the_folder_loads_as_realtalk_chats_with_every_evidence_turn_present() -> None:
    assert detect_kind(CHATS) == "realtalk"
    dataset = load_dataset("realtalk", CHATS)
    assert [c.conversation_id.split("_")[:2] for c in dataset.conversations] == [
        ["Invented", "1"], ["Invented", "2"], ["Invented", "3"]]
    for conv in dataset.conversations:
        assert conv.issues == [] and len(conv.speakers) == 2
        assert len(conv.messages) >= 150 and len(conv.qa) >= 25
        assert {m.speaker for m in conv.messages} == set(conv.speakers)
        assert all(q.evidence and not q.missing_evidence and q.answer for q in conv.qa)
        assert {q.category for q in conv.qa} >= {1, 2, 4}
        days = {m.timestamp.date() for m in conv.messages if m.timestamp}
        assert len(days) >= 10


def test_a_folder_reads_the_json_files_that_hold_chats_when_none_is_named_chat(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text("[1, 2]")
    (tmp_path / "broken.json").write_text("[{")
    assert detect_kind(tmp_path) is None
    with pytest.raises(DataError, match="no Chat_"):
        load_dataset("realtalk", tmp_path)
    (tmp_path / "Invented_9_Pia_Tomo.json").write_text((CHATS / "Invented_3_Maeve_Idris.json").read_text())
    assert detect_kind(tmp_path) == "realtalk"
    assert [c.conversation_id for c in load_dataset("realtalk", tmp_path).conversations] == ["Invented_9_Pia_Tomo"]


def test_the_formation_benchmark_measures_one_invented_chat(formation: ModuleType) -> None:
    dataset = load_dataset("realtalk", CHATS)
    conv = min(dataset.conversations, key=lambda c: len(c.messages))
    fig = formation.measure_drafts(conv)
    evidence = {e for q in conv.qa if q.category in formation.CATEGORIES for e in q.evidence}
    assert fig.turns == len(conv.messages) and fig.evidence == len(evidence) and fig.memories > 0
    unformed = sum(fig.unformed.values())
    assert fig.formed + unformed == fig.evidence
    assert len(fig.unformed_turns) == unformed
    texts = {m.text for m in conv.messages}
    for family, line in fig.unformed_turns:
        assert family in fig.unformed
        assert any(repr(text) in line for text in texts), line
    assert formation.half_of("invented", conv.conversation_id) == "invented"
