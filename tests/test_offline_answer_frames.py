"""The offline answerer reads framed memories by what was said, and a question's period by the lines' dates.

Formation keeps a reply with the question it answers, a continuation with what it continues and a
question carrying a fact as asked; the frame ('answered Maya's question', 'asked Ivo') is never
the answer. A question asking within a period ('in March 2024') prefers the line dated in it.
Invented people and events only.
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from dmem.decisions.offline.answer_extraction import answer
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.frames import said
from dmem.decisions.offline.periods import Period, asked_period, period_words
from dmem.decisions.offline.voting import candidates
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message

EMB = HashEmbeddings()
TS = datetime(2025, 5, 2, 18, 0)


def turn(text: str, speaker: str, seq: int) -> Message:
    return Message(turn_id=f"D1:{seq}", speaker=speaker, text=text, timestamp=TS, seq=seq)


def test_said_reads_the_frames_formation_writes() -> None:
    decider = OfflineDecider(EMB)
    reply = decider.split([turn("Mostly lentil soup with rye bread.", "Theo", 2)],
                          [turn("What do you cook on Sundays?", "Maya", 1)], []).value.facts[0].text
    assert reply.startswith("Theo answered Maya's question")
    assert said(reply) == "Mostly lentil soup with rye bread"
    asked = decider.split([turn("Is your mom feeling better after the fall?", "Noor", 2)],
                          [turn("Long week at the library.", "Ivo", 1)], []).value.facts[0].text
    assert said(asked) == "Is Ivo's mom feeling better after the fall?"
    added = 'Noor added to "Noor just started at the coastal art school": it is right by the old ferry pier'
    assert said(added) == "it is right by the old ferry pier"


@pytest.mark.parametrize("line", [
    "Theo answered the phone and said the oven was broken",
    'Maya said "See you at noon": she meant the harbour cafe',
    "Ivo asked Noor to water the ferns",
])
def test_unframed_lines_are_read_whole(line: str) -> None:
    assert said(line) == line


def test_a_framed_reply_answers_with_what_was_said_not_its_frame() -> None:
    context = ['[2025-04-06] Theo answered Maya\'s question "What do you cook on Sundays?": '
               "mostly lentil soup with rye bread",
               "[2025-04-20] Theo bought a new bicycle helmet"]
    out = answer(EMB, "What does Theo cook?", context)
    assert "answered" not in out.answer and "question" not in out.answer
    assert "lentil soup" in out.answer
    assert out.used == [1]


def test_a_question_kept_as_asked_does_not_answer() -> None:
    asked = "How did the extra shifts at the bakery help with the rent?"
    context = [f'[2025-03-01] Maya asked Theo: "{asked}"',
               f'[2025-03-02] Theo answered Maya\'s question "{asked}": they paid the rent for two months']
    out = answer(EMB, "How did the extra shifts at the bakery help Theo?", context)
    assert out.used == [2]
    assert out.answer == "rent for two months"


def test_vote_candidates_never_offer_a_frame() -> None:
    context = ['[2025-04-06] Theo answered Maya\'s question "Any plans for the garden?": '
               "planting tomatoes and basil by the fence",
               '[2025-04-07] Maya asked Theo: "Will the garden get tomatoes this year?"',
               "[2025-04-08] Theo is building a garden shed"]
    pool = candidates(EMB, "What is Theo planting in the garden?", context)
    assert pool and all("answered" not in c.answer and "asked" not in c.answer for c in pool)


@pytest.mark.parametrize(("question", "period"), [
    ("What happened to Theo's job in March 2024?", Period(date(2024, 3, 1), "month")),
    ("What did Maya bake on 12 March 2024?", Period(date(2024, 3, 12), "day")),
    ("Where did Ivo travel in 2023?", Period(date(2023, 1, 1), "year")),
    ("What did Maya do before 12 March 2024?", None),
    ("What did Ivo do after March 2024?", None),
    ("What happened between March 2024 and May 2024?", None),
    ("What does Theo cook?", None),
    ("What hobbies did Ivo take up in 2023-2024?", None),
    ("Where did Maya work in 2023 to 2025?", None),
])
def test_the_period_a_question_asks_within(question: str, period: Period | None) -> None:
    assert asked_period(question) == period


def test_a_line_falls_in_the_period_by_its_written_date_else_its_tag() -> None:
    lines = [("Theo lost his job at the bakery", date(2024, 3, 12)),
             ("Theo's old street flooded in June 2024", date(2024, 3, 20)),  # says June: not March
             ("On 2 March 2024, Maya started a pottery class", date(2024, 5, 1)),
             ("Theo moved to Leeds", date(2024, 4, 2)),
             ("Theo changed jobs in 2024", None)]  # a year does not fall within a month
    assert period_words("What happened in March 2024?", lines) == ["March 2024", "", "March 2024", "", ""]
    assert period_words("What happened?", lines) == [""] * 5


def test_a_line_dated_in_the_asked_month_beats_one_naming_another_month() -> None:
    context = ["[2024-01-15] In the week of 15 January 2024, Theo decided to apply for a job at the harbour office",
               "[2024-03-12] Theo lost his job at the bakery on Elm Street",
               "[2024-03-02] On 2 March 2024, Maya started a pottery class with Theo's sister"]
    out = answer(EMB, "What happened to Theo's job in March 2024?", context)
    assert out.used == [2]
    assert "bakery" in out.answer
