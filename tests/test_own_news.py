"""The speaker's own news said without "I" (``news``), offline: a chat statement with specific content (a number, a
time, a date, a name) is the speaker's by default, a fragment too, and an emotion or vague word beside it does not
veto it; world news, opinions, remarks on the listener and orders stay out. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import news
from tests.chat_lines import ChatLines

AGREEING = "Ha, fair enough."
"""Ivo's turn before each line: it asks nothing, so no line is admitted as an answer."""
CHAT = ChatLines("N1", datetime(2026, 2, 11, 19, 40), AGREEING)
_judged, _facts = CHAT.judged, CHAT.facts


@pytest.mark.parametrize(("text", "anchor"), [
    ("also gig on friday! the copper room", "friday"),  # a fragment: no verb
    ("Sunday 14 June", "Sunday"),
    ("5:40ish, by the east gate", "5:40ish"),
    ("window table for 6, 8:15", "6"),
    ("the function room is booked, 8pm, they can seat 40 max", "8pm"),  # a modal of what can be, not an opinion
    ("swimming. mon n weds", "weds"),  # a weekday chat shortens
])
def test_specific_content_said_without_i_is_the_speakers_news(text: str, anchor: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert reason == f"admitted: the speaker's news, specific content ('{anchor}')"


def test_a_reaction_in_a_clause_of_its_own_does_not_veto_the_news_beside_it() -> None:
    admitted, reason = _judged("wow. lantern parade on the 9th")
    assert admitted, reason
    assert _judged("wow. so lovely") == (False, "rejected: generic emotional reaction ('wow')")
    # a reaction in the same clause echoes the listener's news: not the speaker's
    echo = _judged("Wow, Bertil is from Tromso", "Bertil is from Tromso.")
    assert echo == (False, "rejected: generic emotional reaction ('Wow')")


def test_a_name_opening_the_sentence_counts_when_the_chat_named_it_before() -> None:
    named_before = "Fingers crossed for Saoirse and the castle stairs."
    text = "Saoirse managed the whole tower walk."
    assert _judged(text, named_before)[1] == "admitted: the speaker's news, specific content ('Saoirse')"
    # a capital opening a sentence names nobody known: not news by name, but a line telling an event with
    # concrete detail is the speaker's world by the line default (``worldline``)
    assert _judged(text)[1].startswith("admitted: a chat line telling the speaker's world"), _judged(text)
    assert news.anchor("Saoirse managed it", frozenset({"saoirse"})) == "Saoirse"


@pytest.mark.parametrize("text", [
    "the wedding on saturday looked beautiful",  # an evaluation of something named
    "the festival lineup dropped today",  # a day word alone is no specific content
    "you could leave the keys at Bertil's on Friday",  # about the listener (a deed told them is theirs: test_circle)
    "most people finish by 6pm",  # a generic truth
    "please grab 2 chairs for Sunday",  # an order
    "Sunday",  # one word says too little
    "The Lantern Keeper by Ottilie Brandt.",  # a fragment naming only a name is a title or a reaction
    "haha classic Tomsbury",
])
def test_world_news_opinions_the_listener_and_orders_are_not_the_speakers_news(text: str) -> None:
    admitted, reason = _judged(text)
    assert not admitted, reason


def test_the_news_is_kept_as_said_under_the_speakers_name_when_nothing_else_is() -> None:
    # the fragment beside it is part of the line told (``worldline``): one fact, not the anchor's clause alone
    assert _facts("also gig on friday! the copper room") == ["Noor: Gig on friday; The copper room"]
    facts = _facts("Sunday 14 June. I booked the hall")
    assert facts and not any(f.startswith("Noor: Sunday") for f in facts), facts


def test_where_the_speaker_is_back_from_is_theirs() -> None:
    admitted, reason = _judged("just off a night shift, head is mush")
    assert admitted and reason.startswith("admitted: first-person"), reason
    assert _judged("back from Tromsø, legs are done")[0]


def test_the_model_engines_admission_prompt_says_the_same() -> None:
    from dmem.prompts.formation import ADMIT_SYSTEM

    assert "is the speaker's own news by default, even as a fragment" in ADMIT_SYSTEM
    assert "'window table for 6, 8:15'" in ADMIT_SYSTEM
