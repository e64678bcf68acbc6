"""A wide question's same-K memories come first; the offline answerer reads its wider share only for what they lack."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.datasets.datasets import QAItem
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.wide_context import core_first
from dmem.models.embeddings import HashEmbeddings
from dmem.nodes.retrieval import aretrieved_memories, retrieved_memories, search_memories
from dmem.state.verdicts import AnswerDraft
from tests.test_invented_chats import load_formation
from tests.test_wide_retrieval import _ingest

WIDE = "What hobbies do they have in common?"
ORDINARY = "What do they bake?"


def test_a_wide_questions_memories_are_the_same_k_ones_in_their_order_then_the_wider_share(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash", retrieval_top_k=3, wide_retrieval_factor=2,
                episode_neighbours=0) as mem:
        _ingest(mem)
        svc, spaces = mem.services, ["c/i", "c/p"]
        paper = dataclasses.replace(svc, context=svc.context.with_overrides(wide_retrieval_factor=1.0))
        same_k = search_memories(paper, WIDE, spaces)
        hits, core = retrieved_memories(svc, WIDE, spaces)
        assert core == len(same_k) == 6 and len(hits) == 12 and len({r.id for r, _ in hits}) == 12
        assert [r.id for r, _ in hits[:core]] == [r.id for r, _ in same_k]
        ahits, acore = asyncio.run(aretrieved_memories(svc, WIDE, spaces))
        assert acore == core and [(r.id, s) for r, s in hits] == [(r.id, s) for r, s in ahits]
        ordinary, all_of_them = retrieved_memories(svc, ORDINARY, spaces)
        assert all_of_them == len(ordinary) == 6


def test_the_query_state_says_how_many_lines_are_the_same_k_ones(tmp_path: Path) -> None:
    with Memory(tmp_path / "m", embeddings="hash", retrieval_top_k=3, wide_retrieval_factor=2,
                gate_policy="never") as mem:
        _ingest(mem)
        seen: list[int | None] = []
        decider = mem.services.decider
        answer = decider.answer

        def spy(question: str, context: list[str], **kw: object) -> object:
            seen.append(kw.get("core"))  # type: ignore[arg-type]
            return answer(question, context, **kw)  # type: ignore[arg-type]

        decider.answer = spy  # type: ignore[method-assign]
        mem.ask(WIDE, user_ids=["c/i", "c/p"])
        mem.ask(ORDINARY, user_ids=["c/i", "c/p"])
        assert seen == [6, 6]


def _draft(lines: list[str]) -> AnswerDraft:
    found = [line for line in lines if "kayak" in line]
    return AnswerDraft(reasoning="test", answer=found[0] if found else "No information available.")


def test_the_offline_answer_comes_from_the_same_k_lines_and_reads_the_rest_only_when_they_answer_nothing() -> None:
    lines = ["Oriane paints", "Oriane kayaks on the Loire", "Bastien kayaks at dawn"]
    assert core_first(_draft, ["Oriane paints", "Oriane owns a kayak", "Bastien kayaks too"], 2).answer \
        == "Oriane owns a kayak"
    assert core_first(_draft, ["Oriane paints", "Bastien sings", "Oriane owns a kayak"], 2).answer \
        == "Oriane owns a kayak"  # nothing among the same-K lines: the wider share answers
    assert core_first(_draft, lines, None).answer == core_first(_draft, lines, 3).answer == "Oriane kayaks on the Loire"


def test_a_list_answer_gains_no_member_from_a_line_past_the_same_k_ones() -> None:
    decider = OfflineDecider(HashEmbeddings())
    context = ["Oriane loves pottery.", "Oriane enjoys bouldering at the old quarry.", "Oriane likes knitting.",
               "Bastien sings in a choir.", "Oriane loves cycling along the canal."]
    every = decider.answer("What are Oriane's hobbies?", context).value.answer
    same_k = decider.answer("What are Oriane's hobbies?", context, core=4).value.answer
    assert "cycling" in every and "cycling" not in same_k and "pottery" in same_k
    assert same_k == decider.answer("What are Oriane's hobbies?", context[:4]).value.answer


def test_the_formation_benchmarks_answer_trace_reads_the_same_k_lines_first_as_the_graph(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``benchmarks/formation.py``'s answer-trace figure answers as the ``answer`` node does (``core`` passed)."""
    formation = load_formation(monkeypatch, name="formation_wide")
    with Memory(tmp_path / "m", embeddings="hash", retrieval_top_k=3, wide_retrieval_factor=2) as mem:
        _ingest(mem)
        seen: list[object] = []
        decider = mem.services.decider
        answer = decider.answer

        def spy(question: str, context: list[str], **kw: object) -> object:
            seen.append(kw.get("core"))
            return answer(question, context, **kw)  # type: ignore[arg-type]

        decider.answer = spy  # type: ignore[method-assign]
        qa = QAItem(question=WIDE, answer="kayaking", category=1, evidence=["D1:1"])
        formation.trace_figures(mem.services, qa, WIDE, retrieved_memories(mem.services, WIDE, ["c/i", "c/p"]),
                                 formation.Figures())
        assert seen == [6]
