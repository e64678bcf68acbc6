"""The invented chats (benchmarks/data/invented_chats; batch 2 in invented_chats_2, batch 3 in invented_chats_3) load
as RealTalk chats and the formation benchmark measures them.

They are the held-out instrument for formation: people and events made up, in the RealTalk format, so the
loader, ``dmem eval realtalk DIR`` and ``benchmarks/formation.py invented [--chats DIR]`` read them like the dev data.
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
BATCH_2 = ROOT / "benchmarks" / "data" / "invented_chats_2"
BATCH_3 = ROOT / "benchmarks" / "data" / "invented_chats_3"


def load_formation(patch: pytest.MonkeyPatch, *argv: str, name: str = "formation_benchmark") -> ModuleType:
    """benchmarks/formation.py as a fresh module run with the command line ``argv`` (not pytest's own flags)."""
    patch.setattr(sys, "argv", ["formation.py", *argv])
    patch.syspath_prepend(str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "formation.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    patch.setitem(sys.modules, spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def formation(monkeypatch_module: pytest.MonkeyPatch) -> ModuleType:
    """benchmarks/formation.py as a module, its command line empty."""
    return load_formation(monkeypatch_module)


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.mark.parametrize(("folder", "prefix"), [(CHATS, "Invented"), (BATCH_2, "Invented2"),
                                                (BATCH_3, "Invented3")])
def test_the_folder_loads_as_realtalk_chats_with_every_evidence_turn_present(folder: Path, prefix: str) -> None:
    assert detect_kind(folder) == "realtalk"
    dataset = load_dataset("realtalk", folder)
    assert [c.conversation_id.split("_")[:2] for c in dataset.conversations] == [
        [prefix, "1"], [prefix, "2"], [prefix, "3"]]
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


def test_the_formation_benchmark_measures_batch_1_unless_chats_names_a_folder(
        formation: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert formation.SETS["invented"] == CHATS.resolve()
    named = load_formation(monkeypatch, "invented", "--chats", str(tmp_path), "--drafts", name="formation_chats")
    assert named.SETS["invented"] == tmp_path.resolve() and named.arguments().drafts
    assert named.SETS["realtalk"] == formation.SETS["realtalk"]


def test_chats_reads_a_path_from_here_or_from_the_repository_root(
        formation: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    assert formation.chats_folder("mine") == (tmp_path / "mine").resolve()
    assert formation.chats_folder("benchmarks/data/invented_chats_2") == BATCH_2.resolve()
    with pytest.raises(SystemExit, match="--chats nowhere: no such folder"):
        formation.chats_folder("nowhere")


def test_the_formation_benchmark_measures_a_batch_2_chat_named_by_chats(monkeypatch: pytest.MonkeyPatch) -> None:
    named = load_formation(monkeypatch, "invented", "--chats", "benchmarks/data/invented_chats_2", name="formation_2")
    conv = load_dataset("realtalk", named.SETS["invented"]).conversations[0]
    fig = named.measure_drafts(conv)
    assert conv.conversation_id.startswith("Invented2_1_")
    assert fig.turns == len(conv.messages) and fig.formed + sum(fig.unformed.values()) == fig.evidence > 0


def test_the_stores_a_script_must_not_read_are_the_report_half_and_unreleased_batches(formation: ModuleType) -> None:
    held_out = formation.held_out
    assert held_out("locomo", "conv-42") and held_out("locomo", "conv-42.done") and held_out("realtalk", "Chat_5_Ab")
    assert not held_out("locomo", "conv-26") and not held_out("realtalk", "Chat_1_Ab.done")
    assert not held_out("invented", "Invented_1_Ab-1a2b3c4d") and not held_out("invented", "Invented35_2_Cd-1a2b3c4d")
    assert held_out("invented", "Invented36_1_Ef-1a2b3c4d") and held_out("invented", "Invented36_2_Gh.done")
    assert held_out("invented", "AskedC2_Ef-1a2b3c4d") and not held_out("invented", "AskedT2_Ef-1a2b3c4d")
    assert not held_out("invented", "notes.txt")  # not a store of a chat
