"""Short bursts that carry a fact, offline: a dated event in two or three words ("vet tomorrow", "got in
yesterday") forms one fact whose day the formation grounds (``dated_event``); a bare value said in digits echoes
the other's number said in words and the other way round ("410" after "Four hundred and ten pounds", ``echoed_value``
reading ``spelled_numbers``). A goodbye, a wish, a state or an answer word with a day ("see you tomorrow", "good
luck tonight", "tired today", "ok tonight") forms nothing. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.dated_event import dated_event
from dmem.decisions.offline.splitting import split_messages
from dmem.grounding.deixis import ground_time
from dmem.state.schemas import Message
from dmem.text.spelled_numbers import spelled, value
from tests.conftest import drafted_last, minute_chat

WHEN = datetime(2031, 8, 14, 18, 5)  # a Thursday


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Ysolde and Bartram, a minute apart."""
    return minute_chat(lines, session="S1", start=WHEN)


@pytest.mark.parametrize(("said", "event"), [
    ("vet tomorrow", "vet"), ("leave tonight", "leave"), ("got in yesterday", "got in"),
    ("I got in last night", "got in"), ("physio this morning", "physio"), ("exam tomorrow morning", "exam"),
    ("tonight flight", "flight"), ("moved yesterday", "moved"), ("shift tonight", "shift"),
])
def test_an_event_with_its_day_is_a_dated_event(said: str, event: str) -> None:
    assert dated_event(said) == event


@pytest.mark.parametrize("said", [
    "see you tomorrow", "talk tomorrow", "good luck tonight", "tired today", "ok tonight", "lunch now",
    "since yesterday", "night night", "not today", "saw yesterday", "day after tomorrow", "yes today",
    "the long drive up to the lakes tomorrow",
])
def test_a_goodbye_a_wish_a_state_or_a_day_alone_is_no_dated_event(said: str) -> None:
    assert dated_event(said) is None


def test_a_dated_event_in_two_words_forms_one_fact_whose_day_is_grounded() -> None:
    turns = _chat(("Bartram", "How is your knee after the fall?"), ("Ysolde", "still sore"),
                  ("Bartram", "Poor you."), ("Ysolde", "physio tomorrow"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and reason == "admitted: a dated event of the speaker's ('physio')"
    [(text, sources)] = drafted_last(turns)
    assert sources == ["S1:4"] and "physio tomorrow" in text.lower() and "Ysolde" in text
    assert ground_time(text, turns[-1].timestamp).text.endswith("on 15 August 2031")


def test_a_burst_of_arrival_with_the_subject_dropped_forms_a_fact() -> None:
    turns = _chat(("Bartram", "Where are you now?"), ("Ysolde", "crete"), ("Ysolde", "got in yesterday"))
    assert judge_utterance(turns[-1], turns[:-1])[0]
    assert any("got in yesterday" in text for text, _ in drafted_last(turns))


@pytest.mark.parametrize("said", ["see you tomorrow", "good luck tonight", "ok tonight", "tired today"])
def test_a_goodbye_or_a_state_with_a_day_stays_rejected(said: str) -> None:
    turns = _chat(("Bartram", "Right, I'm off to bed."), ("Ysolde", said))
    assert not judge_utterance(turns[-1], turns[:-1])[0]


@pytest.mark.parametrize(("said", "number"), [
    ("Four hundred and ten", 410), ("ninety-five", 95), ("One thousand two hundred and forty", 1240),
    ("Eleven hundred and twenty", 1120), ("twenty one", 21), ("eleven", 11),
])
def test_a_number_in_words_reads_as_its_value(said: str, number: int) -> None:
    assert value(said) == number


def test_a_lone_one_and_two_numbers_joined_by_and_are_no_value() -> None:
    assert not list(spelled("the one that squeaks")) and not list(spelled("two and three"))


def test_digits_echoing_a_number_in_words_are_a_source_of_its_memory() -> None:
    turns = _chat(("Bartram", "Quiz night done. Three hundred and sixty pounds for the hospice, Ysolde."),
                  ("Ysolde", "!!!"), ("Ysolde", "360"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "echoed" in reason
    exchange = split_messages(turns, [], gated=True)
    assert [f.source_turn_ids for f in exchange if "S1:3" in f.source_turn_ids] == [["S1:1", "S1:3"]]
    assert not any(f.speaker == "Ysolde" for f in exchange)  # no memory of its own


def test_a_number_word_echoing_digits_is_paired_with_the_others_line() -> None:
    turns = _chat(("Bartram", "I counted the jars in the shed. He has 14 of them."), ("Ysolde", "fourteen"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "He has 14 of them" in reason


def test_a_number_word_no_line_stated_stays_rejected() -> None:
    turns = _chat(("Bartram", "I counted the jars in the shed."), ("Ysolde", "fourteen"))
    assert not judge_utterance(turns[-1], turns[:-1])[0]
