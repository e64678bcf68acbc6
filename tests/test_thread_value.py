"""A terse value line read with its thread (``thread_value``), offline: "6'4" after "how tall are you, so i spot
you", "sent" after the speaker's own "i'll send it", "sending now" after the other's "you owe me £30" form ONE memory
stating both, the two turns its sources. A line about the other's latest statement, one after a silence, a yes to
the speaker's own offer and filler stay rejected. Invented conversations only."""

from __future__ import annotations

import dataclasses
import functools
from datetime import datetime, timedelta

import pytest

from dmem.decisions.offline import thread_value
from dmem.decisions.offline.admission import judge_utterance, judged_utterance, thread_value_topic
from dmem.decisions.offline.clauses import answer_words
from dmem.state.schemas import Message
from tests.conftest import drafted_last, minute_chat

WHEN = datetime(2031, 5, 9, 19, 40)


def _chat(*lines: tuple[str, str], gap_before_last: timedelta = timedelta(0)) -> list[Message]:
    """Turns of an invented chat between Oriel and Bastian, a minute apart (the last after ``gap_before_last``)."""
    return minute_chat(lines, session="T1", start=WHEN, gap_before_last=gap_before_last)


_topic = functools.partial(thread_value.topic_of, words=answer_words)


def test_a_value_after_the_others_unmarked_question_is_stated_with_it() -> None:
    turns = _chat(("Oriel", "ok question. you're quiet on calls. how tall are you, so i spot you at the ferry"),
                  ("Bastian", "6'4"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and reason.startswith("admitted: a terse value read with its thread (Oriel's 'how tall are you?'")
    assert drafted_last(turns) == [('Bastian answered Oriel\'s question "how tall are you?": 6\'4', ["T1:1", "T1:2"])]


def test_the_topic_travels_as_a_field_of_the_verdict_not_in_its_reason() -> None:
    turns = _chat(("Oriel", "ok question. you're quiet on calls. how tall are you, so i spot you at the ferry"),
                  ("Bastian", "6'4"))
    judged = judged_utterance(turns[-1], turns[:-1])
    assert judged.topic == _topic(turns[-1], turns[:-1]) and judged.topic is not None
    assert (judged.topic.turn.turn_id, judged.topic.how) == ("T1:1", "asked")
    assert thread_value_topic(turns[-1], turns[:-1], judged=judged) == judged.topic
    assert thread_value_topic(turns[-1], turns[:-1], judged=dataclasses.replace(judged, topic=None)) is None
    plain = judged_utterance(turns[0], [])  # a line admitted otherwise carries no topic
    assert plain.topic is None and thread_value_topic(turns[0], [], judged=plain) is None


def test_a_name_after_a_quiz_question_is_stated_with_it() -> None:
    turns = _chat(("Bastian", "fave band. go"), ("Oriel", "The Lumpsuckers. obviously"))
    assert drafted_last(turns) == [('Oriel answered Bastian\'s question "fave band?": The Lumpsuckers. obviously',
                                    ["T1:1", "T1:2"])]


def test_done_after_the_speakers_own_plan_adds_to_it() -> None:
    turns = _chat(("Oriel", "i'll post the deposit for the boat"), ("Bastian", "legend"), ("Oriel", "sent"))
    assert drafted_last(turns) == [('Oriel added to "i\'ll post the deposit for the boat": sent', ["T1:1", "T1:3"])]


def test_done_after_the_others_request_replies_to_it() -> None:
    turns = _chat(("Bastian", "kayak was 60. so you owe me £30"), ("Oriel", "sending now"))
    assert drafted_last(turns) == [('Oriel replied to Bastian\'s "so you owe me £30": sending now', ["T1:1", "T1:2"])]


@pytest.mark.parametrize("lines", [
    (("Oriel", "when you brake. it squeals"), ("Bastian", "ha. squeaky")),  # a clause, not a question
    (("Oriel", "whats ur fave band"), ("Bastian", "The Lumpsuckers"), ("Oriel", "omg they play for 4 hours"),
     ("Bastian", "3 if you're lucky")),  # answered already; the value is about the other's latest line
    (("Oriel", "want me to send the map"), ("Bastian", "yes please"), ("Oriel", "ok sent")),  # a yes to an offer
    (("Oriel", "whats ur fave band"), ("Bastian", "lol")),  # filler
])
def test_lines_with_no_topic_in_the_thread_stay_out(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert _topic(turns[-1], turns[:-1]) is None


def test_a_line_after_a_silence_starts_a_new_talk() -> None:
    turns = _chat(("Oriel", "i'll tell the harbourmaster"), ("Bastian", "thx"), ("Oriel", "done"),
                  gap_before_last=timedelta(days=2))
    assert _topic(turns[-1], turns[:-1]) is None


def test_a_line_admitted_otherwise_keeps_its_own_reading() -> None:
    turns = _chat(("Bastian", "whats ur fave band"), ("Oriel", "i love the Lumpsuckers, saw them twice in Tarrow"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "terse value" not in reason
