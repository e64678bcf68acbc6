"""A statement's piece that points back ('It takes most of my weekends') joins the fact before it from the
same message instead of standing as a memory of its own (``dmem.decisions.offline.leaning``).
Invented people and events only.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import leaning
from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message, Provenance
from dmem.state.verdicts import FactDraft

TS = datetime(2025, 5, 2, 18, 0)


def turn(text: str, speaker: str, seq: int) -> Message:
    return Message(turn_id=f"D1:{seq}", speaker=speaker, text=text, timestamp=TS, seq=seq)


def facts(said: str, before: str = "Long week at work.") -> list[FactDraft]:
    decider = OfflineDecider(HashEmbeddings())
    return decider.split([turn(said, "Theo", 2)], [turn(before, "Maya", 1)], []).value.facts


def test_a_piece_pointing_back_joins_the_fact_before_it() -> None:
    [fact] = facts("I restore old motorbikes in my garage. It takes most of my weekends.")
    assert fact.text == "Theo restores old motorbikes in Theo's garage; it takes most of Theo's weekends"
    assert fact.source_turn_ids == ["D1:2"]


def test_two_pieces_pointing_back_join_the_same_fact() -> None:
    [fact] = facts("I restore old motorbikes in my garage. It takes most of my weekends. "
                   "They cost me most of my savings.")
    assert fact.text.count("; ") == 2 and fact.text.endswith("; they cost Theo most of Theo's savings")


def test_a_piece_about_something_else_stays_a_memory_of_its_own() -> None:
    drafted = facts("I restore old motorbikes in my garage. My sister runs a bakery in Lisbon.")
    assert [f.text for f in drafted] == ["Theo restores old motorbikes in Theo's garage",
                                         "Theo's sister runs a bakery in Lisbon"]


def test_a_statement_after_an_answer_joins_it_with_the_answers_sources() -> None:
    [fact] = facts("Mostly I fix old motorbikes. It keeps me out of trouble.", before="What do you do on weekends?")
    assert fact.source_turn_ids == ["D1:1", "D1:2"]
    assert fact.text.endswith("; it keeps Theo out of trouble")


def _draft(text: str, speaker: str = "Theo", sources: tuple[str, ...] = ("D1:2",),
           provenance: Provenance = Provenance.STATED) -> FactDraft:
    return FactDraft(text=text, speaker=speaker, source_turn_ids=list(sources), provenance=provenance)


@pytest.mark.parametrize("earlier", [
    _draft("Theo bakes rye bread", speaker="Noor"),  # another speaker's fact
    _draft("Theo bakes rye bread", sources=("D1:5",)),  # another message
    _draft('Theo asked Maya: "Did Maya like the rye bread?"'),  # a question kept as asked
])
def test_a_piece_joins_only_the_same_speakers_fact_of_its_message(earlier: FactDraft) -> None:
    drafts = [earlier]
    assert not leaning.joined_back(drafts, _draft("It takes Theo two days"))
    assert drafts == [earlier]


def test_the_joined_fact_is_stated_when_either_part_was() -> None:
    drafts = [_draft("Theo might bake rye bread", provenance=Provenance.HEDGED)]
    assert leaning.joined_back(drafts, _draft("It takes Theo two days"))
    assert drafts[0].provenance == Provenance.STATED and drafts[0].text.endswith("; it takes Theo two days")


@pytest.mark.parametrize("text, back", [("It takes two days", True), ("Also the crust", True),
                                        ("they're fresh", True), ("Theo bakes", False), ("Italy is far", False),
                                        ("", False)])
def test_points_back_reads_the_first_word(text: str, back: bool) -> None:
    assert leaning.points_back(text) is back


def test_the_model_prompt_says_the_same() -> None:
    from dmem.prompts.formation import SPLIT_SYSTEM

    assert "A sentence that points back to the one before it" in SPLIT_SYSTEM
