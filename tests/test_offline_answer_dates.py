"""The offline answerer's dates said in words and its two-part questions (invented people and events).

A when-question takes the date a line says ("the 21st of August", "last tuesday") before the date the line
was said on, and reads a little past its close lines for one; "When and where...?" and "..., and how
many?" get both answers.
"""

from __future__ import annotations

from datetime import date

import pytest

from dmem.decisions.offline import spans
from dmem.decisions.offline.answer_extraction import ANSWER_TYPED_REACH, answer
from dmem.decisions.offline.gate import line_stems, quality_gate
from dmem.decisions.offline.spoken_days import spoken_days
from dmem.models.embeddings import make_embeddings
from dmem.text.questions import two_questions

EMB = make_embeddings("hash")
SAID_ON = date(2031, 5, 14)  # a Wednesday


@pytest.mark.parametrize(("text", "day"), [
    ("the wedding is still the 21st of August", date(2031, 8, 21)),
    ("street party's fixed; 4th September", date(2031, 9, 4)),
    ("it's on August 21st", date(2031, 8, 21)),
    ("the twelfth of June, at the hall", date(2031, 6, 12)),
    ("the twenty-first of May", date(2031, 5, 21)),
    ("we met on the 3rd of December", date(2030, 12, 3)),  # nearer in the year before than the year after
    ("so Thursday the 29th, Ilse is driving", date(2031, 5, 29)),
    ("friday the second, after work", date(2031, 5, 2)),
    ("wednesday the second", date(2031, 4, 2)),  # the nearest of two Wednesdays the 2nd
    ("it is March 8th", date(2031, 3, 8)),
])
def test_a_day_said_without_its_year_is_placed_by_the_line_date(text: str, day: date) -> None:
    assert [d for _, d in spoken_days(text, SAID_ON)] == [day]


@pytest.mark.parametrize("text", [
    "we may 2 people come along",  # "may" as a verb
    "the third floor of the library",
    "nothing dated here",
])
def test_what_is_no_day_is_not_read_as_one(text: str) -> None:
    assert spoken_days(text, SAID_ON) == []


def test_without_the_line_date_nothing_is_placed() -> None:
    assert spoken_days("the 21st of August", None) == []


def test_said_date_is_none_when_only_the_tag_dates_the_line() -> None:
    assert spans.said_date("Corwen fixed the gate", SAID_ON) is None
    assert spans.date_span("Corwen fixed the gate", SAID_ON) == "14 May 2031"
    assert spans.said_date("Corwen fixed the gate last tuesday", SAID_ON) == "13 May 2031"
    assert spans.date_span("Corwen fixed the gate on the 9th of May", SAID_ON) == "9 May 2031"


def test_a_date_said_in_a_lower_close_line_beats_the_top_line_tag() -> None:
    context = ["[2031-05-14] Ilse: Corwen's gate party is happening",
               "[2031-05-14] Corwen's gate party is the 21st of June, Corwen said"]
    assert answer(EMB, "When is Corwen's gate party?", context).answer == "21 June 2031"


def test_a_when_question_reads_past_its_close_lines_for_a_said_date(monkeypatch: pytest.MonkeyPatch) -> None:
    context = ["[2031-05-14] Bram's kiln firing went well, Bram said",
               "[2031-05-02] Bram's kiln firing was moved to the 9th of May by the college"]
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_MARGIN", 0.0)  # the top line alone is close
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_TYPED_REACH", 1.0)
    got = answer(EMB, "When was Bram's kiln firing?", context)
    assert got.answer == "9 May 2031" and got.used == [2]


def test_the_top_line_tag_stands_when_no_line_says_a_date() -> None:
    context = ["[2031-05-14] Bram's kiln firing went well, Bram said",
               "[2031-05-02] Bram bought clay for the kiln"]
    assert answer(EMB, "When was Bram's kiln firing?", context).answer == "14 May 2031"


def test_a_said_date_far_below_the_best_line_is_not_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    context = ["[2031-05-14] Bram's kiln firing went well, Bram said",
               "[2031-05-02] Bram's kiln firing was moved to the 9th of May by the college"]
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_TYPED_REACH", 0.0)
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_MARGIN", 0.0)
    assert answer(EMB, "When was Bram's kiln firing?", context).answer == "14 May 2031"
    assert ANSWER_TYPED_REACH == 0.3


@pytest.mark.parametrize(("question", "parts"), [
    ("When and where did Ivo propose to Noor?", ("When did Ivo propose to Noor?", "Where did Ivo propose to Noor?")),
    ("Where and when are they meeting?", ("Where are they meeting?", "When are they meeting?")),
    ("How much is Ilse's rent going up, and from when?",
     ("How much is Ilse's rent going up?", "When is Ilse's rent going up?")),
    ("What did Bram buy in March, and for how much?",
     ("What did Bram buy in March?", "How much did Bram buy in March?")),
    ("When did Corwen sow his beans, and how many?",
     ("When did Corwen sow his beans?", "How many did Corwen sow his beans?")),
])
def test_a_two_part_question_asks_two_questions(question: str, parts: tuple[str, str]) -> None:
    assert two_questions(question) == parts


@pytest.mark.parametrize("question", [
    "When did Ivo and Noor meet?", "What did Bram borrow from Ilse, and what for?", "Where did Corwen go?",
    "How many cats and dogs does Ilse have?", "Who is Bram and where does he live now that he moved?",
])
def test_a_one_part_question_is_not_split(question: str) -> None:
    assert two_questions(question) is None


def test_when_and_where_gets_the_date_and_the_place() -> None:
    context = ["[2031-05-14] Noor said yes: Ivo proposed at Gullrock Bay, the 10th of May"]
    assert answer(EMB, "When and where did Ivo propose to Noor?", context).answer == "10 May 2031, Gullrock Bay"


def test_a_part_of_a_kind_with_no_such_span_is_left_out() -> None:
    context = ["[2031-05-14] Noor said yes: Ivo proposed, the 10th of May, finally"]
    assert answer(EMB, "When and where did Ivo propose to Noor?", context).answer == "10 May 2031"


def test_a_close_line_naming_a_bare_day_answers_before_the_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    context = ["[2031-05-14] Bram's kiln firing is back on the eighteenth",
               "[2031-05-02] Bram's kiln firing was moved to the 9th of May by the college"]
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_MARGIN", 0.0)
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_TYPED_REACH", 1.0)
    assert answer(EMB, "When is Bram's kiln firing?", context).answer == "18 May 2031"  # placed ahead: present tense


def test_an_undated_close_line_naming_a_bare_day_stops_the_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    context = ["Bram's kiln firing is back on the eighteenth",
               "[2031-05-02] Bram's kiln firing was moved to the 9th of May by the college"]
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_MARGIN", 0.0)
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_TYPED_REACH", 1.0)
    got = answer(EMB, "When is Bram's kiln firing?", context)
    assert got.answer == "back on the eighteenth" and got.used == [1]


def test_a_date_in_a_framed_line_quoted_words_dates_it() -> None:
    context = ['[2031-05-20] Ilse added to "Corwen fixed the gate on 9 May 2031": he oiled the hinges too',
               "[2031-05-21] Corwen painted the gate green"]
    assert answer(EMB, "When did Corwen fix the gate?", context).answer == "9 May 2031"


def test_a_full_date_said_beats_a_relative_one_in_a_higher_line(monkeypatch: pytest.MonkeyPatch) -> None:
    context = ["[2031-05-14] Ilse will finish her pottery course next month",
               "[2031-05-14] Ilse finished a pottery course on 2 July 2029"]
    monkeypatch.setattr("dmem.decisions.offline.answer_extraction.ANSWER_MARGIN", 1.0)  # both lines are close
    got = answer(EMB, "When did Ilse finish her pottery course?", context)
    assert got.answer == "2 July 2029" and got.used == [2]


def test_the_gate_reads_a_day_said_without_its_year_as_the_answerer_does() -> None:
    line = "[2031-05-14] Ilse's cello course resumes on the 19th of June"
    assert {"19", "june", "2031"} <= line_stems(line)
    verdict = quality_gate(EMB, "When does Ilse's cello course resume?", "19 June 2031", [line])
    assert verdict.relevance.passed
