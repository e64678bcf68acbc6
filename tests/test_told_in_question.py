"""What the asker tells inside a question is their statement (issue #26, stop 56).

A tag ('I told you I'm leaving Hull, right?'), a question's rise ('you know I've been learning the harp since
June?'), a judgement ('isn't it odd that I've never ridden a bike?'), the asker's own plan with their own thing
asked as advice ('should I sell my old tandem before we move?', kept hedged) and the asker's line after an echo
('Stew again? I had it on monday.') tell the asker's fact; questions that only ask, in the first person or not,
stay rejected. Invented people and lines only: Saoirse asks, Tamsin is asked.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import embedded
from dmem.state.schemas import Provenance
from tests.conftest import chat_turn, drafted_after

turn = functools.partial(chat_turn, session="D2", when=datetime(2025, 6, 2, 19, 0))


def drafted(question: str, before: str = "Quiet evening here.") -> tuple[bool, str, list[tuple[str, Provenance]]]:
    """Saoirse's turn after a turn of Tamsin: admitted, the reason, the facts drafted."""
    return drafted_after(turn(before, "Tamsin", 1), turn(question, "Saoirse", 2))


@pytest.mark.parametrize(("question", "fact"), [
    ("I told you I'm leaving Hull in august, right?", "Saoirse told Tamsin Saoirse is leaving Hull in august"),
    ("I'm away the whole of october, did I say?", "Saoirse is away the whole of october"),
    ("You know I've been learning the harp since June?", "Saoirse has been learning the harp since June"),
    ("Isn't it odd that I've never ridden a bike?", "Saoirse has never ridden a bike"),
    ("I remember you said you grew up in Cork, is that right?", "Saoirse remembers Tamsin said Tamsin grew up in Cork"),
])
def test_the_askers_statement_inside_a_question_is_told(question: str, fact: str) -> None:
    admitted, reason, facts = drafted(question)
    assert admitted and "the asker's own statement in a question" in reason
    assert (fact, Provenance.STATED) in facts
    assert not any(text.endswith("?") or "asked" in text for text, _ in facts)  # a statement, not the question


def test_the_askers_own_plan_asked_as_advice_is_kept_hedged() -> None:
    admitted, _, facts = drafted("Should I sell my old tandem before the move?", "The removal van is booked.")
    assert admitted
    assert facts[0][1] == Provenance.HEDGED and facts[0][0].startswith("Saoirse might sell")
    assert "tandem" in facts[0][0]


def test_the_askers_line_after_an_echo_puts_the_echo_in_for_its_pointer() -> None:
    admitted, _, facts = drafted("Stew again? I had it on monday.", "Dinner is stew.")
    assert admitted and ("Saoirse had stew on monday", Provenance.STATED) in facts


@pytest.mark.parametrize("question", [
    "Should I get a haircut?",  # the asker's plan with nothing of their own
    "Am I the only one still up?",
    "Do I look tired?",
    "Can I ask you something?",
    "Wild, right?",  # a tag on nothing of the asker's
    "You know what I mean?",
    "Oona from the front desk here, what can I get for you?",  # still asks after the comma: nothing told by a rise
    "I'm curious to know if you ever sing?",  # an indirect question
    "Is it normal to feel this cold?",  # a judgement with no clause of the asker's
    "Where should we eat tonight?",
])
def test_questions_that_tell_nothing_of_the_asker_stay_rejected(question: str) -> None:
    admitted, reason, _ = drafted(question, "Just got home.")
    assert not admitted, reason


def test_an_echo_needs_the_askers_line_to_point_back_and_be_too_vague_alone() -> None:
    judged = {"I had it on monday": False, "I had stew on monday": True}.get
    echo = embedded.embedded("Stew again?", lambda s: s.split(), frozenset(), set(),
                             lambda s: bool(judged(s)), then="I had it on monday.")
    assert echo is not None and echo.said == "I had stew on monday" and echo.told
    # the line kept on its own: the echo adds nothing; no pointer or no line after: nothing
    assert embedded.embedded("Stew again?", lambda s: s.split(), frozenset(), set(), lambda s: True,
                             then="I had it on monday.") is None
    assert embedded.embedded("Stew again?", lambda s: s.split(), frozenset(), set(), lambda s: True,
                             then="I love Mondays.") is None
    assert embedded.embedded("What again?", lambda s: s.split(), frozenset(), set(), lambda s: True,
                             then="I had it on monday.") is None


def test_the_prompts_say_what_the_offline_rules_do() -> None:
    from dmem.prompts.formation import ADMIT_SYSTEM, SPLIT_SYSTEM

    assert "tells inside a question" in ADMIT_SYSTEM and "should I get a haircut?" in ADMIT_SYSTEM
    assert "tells inside a question is written as their statement" in SPLIT_SYSTEM and "(hedged)" in SPLIT_SYSTEM
