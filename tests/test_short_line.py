"""A short chat line that states something is the speaker's world at the loosened default (``worldline``):
``LINE_LOOSE_WORDS`` answer words are enough when the line is one plain statement of the speaker's, no anchor
needed. Reactions, questions without their mark, lines pointing at what was just said, what the speaker is doing
right now, stage directions and repeated words stay out at every setting. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import worldline
from tests.chat_lines import ChatLines

CHAT = ChatLines("W7", datetime(2026, 5, 9, 19, 40), "Ha, fair enough.")
"""Ivo's turn before each line asks nothing, so no line is admitted as an answer."""
_SHORT = "admitted: a short chat line stating the speaker's world"


@pytest.fixture
def loose(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The dial at its loosest setting a test names (``worldline.LINE_LOOSE_WORDS``)."""
    return monkeypatch


@pytest.mark.parametrize("text", ["the boiler packed in", "lol the soggy boots"])
def test_two_answer_words_stating_something_are_the_speakers_world(text: str) -> None:
    admitted, reason = CHAT.judged(text)
    assert admitted and reason.startswith(_SHORT), reason


def test_the_short_line_forms_one_fact_naming_the_speaker() -> None:
    assert CHAT.facts("the boiler packed in") == ["Noor: The boiler packed in"]


@pytest.mark.parametrize("text", ["its draughty", "it's an automatic btw"])
def test_one_answer_word_needs_the_dial_at_one(loose: pytest.MonkeyPatch, text: str) -> None:
    assert not CHAT.judged(text)[0]  # the default asks two words
    loose.setattr(worldline, "LINE_LOOSE_WORDS", 1)
    admitted, reason = CHAT.judged(text)
    assert admitted and reason.startswith(_SHORT), reason


def test_the_dial_at_the_default_minimum_turns_the_tier_off(loose: pytest.MonkeyPatch) -> None:
    loose.setattr(worldline, "LINE_LOOSE_WORDS", worldline.LINE_MIN_WORDS)
    admitted, reason = CHAT.judged("the boiler packed in")
    assert not admitted and reason.startswith("rejected: too little detail to tell"), reason


@pytest.mark.parametrize("text", [
    "night night",  # a word said twice
    "hows the puppy",  # a question without its mark
    "thats what she said",  # a demonstrative pointing at what was just said
    "eating dinner lol",  # what the speaker is doing right now
    "[sends a photo]",  # a stage direction
    "you nailed it",  # the listener
    "Good night",
    "solid plan",  # no verb: a reaction
])
@pytest.mark.parametrize("setting", [2, 1])
def test_reactions_questions_and_the_moment_stay_out(loose: pytest.MonkeyPatch, text: str, setting: int) -> None:
    loose.setattr(worldline, "LINE_LOOSE_WORDS", setting)
    admitted, reason = CHAT.judged(text)
    assert not admitted, reason


def test_the_guards_read_the_clause_not_a_word_list() -> None:
    assert worldline.short_statement(["the kiln cracked"], [None], ["kiln", "cracked"])
    assert not worldline.short_statement(["the kiln cracked", "so cool"], [None, "a reaction"], ["kiln", "cracked"])
    assert not worldline.short_statement(["baking bread"], [None], ["baking", "bread"])
