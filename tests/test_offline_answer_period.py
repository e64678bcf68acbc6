"""The time a question names decides among the lines that can answer (``periods.within``).

"What did Orrin ask to borrow in January 2026?" is answered from the January line, not from a
better-matching August line about another loan; a question naming no time, and a when-question
(which asks for the time), rank as before. Invented people and events only.
"""

from __future__ import annotations

from datetime import date

import pytest

from dmem.decisions.offline.answer_extraction import answer, ranked_lines
from dmem.decisions.offline.periods import Period, within
from dmem.decisions.offline.spans import parse_line
from dmem.models.embeddings import HashEmbeddings

EMB = HashEmbeddings()
LOANS = ["[2026-08-15] Orrin asked to borrow 200 pounds from Tamsin for the van repair",
         "[2026-01-24] Orrin asked for Tamsin's good drill to put up shelves",
         "[2026-01-24] Tamsin said the shelves in her hallway were wonky"]


def test_a_question_naming_no_time_answers_from_the_best_match() -> None:
    out = answer(EMB, "What did Orrin ask to borrow from Tamsin?", LOANS)
    assert out.used == [1]
    assert "200" in out.answer


def test_the_named_month_beats_a_better_match_from_another_month() -> None:
    out = answer(EMB, "What did Orrin ask to borrow from Tamsin in January 2026?", LOANS)
    assert out.used == [2]
    assert "drill" in out.answer


def test_the_named_month_of_the_other_loan_keeps_it() -> None:
    out = answer(EMB, "What did Orrin ask to borrow from Tamsin in August 2026?", LOANS)
    assert out.used == [1]


def test_a_when_question_keeps_the_lines_outside_the_time_it_names() -> None:
    question = "When did Orrin ask for Tamsin's good drill, in August 2026?"
    lines = [parse_line(c) for c in LOANS]
    assert 1 in [i for i, _ in ranked_lines(EMB, question, lines, LOANS)]  # the January line stays
    assert "January 2026" in answer(EMB, question, LOANS).answer


LINES = [("Wren sold her bike", date(2025, 9, 3)),          # 0: outside March 2025
         ("Wren bought a kayak", date(2025, 3, 18)),        # 1: inside
         ("Wren took up rowing in 2025", date(2025, 9, 1)),  # 2: says a year holding March: may overlap
         ("Wren likes rivers", None),                       # 3: no time
         ("On 2 March 2025, Wren joined a club", date(2025, 6, 1))]  # 4: its written date is inside
RANKED = [(0, 0.9), (2, 0.8), (3, 0.7), (1, 0.6), (4, 0.5)]


def test_within_drops_only_the_lines_clearly_outside() -> None:
    assert within("What did Wren do in March 2025?", LINES, RANKED, 0.35) == [(2, 0.8), (3, 0.7), (1, 0.6), (4, 0.5)]


@pytest.mark.parametrize("question", [
    "What did Wren do?",                      # no time named
    "What did Wren do in May 2025?",          # no ranked line falls in it
    "What did Wren do before March 2025?",    # not a period asked within
])
def test_within_keeps_the_ranking_without_a_line_in_a_named_period(question: str) -> None:
    assert within(question, LINES, RANKED, 0.35) == RANKED


def test_a_far_line_in_the_period_does_not_displace_a_close_one_outside() -> None:
    assert within("What did Wren do in March 2025?", LINES, RANKED, 0.2) == RANKED  # March: 0.3 below


def test_within_a_named_day_and_year() -> None:
    assert within("What did Wren buy on 18 March 2025?", LINES, RANKED, 0.35) == [(2, 0.8), (3, 0.7), (1, 0.6)]
    assert within("What did Wren do in 2025?", LINES, RANKED, 0.35) == RANKED  # every line's time is in 2025


@pytest.mark.parametrize(("period", "day", "unit", "overlaps"), [
    (Period(date(2025, 3, 1), "month"), date(2025, 3, 31), "day", True),
    (Period(date(2025, 3, 1), "month"), date(2025, 4, 1), "day", False),
    (Period(date(2025, 3, 1), "month"), date(2025, 1, 1), "year", True),
    (Period(date(2024, 2, 1), "month"), date(2024, 2, 29), "day", True),
    (Period(date(2025, 12, 1), "month"), date(2026, 1, 1), "month", False),
    (Period(date(2025, 1, 1), "year"), date(2024, 12, 1), "month", False),
    (Period(date(2025, 3, 9), "day"), date(2025, 3, 1), "month", True),
])
def test_a_time_overlaps_a_period_when_they_share_a_day(period: Period, day: date, unit: str,
                                                         overlaps: bool) -> None:
    assert period.overlaps(day, unit) is overlaps
