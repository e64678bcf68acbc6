"""A two-person chat line with a specific detail is the speaker's world by default (``worldline``, ``markers``),
offline: judged as one unit when no clause is admitted alone, it forms one fact naming the speaker; lines about the
listener, advice, general statements, reactions and filler stay out. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.markers import claimed, generic
from dmem.decisions.offline.splitting import split_messages
from dmem.state.schemas import Message
from tests.chat_lines import ChatLines
from tests.conftest import chat_turn

AGREEING = "Ha, fair enough."
"""Ivo's turn before each line: it asks nothing, so no line is admitted as an answer."""
CHAT = ChatLines("W9", datetime(2026, 4, 3, 21, 10), AGREEING)
_judged, _facts = CHAT.judged, CHAT.facts
_LINE = "admitted: a chat line telling the speaker's world"


@pytest.mark.parametrize("text", [
    "Marigold. The grey one. Osric is gutted, he found the gate open",  # fragments borrow the line's subject
    "a stoat got one of the ducks last night",  # an event at home
    "green tandem. 2019. 340",  # bare details
    "mould behind the wardrobe, black, all along the skirting",  # a concrete thing, no verb
    "The kiln cracked on the second firing, the whole shelf of bowls with it",
])
def test_a_line_with_a_specific_detail_is_the_speakers_world(text: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert reason.startswith(_LINE), reason


def test_the_line_forms_one_fact_naming_the_speaker_not_one_per_fragment() -> None:
    facts = _facts("Marigold. The grey one. Osric is gutted, he found the gate open")
    assert facts == ["Noor: Marigold; The grey one; Osric is gutted, he found the gate open"]


@pytest.mark.parametrize("text", [
    "you did great on the hill loop",  # the listener as subject, praised (a deed told them is theirs: test_circle)
    "bring the folding table on the tram",  # an order
    "Hamsters are easy pets",  # a general statement
    "Exercise helps with stress",
    "A quiet garden is key",  # a maxim
    "that sounds like a lovely walk along the canal",  # a reaction to what the listener said
    "Yeah, for sure. The canal path is such a calm stretch of water",  # a reply opening: the rest goes on about it
    "the election results came out last night",  # news of the world
    "Sharing meals brings people closer together",  # an activity in general
    "so much stuff",  # vague: no detail at all
    "ok",
])
def test_the_listener_advice_general_statements_reactions_and_filler_stay_out(text: str) -> None:
    admitted, reason = _judged(text)
    assert not admitted, reason


def test_vague_means_no_detail_at_all() -> None:
    assert _judged("so much stuff")[1] == "rejected: vague content (no specific detail)"
    admitted, reason = _judged("green tandem. 2019")  # each piece says little; together a detail
    assert admitted, reason


def test_markers_name_why_a_clause_is_not_the_speakers_world() -> None:
    assert claimed("you did 12 km", "impersonal") == "about the listener"
    assert claimed("a stoat got one of the ducks", "impersonal") is None
    assert claimed("a stoat got one of the ducks", "question") == "question"
    assert generic("Landlords never fix anything") and not generic("Osric found the gate open")


def _said(text: str, speaker: str, seq: int) -> Message:
    return chat_turn(text, speaker, seq, session="W9", when=datetime(2026, 4, 3, 21, 10))


def test_a_line_going_on_from_the_speakers_message_joins_its_fact() -> None:
    prior = [_said("did you ever get the bike sorted?", "Ivo", 1)]
    first, second = _said("I bought a tandem in the end!", "Noor", 2), _said("green. 2019. 340", "Noor", 3)
    facts = split_messages([first, second], prior, gated=True)
    assert len(facts) == 1, [f.text for f in facts]
    assert facts[0].text.endswith("; green; 2019; 340"), facts[0].text
    assert {first.turn_id, second.turn_id} <= set(facts[0].source_turn_ids)


def test_a_detail_continuing_a_stored_memory_of_the_speaker_is_written_with_it() -> None:
    memories = ["Noor keeps ducks on the allotment"]
    line = _said("a stoat got into the allotment and took two of the ducks", "Noor", 2)
    prior = [_said(AGREEING, "Ivo", 1)]
    assert judge_utterance(line, prior, memories)[0]
    facts = [f.text for f in split_messages([line], prior, gated=True, memories=memories)]
    assert facts and facts[0].startswith("Noor keeps ducks on the allotment; "), facts


def test_the_model_engines_prompts_say_the_same() -> None:
    from dmem.prompts.formation import ADMIT_SYSTEM, SPLIT_SYSTEM

    assert "Judge a chat line whole" in ADMIT_SYSTEM and "'Vague' means no detail at all" in ADMIT_SYSTEM
    assert "its pieces joined and attributed" in SPLIT_SYSTEM


@pytest.mark.parametrize(("text", "fact"), [
    ("Thank you. Found it. The radio works again.", "Noor found it; The radio works again"),
    ("thank you. got it. the kettle boils again", "Noor got it; The kettle boils again"),
])
def test_a_thanks_is_a_reply_but_the_rest_of_the_line_is_the_speakers_news(text: str, fact: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert _facts(text) == [fact]


@pytest.mark.parametrize("text", ["Thank you.", "thanks so much!!", "thank you. so kind"])
def test_thanks_alone_stays_out(text: str) -> None:
    admitted, reason = _judged(text)
    assert not admitted, reason


def test_what_the_speakers_thing_tasted_like_is_no_reaction_to_the_listener() -> None:
    admitted, reason = _judged("it tasted good. Marek ate half")
    assert admitted and reason.startswith(_LINE), reason
    assert _facts("it tasted good. Marek ate half") == ["Noor: It tasted good; Marek ate half"]
    assert not _judged("it looks good. Marek ate half")[0]  # a look is the listener's photo or thing
