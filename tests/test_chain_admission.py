"""Chain-aware offline admission: a reply with its question, a hedge as a confidence, a continued
topic, a question that carries a fact; filler still rejected. Invented conversations only."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.decisions.model import ModelDecider
from dmem.decisions.offline.chains import answer_statement, continued
from dmem.decisions.offline.decider import OfflineDecider
from dmem.state.schemas import MemoryRecord, Provenance
from dmem.testing import FakeChatModel
from tests.conftest import chat_turn

TS = datetime(2025, 3, 9, 17, 30)


turn = functools.partial(chat_turn, session="D2", when=TS)
"""A turn of the invented chat, at ``TS``."""


def memory(text: str) -> MemoryRecord:
    now = datetime(2025, 3, 1, tzinfo=UTC)
    return MemoryRecord(id="m1", namespace="noor", text=text, speaker="Noor", source_turn_ids=["D1:4"],
                        created_at=now, updated_at=now)


def test_a_fragment_answer_becomes_a_fact_stating_both_with_both_turns(decider: OfflineDecider) -> None:
    asked = turn("Nice! What's your favourite board game?", "Ivo", 1)
    reply = turn("Probably Tidewater.", "Noor", 2)
    verdict = decider.admit([reply], [asked], []).value.verdicts[0]
    assert verdict.admit and "answer to Ivo's question" in verdict.reason and "hedged ('Probably')" in verdict.reason
    facts = decider.split([reply], [asked], []).value.facts
    assert [(f.text, f.source_turn_ids, f.provenance) for f in facts] == [
        ("Noor's favourite board game is Tidewater", ["D2:1", "D2:2"], Provenance.HEDGED)]


@pytest.mark.parametrize(
    ("question", "reply", "fact"),
    [
        ("What is your sister's name?", "It's Leila.", "Noor's sister's name is Leila"),
        ("Where did you grow up?", "In a fishing village up north.", "Noor grew up in a fishing village up north"),
        ("Where do you work now?", "The harbour museum.", "Noor works now in the harbour museum"),
        ("Who's your dentist?", "Dr. Okafor on Mill Street", "Noor's dentist is Dr. Okafor on Mill Street"),
        ("Did you like it?", "Yes, a lot.", None),  # a yes/no question has no simple statement shape
    ],
)
def test_answer_statement(question: str, reply: str, fact: str | None) -> None:
    assert answer_statement(question, reply, "Noor") == fact


@pytest.mark.parametrize(
    "text",
    ["I think Tidewater is one of my favourite games.", "My favourite is probably the green one with sails.",
     "I might move to the coast next spring."],
)
def test_a_hedge_is_a_confidence_not_a_rejection(decider: OfflineDecider, text: str) -> None:
    said = turn(text, "Noor", 1)
    verdict = decider.admit([said], [], []).value.verdicts[0]
    assert verdict.admit and "kept as hedged" in verdict.reason
    assert {f.provenance for f in decider.split([said], [], []).value.facts} == {Provenance.HEDGED}


def test_a_turn_continuing_a_stored_topic_is_admitted(decider: OfflineDecider) -> None:
    stored = memory("Noor is restoring an old wooden sailboat named Petrel in the harbour shed")
    said = turn("The old wooden sailboat finally left the harbour shed!", "Noor", 1)  # no name: not reusable alone
    alone = decider.admit([said], [], []).value.verdicts[0]
    assert not alone.admit and "no personal fact" in alone.reason
    chained = decider.admit([said], [], [stored]).value.verdicts[0]
    assert chained.admit and "continues a stored topic" in chained.reason
    facts = decider.split([said], [], [stored]).value.facts
    assert [f.text for f in facts] == ["The old wooden sailboat finally left the harbour shed"]
    assert facts[0].source_turn_ids == ["D2:1"]


def test_a_stored_memory_on_another_topic_is_not_continued() -> None:
    assert continued("The old wooden sailboat Petrel finally left the harbour shed", [
        "Noor adopted a grey cat from the shelter", "Ivo plays the cello in an amateur orchestra"]) is None


def test_a_question_that_carries_a_fact_yields_it(decider: OfflineDecider) -> None:
    said = turn("Did you finish reading the puzzle book I lent you?", "Noor", 2)
    before = turn("Long week at the library.", "Ivo", 1)
    verdict = decider.admit([said], [before], []).value.verdicts[0]
    assert verdict.admit and "question carrying a fact" in verdict.reason
    facts = decider.split([said], [before], []).value.facts
    assert [(f.text, f.provenance) for f in facts] == [("Noor lent Ivo the puzzle book", Provenance.INFERRED)]


@pytest.mark.parametrize(
    "text", ["ok", "lol", "Thanks!", "Good night!", "How are you?", "Wow, that's great!", "haha yes", "sure"],
)
def test_filler_stays_rejected_with_a_question_and_memories_around(decider: OfflineDecider, text: str) -> None:
    asked = turn("How was the regatta with the Petrel crew?", "Ivo", 1)
    stored = memory("Noor sails the Petrel with a crew of four at the spring regatta")
    for prior in ([], [asked]):
        assert decider.admit([turn(text, "Noor", 2)], prior, [stored]).value.verdicts[0].admit is False


def test_ingestion_keeps_the_question_turn_as_a_source_of_the_answer(tmp_path: Path) -> None:
    """A rejected question and its admitted fragment reply, in one exchange: the memory names both turns."""
    turns = [turn("What's your favourite board game?", "Ivo", 1), turn("Tidewater, by far.", "Noor", 2)]
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        res = mem.add(turns, user_id="noor", conversation_id="c1")
        assert [d.admitted for d in res.exchanges[0].admissions] == [False, True]
        records = mem.get_all(user_id="noor")
    assert [(r.text, r.source_turn_ids) for r in records] == [
        ("Noor's favourite board game is Tidewater, by far", ["D2:1", "D2:2"])]


def test_model_split_names_the_question_a_reply_answers_as_a_source() -> None:
    """The model states question and reply as one fact; the check adds the question's turn as a source."""
    reply = {"facts": [{"text": "Noor's favourite board game is Tidewater", "speaker": "Noor",
                        "source_turn_ids": ["1"], "categories": ["preference"], "provenance": "hedged"},
                       {"text": "Noor plays Tidewater", "speaker": "Noor", "source_turn_ids": ["1"]}]}
    model = FakeChatModel(script={"FactDrafts": [reply]})
    asked = turn("What's your favourite board game?", "Ivo", 1)
    out = ModelDecider(model).split([turn("Probably Tidewater.", "Noor", 2)], [asked], []).value.facts
    assert [(f.source_turn_ids, f.provenance) for f in out] == [(["D2:1", "D2:2"], Provenance.HEDGED),
                                                                (["D2:2"], Provenance.STATED)]
    system = str(model.calls_for("FactDrafts")[0].messages[0].content)
    assert "states the fact with the question's context" in system and "'hedged' when said with a hedge" in system


def test_model_admission_sees_the_memories_a_turn_may_continue() -> None:
    verdicts = {"verdicts": [{"turn_id": "1", "reason": "continues the stored sailboat project", "admit": True}]}
    model = FakeChatModel(script={"AdmissionVerdicts": [verdicts]})
    stored = memory("Noor is restoring an old wooden sailboat named Petrel")
    said = turn("The Petrel left the shed!", "Noor", 1)
    assert ModelDecider(model).admit([said], [], [stored]).value.verdicts[0].admit
    prompt = "\n".join(str(m.content) for m in model.calls_for("AdmissionVerdicts")[0].messages)
    assert "<existing_memories>" in prompt and "restoring an old wooden sailboat" in prompt
    assert "A hedge is not a reason to reject" in prompt
