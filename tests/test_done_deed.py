"""A chat line telling in one word what the speaker did is their world (``worldline.done_deed``).

Terse chat announces a completed deed with its "I" dropped and nothing else: "PASSED", "signed btw", "sent",
"didn't go". Judged as one unit the line has one answer word, under ``LINE_LOOSE_WORDS``; a simple past (or a
negated verb) opening the clause is enough then. Kept out: acknowledgements ("noted"), states ("tired"), what the
speaker is doing now, a past pointing at what the listener said ("didn't think of that"), a line about the
listener, and a one-word past right after the listener told their own news ("disciplined": it judges them).
Invented conversations only.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import worldline
from tests.chat_lines import ChatLines

CHAT = ChatLines("W9", datetime(2026, 6, 2, 18, 5), "good luck today, text me after")
"""Ivo's turn before each line asks nothing and tells nothing of his own."""
_DID = "admitted: a chat line telling what the speaker did"


@pytest.mark.parametrize("text", ["PASSED 🚗🚗", "signed btw 🔑", "sent", "entered", "booked ✅", "we survived",
                                  "failed 🙃", "just submitted"])
def test_a_lone_past_tells_what_the_speaker_did(text: str) -> None:
    admitted, reason = CHAT.judged(text)
    assert admitted and reason.startswith(_DID), reason


def test_a_negated_deed_answers_a_question_about_it() -> None:
    admitted, reason = CHAT.judged("didn't go", before="how was the island trip!!")
    assert admitted and reason.startswith(_DID), reason


def test_the_deed_forms_one_fact_naming_the_speaker() -> None:
    assert CHAT.facts("PASSED 🚗🚗") == ["Noor: Noor passed"]


@pytest.mark.parametrize("text", [
    "noted",  # an acknowledgement of what the listener said
    "tired",  # a state
    "done",  # a participle, no simple past
    "eating now",  # what the speaker is doing right now
    "didn't think of that",  # pointing at what the listener said
    "you passed",  # the listener
    "need",  # -eed is no past
])
def test_what_is_no_deed_of_the_speakers_stays_out(text: str) -> None:
    admitted, reason = CHAT.judged(text)
    assert not admitted, reason


def test_a_lone_past_after_the_listeners_own_news_judges_it() -> None:
    before = "I've been running three mornings a week since March"
    admitted, reason = CHAT.judged("disciplined", before=before)
    assert not admitted and reason.startswith("rejected: too little detail to tell"), reason


def test_done_deed_names_the_verb() -> None:
    assert worldline.done_deed(["I passed"], ["passed"]) == "passed"
    assert worldline.done_deed(["didn't go"], ["go"]) == "didn't go"
    assert worldline.done_deed(["the boiler"], ["boiler"]) is None
