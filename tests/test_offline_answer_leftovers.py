"""The offline answerer's leftovers of stop 61: a reply to a bare "when is it?", the tens past fifty.

Invented people and events. A reply to a bare "when is it?" dates what its speaker had told that day; "sixty"
and "ninety" are numbers as "fifty" was.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline.answer_extraction import answer
from dmem.decisions.offline.asked_when import anchors, asks_only_when
from dmem.decisions.offline.gate import quality_gate
from dmem.models.embeddings import make_embeddings
from dmem.text.answers import is_kind_asked, says_number

EMB = make_embeddings("hash")


@pytest.mark.parametrize(("asked", "bare"), [
    ("already?! when is it?", True), ("When is it?", True), ("when?", True), ("when does it start?", True),
    ("when's that?", True), ("when is the party?", False), ("so when do you go?", False), ("where is it?", False),
])
def test_a_quoted_question_asks_only_when(asked: str, bare: bool) -> None:
    assert asks_only_when(asked) is bare


RACE = ["[2031-11-02] Orrin signed up for a half marathon",
        "[2031-11-02] Orrin answered Isoline's question \"wow, when is it?\": march 3rd",
        "[2031-11-02] Isoline answered Orrin's question \"when is it?\": the 20th",
        "[2031-10-20] Orrin bought new running shoes"]


def test_a_reply_to_a_bare_when_question_is_anchored_to_its_speakers_line_of_that_day() -> None:
    assert anchors(RACE) == {1: [0]}  # Isoline told nothing that day: her reply has no line to point back to


def test_the_date_in_a_reply_to_when_is_it_answers_for_what_its_speaker_told() -> None:
    draft = answer(EMB, "When is Orrin's half marathon?", RACE)
    assert draft.answer == "3 March 2032"
    assert draft.used == [2]


def test_a_reply_of_another_day_or_speaker_dates_nothing() -> None:
    other_day = [RACE[0], RACE[1].replace("2031-11-02", "2031-11-05"), RACE[3]]
    assert answer(EMB, "When is Orrin's half marathon?", other_day).answer == "2 November 2031"
    named = [RACE[0], RACE[1].replace('"wow, when is it?"', '"when is the bake sale?"'), RACE[3]]
    assert answer(EMB, "When is Orrin's half marathon?", named).answer == "2 November 2031"


def test_the_gate_links_the_replys_date_to_the_topic_through_its_speakers_line() -> None:
    verdict = quality_gate(EMB, "When is Orrin's half marathon?", "3 March 2032", RACE)
    assert verdict.relevance.passed, verdict.relevance.reason
    alone = quality_gate(EMB, "When is Orrin's half marathon?", "3 March 2032", RACE[1:])
    assert not alone.relevance.passed


@pytest.mark.parametrize("said", ["about sixty", "seventy of them", "ninety-two", "eighty"])
def test_the_tens_past_fifty_are_numbers(said: str) -> None:
    assert says_number(said)


def test_a_length_in_tens_past_fifty_answers_how_long() -> None:
    assert is_kind_asked("how long did the drive take?", "seventy minutes, give or take")
    assert not is_kind_asked("how long did the drive take?", "the seventies were long")
