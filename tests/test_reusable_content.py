"""Admission criterion 3, cross-session reusability, offline: a chat line telling the speaker's world without
"I" (a plan, a price, another person's doing, the speaker's things) with a specific anchor is kept as said,
attributed to the speaker; a remark on the listener, a generic truth, an evaluation, an order, weather and a
long descriptive message are not. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import reusable
from tests.chat_lines import ChatLines

AGREEING = "Ha, fair enough."
"""Ivo's turn before each line: it asks nothing, so no line is admitted as an answer."""
CHAT = ChatLines("Z1", datetime(2025, 11, 20, 18, 5), AGREEING)
_judged, _facts = CHAT.judged, CHAT.facts


@pytest.mark.parametrize(("text", "anchor"), [
    ("the chimney sweep comes tuesday at 9am", "tuesday"),
    ("quote for the fence was 1800 in the end", "1800"),
    ("Odile got the job at the harbour office in Brest", "Brest"),
    ("the ferry to Inishmore leaves at 7.15", "7.15"),
    ("the shop's been fixing clocks for like 40 years", "40"),
    ("the oven took three hours to heat up", "three hours"),
])
def test_a_plain_statement_with_an_anchor_is_kept_as_said(text: str, anchor: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert reason == f"admitted: reusable content ('{anchor}')"
    facts = _facts(text)
    assert len(facts) == 1
    assert facts[0].lower() == f"noor: {text}".lower()


@pytest.mark.parametrize(("kept", "not_kept"), [
    ("Odile left the keys at Tomas's on Friday", "you could leave the keys at Odile's on Friday"),  # the listener
    ("Tomas retires at 67 in March", "most people retire at 67 anyway"),  # a generic truth
    ("the mayor gave that speech in June", "that speech by the mayor in June was a mess"),  # an evaluation
    ("Tomas brings 2 folding chairs on Saturday", "please grab 2 folding chairs for Saturday"),  # an order
    ("Tomas lands in Brest on Sunday", "so sunny in Brest on Sunday"),  # weather
    ("the regatta is three weeks away", "isn't the regatta three weeks away"),  # a question without its mark
    ("Tomas has been fixing clocks for 40 years", "he has been fixing clocks for 40 years"),  # "he": nobody named
    ("the gallery on Quai Vert has 40 rooms",
     "the gallery on Quai Vert has 40 rooms across four floors, a rooftop terrace and a cafe, and the "
     "permanent collection covers everything from medieval altarpieces to contemporary video work"),  # a description
])
def test_only_the_speakers_world_told_plainly_is_kept(kept: str, not_kept: str) -> None:
    assert _judged(kept)[0], _judged(kept)[1]
    admitted, reason = _judged(not_kept)
    assert not admitted, reason


def test_a_statement_needs_an_anchor() -> None:
    assert reusable.reusable("a parcel came for the upstairs flat", 4) is None
    # without an anchor the line is still the speaker's world by the line default (``worldline``): an event at home
    assert _judged("a parcel came for the upstairs flat")[1].startswith("admitted: a chat line telling")
    assert _judged("a parcel came for the upstairs flat on Friday") == (True, "admitted: reusable content ('Friday')")


def test_the_plain_statements_of_one_message_are_one_memory() -> None:
    facts = _facts("Odile got the flat on Rue Basse. The movers come on the 14th")
    assert facts == ["Noor: Odile got the flat on Rue Basse; The movers come on the 14th"]


def test_a_message_with_a_personal_fact_keeps_only_that() -> None:
    assert _facts("The movers come on the 14th at 8am") == ["Noor: The movers come on the 14th at 8am"]
    mixed = "They come on the 14th at 8am. I finally booked the movers"
    facts = _facts(mixed)
    assert facts and all(not f.startswith("Noor: ") for f in facts), facts
    assert _judged(mixed)[1].startswith("admitted: first-person")  # the reason names the clause giving the fact
