"""A line opening with the listener's person ("your dad's paying") forms what the speaker says of them, with the
listener as their owner (``listener_people``); a possessive, a guess, an impression or a question stays out. A he/she
line's person named with a Latin-1 capital ("Inès") is read (``recalled``). Invented people."""

from __future__ import annotations

import pytest

from dmem.decisions.offline import listener_people, recalled
from dmem.decisions.offline.circle import Circle
from dmem.state.schemas import Message
from tests.conftest import T0, chat_turn, drafted_texts

SPEAKER, OTHER = "Ysolde", "Branwen"
BEFORE = [(OTHER, "the cake came to 160 in the end"), (SPEAKER, "worth it"), (OTHER, "it had better be")]


def _lines(lines: list[tuple[str, str]]) -> list[Message]:
    return [chat_turn(t, who, i + 1, session="D4", when=T0) for i, (who, t) in enumerate(lines)]


def _said(text: str, lines: list[tuple[str, str]]) -> tuple[Message, list[Message]]:
    return chat_turn(text, SPEAKER, len(lines) + 1, session="D4", when=T0), _lines(lines)


def _drafted(text: str, lines: list[tuple[str, str]] = BEFORE) -> list[str]:
    return drafted_texts(*_said(text, lines))


def test_a_line_opening_with_the_listeners_dad_forms_what_the_speaker_says_of_him() -> None:
    facts = _drafted("Your dad's paying, so it's your dad's money.")
    assert any(f.startswith("Ysolde says Branwen's dad is paying, so it's Branwen's dad's money") for f in facts), \
        facts


@pytest.mark.parametrize(("text", "written"), [
    ("your sister rang the school about the trip", "Ysolde says Branwen's sister rang the school about the trip"),
    ("Oh and your mum's been to the allotment twice", "Ysolde says Branwen's mum has been to the allotment twice"),
    ("your landlord fixed the boiler on tuesday", "Ysolde says Branwen's landlord fixed the boiler on tuesday"),
])
def test_the_listeners_person_is_written_with_the_listener_as_owner(text: str, written: str) -> None:
    said, prior = _said(text, BEFORE)
    found = listener_people.read(text, Circle(said, prior, OTHER))
    assert found is not None and found.text == written
    assert found.person.owner == OTHER


@pytest.mark.parametrize("text", [
    "your mum's wedding is on saturday",  # a possessive's noun, not the mum's doing
    "your dad's garage is full of canoes",  # a possessive
    "your dad would love that",  # a guess
    "your mum sounds lovely",  # an impression
    "your sister is coming too?",  # a question
    "your man at the desk said no",  # "your man": that man, no one's
    "your gran says you never call her",  # the listener again
])
def test_a_possessive_a_guess_an_impression_or_a_question_stays_unread(text: str) -> None:
    said, prior = _said(text, BEFORE)
    assert listener_people.read(text, Circle(said, prior, OTHER)) is None


def test_a_he_she_line_reads_a_latin1_name_named_lines_before() -> None:
    lines = [(OTHER, "the driving test was today. Inès came home at six and ate a whole pizza"), (SPEAKER, "and??")]
    said, prior = _said("she says the parking went badly but the roundabouts were fine", lines)
    found = recalled.read(said.text or "", Circle(said, prior, OTHER))
    assert found is not None and found.text == "Inès says the parking went badly but the roundabouts were fine"
