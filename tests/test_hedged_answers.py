"""Answers told as a fragment of the other's line and hedged answers written as questions (issue #26, stop 61, h61e).

"probably dumplings?" after "favourite food?" is an answer with a hedge, not a question: it forms the fact the two
lines make together, kept as hedged, the question's turn a source. A bare "did" after the other's instruction
("call the plumber!") says it was done. A question asked back ("and you?", "why?", "no idea?"), a reaction and
filler stay out. Invented conversations only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message, Provenance
from dmem.text.asked import hedged_answer, reply_answers
from dmem.text.crossed import replied_question
from tests.conftest import chat_turn

TS = datetime(2027, 10, 3, 20, 15)
turn = functools.partial(chat_turn, session="D4", when=TS)
NAMES = ("Perpetua", "Dunstan")


def drafted(said: Message, prior: list[Message]) -> tuple[bool, str, list[tuple[str, list[str], Provenance]]]:
    """The offline engine on ``said`` after ``prior``: admitted, the reason, the facts with sources and provenance."""
    engine = OfflineDecider(HashEmbeddings())
    verdict = engine.admit([said], prior, []).value.verdicts[0]
    facts = engine.split([said], prior, []).value.facts if verdict.admit else []
    return verdict.admit, verdict.reason, [(f.text, f.source_turn_ids, f.provenance) for f in facts]


@pytest.mark.parametrize(("question", "reply", "said"), [
    ("favourite food?", "probably dumplings?", "dumplings"),
    ("what's your favourite food?", "probably dumplings?", "dumplings"),
    ("where would you move if you could?", "Tarbury maybe?", "Tarbury"),
    ("tea or coffee?", "coffee probably?", "coffee"),
    ("what do you do for work?", "hmm. nursing probably?", "nursing"),
])
def test_a_hedged_answer_written_as_a_question_forms_with_its_question(question: str, reply: str, said: str) -> None:
    """On the main of before, each reply was rejected as 'question without a first-person fact'."""
    admit, reason, facts = drafted(turn(reply, "Dunstan", 2), [turn(question, "Perpetua", 1)])
    assert admit and "kept as hedged" in reason, reason
    assert facts and facts[0][1] == ["D4:1", "D4:2"], facts
    assert said in facts[0][0] and facts[0][2] == Provenance.HEDGED, facts


@pytest.mark.parametrize("reply", ["and you?", "why?", "no idea?", "maybe?", "what about you?", "the sushi place?",
                                   "maybe you could cook?", "lol?", "you first?"])
def test_a_question_asked_back_forms_nothing(reply: str) -> None:
    assert not hedged_answer("what's your favourite food?", reply)
    assert not hedged_answer("what's your favourite food?", f"idk {reply}")
    admit, reason, _ = drafted(turn(reply, "Dunstan", 2), [turn("what's your favourite food?", "Perpetua", 1)])
    assert not admit, reason


@pytest.mark.parametrize(("question", "reply"), [
    ("antwerp?", "maybe antwerp?"),  # echoes a check: a hedged yes, not a value
    ("are you free saturday?", "maybe sunday?"),  # a counter-offer to a yes/no question
    ("I'm starving", "probably pizza?"),  # no question before
    ("did Merrow like it?", "probably the cake?"),  # asks about someone else
])
def test_a_hedged_question_after_no_question_to_the_listener_is_no_answer(question: str, reply: str) -> None:
    assert not hedged_answer(question, reply)


def test_the_line_after_a_hedged_answer_does_not_answer_it_as_a_question() -> None:
    """On the main of before, "probably? jaja" was framed as answering the question "probably dumplings?"."""
    prior = [("Perpetua", "favourite food?"), ("Dunstan", "probably dumplings?")]
    assert replied_question(("Perpetua", "probably? haha"), prior) is None
    assert reply_answers("favourite food?", "probably dumplings?", NAMES)


@pytest.mark.parametrize(("told", "reply", "fact"), [
    ("call the plumber!", 'did. he says "on friday"', "Dunstan called the plumber"),
    ("Email your tutors. They'll understand.", "did", "Dunstan emailed Dunstan's tutors"),
    ("book the ferry tickets", "i did", "Dunstan booked the ferry tickets"),
])
def test_a_bare_did_after_an_instruction_says_it_was_done(told: str, reply: str, fact: str) -> None:
    """On the main of before, each reply was rejected as vague."""
    admit, reason, facts = drafted(turn(reply, "Dunstan", 2), [turn(told, "Perpetua", 1)])
    assert admit, reason
    assert facts and facts[0][0].startswith(fact) and facts[0][1] == ["D4:1", "D4:2"], facts


@pytest.mark.parametrize(("before", "reply"), [
    ("sounds good", "did"),  # no instruction
    ("u didnt have to", "i did"),  # chat's pronoun opens it, no verb
    ("thanks for the lift", "did it"),
    ("call the plumber!", "haha"),  # filler
    ("call the plumber!", "will do"),  # a promise, nothing done
    ("did you like the film?", "lol"),
])
def test_filler_and_promises_after_an_instruction_stay_out(before: str, reply: str) -> None:
    admit, reason, _ = drafted(turn(reply, "Dunstan", 2), [turn(before, "Perpetua", 1)])
    assert not admit, reason
