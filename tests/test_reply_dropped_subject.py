"""A reply that drops its subject, to a question about a person of the listener's ("how's your sister?"), speaks
of that person, not of the speaker: "doing great now" gives "Noor's sister is doing great now", with the
question's turn as a source. The speaker stays the subject when the reply names the person as an object ("haven't
seen her") or the question asks about the listener. Invented people only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.replies import asked_person
from dmem.decisions.offline.splitting import facts_from_message
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="R4", when=datetime(2025, 6, 21, 9, 5))
"""A turn of the invented chat."""


def _facts(question: str, reply: str) -> list[tuple[str, list[str]]]:
    said = [turn(question, "Wren", 1), turn(reply, "Noor", 2)]
    return [(f.text, f.source_turn_ids) for f in facts_from_message(said[1], said, [], gated=True)]


@pytest.mark.parametrize(("question", "reply", "fact"), [
    ("how's your sister?", "doing great now, she started uni", "Noor's sister is doing great now, she started uni"),
    ("what's your brother up to these days?", "working at a bike shop in Ghent",
     "Noor's brother is working at a bike shop in Ghent"),
    ("is ur sister still in Porto?", "moved back to Lyon in march", "Noor's sister moved back to Lyon in march"),
    ("how's your dad?", "still working at the mill, I visit him on sundays",
     "Noor's dad is still working at the mill, Noor visits him on sundays"),
    ("how is your dad doing?", "haven't slept much since the surgery",
     "Noor's dad hasn't slept much since the surgery"),
])
def test_a_dropped_subject_is_the_person_the_question_asked_about(question: str, reply: str, fact: str) -> None:
    assert _facts(question, reply) == [(fact, ["R4:1", "R4:2"])]


@pytest.mark.parametrize(("question", "reply", "fact"), [
    ("how's your sister?", "haven't seen her in weeks tbh", "Noor hasn't seen her in weeks"),
    ("how are you and your sister?", "moved to Lyon in march", "Noor moved to Lyon in march"),
    ("how was the wedding?", "moved to Lyon in march", "Noor moved to Lyon in march"),
])
def test_the_speaker_keeps_the_subject_otherwise(question: str, reply: str, fact: str) -> None:
    assert [text for text, _ in _facts(question, reply)] == [fact]


def test_the_question_names_one_person_of_the_listeners() -> None:
    assert [asked_person(q) for q in ("how's your sister?", "is ur little brother still in Ghent",
                                      "did you see your dad?", "how are your parents?", "how's the puppy?")] \
        == ["sister", "brother", None, None, None]
