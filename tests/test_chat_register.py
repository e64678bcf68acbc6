"""Chat's casual register after a turn that asks nothing: a taste, trait, habit, past or plan said with emoji,
laughter, chat spellings or a dropped "I", and a rating of something the speaker had, are facts about the
speaker; a hypothetical, a short compliment to the listener, tiredness and filler of the same register are not.
Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.model import ModelDecider
from dmem.testing import FakeChatModel
from tests.chat_lines import ChatLines

AGREEING = "Ha, fair enough."
"""Ivo's turn before each line: it asks nothing, so no line is admitted as an answer."""
CHAT = ChatLines("R2", datetime(2025, 11, 14, 19, 40), AGREEING)
turn = CHAT.turn
"""A turn of the invented chat."""
_judged, _facts = CHAT.judged, CHAT.facts


@pytest.mark.parametrize(("text", "fact"), [
    ("usually swim before work lol", "Noor usually swims before work"),
    ("big fan of pickled ginger tbh", "Noor is a big fan of pickled ginger"),
    ("so into birdwatching these days 🐦", "Noor is into birdwatching these days"),
    ("allergic to peanuts ngl", "Noor is allergic to peanuts"),
    ("such a night owl haha", "Noor is such a night owl"),
    ("used to sing in a choir", "Noor used to sing in a choir"),
    ("read a thriller last weekend", "Noor read a thriller last weekend"),
    ("tried kayaking with my cousins", "Noor tried kayaking with Noor's cousins"),
    ("biking to the lakes on sunday", "Noor is biking to the lakes on sunday"),
    ("gonna take a welding course next month", "Noor is going to take a welding course next month"),
])
def test_a_personal_fact_in_casual_register_is_kept_as_written_out(text: str, fact: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert _facts(text)[0] == fact


@pytest.mark.parametrize(("text", "fact"), [
    ("the noodle bar on the pier was a solid 7/10", "Noor's opinion: the noodle bar on the pier was a solid 7/10"),
    ("that ferry ride was 10/10 would book again", "Noor's opinion: that ferry ride was 10/10 would book again"),
    ("the motel was two stars, would not recommend", "Noor's opinion: the motel was two stars, would not recommend"),
])
def test_a_rating_of_something_the_speaker_had_is_their_opinion(text: str, fact: str) -> None:
    admitted, reason = _judged(text)
    assert admitted and "rating" in reason, reason
    assert _facts(text) == [fact]


def test_a_rating_of_what_the_other_speaker_made_is_theirs() -> None:
    before = "I baked a plum tart for the neighbours."
    assert not _judged("the tart looks 10/10", before)[0]
    assert _judged("the tart at the market was 10/10")[0]


@pytest.mark.parametrize(("text", "why"), [
    ("if I won the raffle I'd buy a sailboat", "hypothetical"),
    ("imagine if we lived upstate lol", "hypothetical"),
    ("if I were taller I'd play basketball", "hypothetical"),
    ("you're so kind", "compliment"),
    ("love that for you", "compliment"),
    ("ur the best haha", "compliment"),
])
def test_what_only_sounds_personal_is_rejected(text: str, why: str) -> None:
    admitted, reason = _judged(text)
    assert not admitted and why in reason, reason


@pytest.mark.parametrize("text", ["so sleepy", "exhausted rn", "dead tired lol", "exhausted, long shift"])
def test_tiredness_said_the_chat_way_is_transient(text: str) -> None:
    admitted, reason = _judged(text)
    assert not admitted and "transient" in reason, reason


@pytest.mark.parametrize(("filler", "fact"), [
    ("lol", "lol used to live on a houseboat"), ("hahaha 😂", "hahaha 😂 usually knit on the train"),
    ("lmao", "lmao quit the band last week"), ("ok tbh", "ok tbh terrible at parking"),
    ("thx!", "thx! gonna foster a greyhound next month"), ("omg 😍😍", "omg 😍😍 obsessed with sourdough"),
])
def test_laughter_and_markers_alone_stay_filler_but_do_not_hide_a_fact(filler: str, fact: str) -> None:
    assert not _judged(filler)[0]
    admitted, reason = _judged(fact)
    assert admitted, reason


def test_only_a_short_compliment_is_no_fact() -> None:
    assert not _judged("so proud of u")[0]
    admitted, reason = _judged("so proud of u, moved my whole studio to the old mill last spring")
    assert admitted, reason


def test_the_model_prompt_says_casual_register_is_read_written_out() -> None:
    verdicts = {"verdicts": [{"turn_id": "1", "reason": "the speaker's habit", "admit": True}]}
    model = FakeChatModel(script={"AdmissionVerdicts": [verdicts]})
    said, prior = turn("usually swim before work lol", "Noor", 2), [turn(AGREEING, "Ivo", 1)]
    ModelDecider(model).admit([said], prior, [])
    admit = str(model.calls_for("AdmissionVerdicts")[0].messages[0].content)
    assert "Read casual chat as if it were written out" in admit
    assert "a hypothetical" in admit and "a short compliment to the listener" in admit
