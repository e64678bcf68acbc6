"""The speaker's own world told without "I" (``ownworld``), offline: a sentence of a long line whose subject is a
thing of the speaker's own (called 'my' before, stored as theirs, or a particular of what they told) is admitted,
the sentences after it that go on about it join it as one fact; general truths, modals, remarks on the listener and
things of the world stay out. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import ownworld
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.splitting import split_messages
from tests.conftest import chat_turn

WHEN = datetime(2026, 3, 2, 20, 15)
MEMORIES = ["Theo has a beagle named Biscuit", "Theo plays Tinder Keep most evenings",
            "Theo: the allotment is on Fenwick Road", "Mara keeps bees on the common",
            "Theo has a canoe from his uncle"]
"""Stored memories of Theo (and one of Mara, the listener)."""


def _turns(text: str, before: str = "Haha same here, long week", earlier: str | None = None) -> list:
    prior = [chat_turn(earlier, "Theo", 1, session="W1", when=WHEN)] if earlier else []
    prior.append(chat_turn(before, "Mara", 2, session="W1", when=WHEN))
    return [*prior, chat_turn(text, "Theo", 3, session="W1", when=WHEN)]


def _judged(text: str, earlier: str | None = None, memories: list[str] = MEMORIES) -> tuple[bool, str]:
    *prior, line = _turns(text, earlier=earlier)
    return judge_utterance(line, prior, memories)


def _facts(text: str, memories: list[str] = MEMORIES) -> list[tuple[str, list[str]]]:
    *prior, line = _turns(text)
    return [(d.text, d.source_turn_ids) for d in split_messages([line], prior, gated=True, memories=memories)]


@pytest.mark.parametrize(("text", "why"), [
    ("Biscuit is doing much better now. The vet put him on a new diet and he lost two kilos since March.",
     "'biscuit', stored as theirs"),  # a name stored as theirs: its evaluation is news about it
    ("The canoe needed a new seat after the river trip.", "'cano', stored as theirs"),
    ("The allotment is mostly potatoes this year.", "'allot', a particular of what they told before"),
])
def test_a_line_about_a_stored_thing_of_the_speaker_is_admitted(text: str, why: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert reason == f"admitted: about the speaker's own thing ({why})"


def test_a_thing_called_my_earlier_in_the_chat_is_the_speakers() -> None:
    line = "The kiln reached temperature in the normal time, no clicking at all."
    assert _judged(line, earlier="ugh my kiln keeps clicking again", memories=[]) == (
        True, "admitted: about the speaker's own thing ('kiln', said as theirs before)")
    # nothing made the kiln theirs: not admitted as their own thing, but as a line telling an event with
    # concrete detail, by the line default (``worldline``)
    assert _judged(line, memories=[])[1].startswith("admitted: a chat line telling the speaker's world")


@pytest.mark.parametrize("text", [
    "Traffic in big cities is awful, the buses are always late.",  # the world at large
    "Beagles are stubborn dogs, everyone says so.",  # a generic truth, though the beagle is stored
    "Allotments can take over your whole weekend.",  # what may be, and the listener
    "The bees swarmed twice this spring.",  # the listener's bees: stored, but not of the speaker
])
def test_what_is_not_the_speakers_world_stays_out(text: str) -> None:
    assert not _judged(text)[0], text


def test_a_name_of_the_world_sharing_a_stored_word_is_not_the_speakers_thing() -> None:
    assert ownworld.owned("The Fenwick Road bus got cancelled again.", "Theo", "", [], MEMORIES) is None


def test_the_sentences_going_on_about_the_thing_are_one_fact_with_the_speaker_named() -> None:
    facts = _facts("Biscuit is doing much better now. The vet put him on a new diet and he lost two kilos "
                   "since March. He still begs at the table every night.")
    assert len(facts) == 1, facts
    text, sources = facts[0]
    assert text.startswith("Theo: Biscuit is doing much better now")
    assert "new diet" in text and "begs at the table" in text
    assert sources == ["W1:3"]


def test_the_subject_head_is_the_last_word_before_the_verb() -> None:
    assert ownworld.subject_head("The swift boxes are up on the tower") == "box"
    assert ownworld.subject_head("Swimming is good for the back") is None  # a gerund alone: an activity
    assert ownworld.subject_head("Hmm not sure about that one tbh honestly mate") is None  # no verb
