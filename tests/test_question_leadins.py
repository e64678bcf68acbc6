"""Casual chat questions with a lead-in ("also whats ...", "lol what did ...") or none of the usual subjects
("did the party go well", "what happened with the car") ask even without a question mark; an exclamation
with one ("how cute is that??") does not. Invented lines."""

from __future__ import annotations

import pytest

from dmem.text.asked import question_sentences, real_questions, reply_answers
from dmem.text.crossed import replied_question


@pytest.mark.parametrize("line", [
    "also whats the plan for saturday",
    "lol what did you end up ordering",
    "ok so where are you staying",
    "but did you ever hear back from them",
    "wait so did your mom call",
    "omg did you see the match",
    "did the party go well",
    "did the kids like the aquarium",
    "what happened with the car",
    "what happened to the old bakery on the corner",
])
def test_a_casual_question_without_a_mark_asks(line: str) -> None:
    assert question_sentences(line) == [f"{line}?"]
    assert real_questions(line) == [f"{line}?"]


@pytest.mark.parametrize(("question", "statement"), [
    ("did the party go well", "did the dishes and went to bed"),  # a dropped "I"
    ("did the kids like the aquarium", "did the whole thing myself today"),
    ("what happened with the car", "what happened was kind of funny"),  # a statement about what happened
    ("lol what did you end up ordering", "lol the cat did it again"),
    ("omg did you see the match", "omg you have to see this"),
    ("ok so where are you staying", "ok that was fun"),
])
def test_the_same_lead_in_before_a_statement_does_not_ask(question: str, statement: str) -> None:
    assert question_sentences(question) == [f"{question}?"]
    assert question_sentences(statement) == []


def test_a_yes_no_question_after_a_lead_in_takes_a_yes() -> None:
    assert reply_answers("Also, do you still have the kayak?", "Yep, still in the garage", ("Rui", "Lotta"))


def test_a_reply_to_a_casual_question_is_linked() -> None:
    prior = [("Rui", "lol what did you end up ordering"), ("Rui", "I'm starving just reading this")]
    assert replied_question(("Lotta", "ended up ordering the dumplings"), prior) == 0


def test_an_exclamation_with_a_question_mark_asks_nothing_a_reply_could_answer() -> None:
    assert real_questions("How cute is that puppy??") == []
    assert real_questions("so how weird is this?") == []
    assert real_questions("how old is that dog?") == ["how old is that dog?"]  # a measure asks
    assert replied_question(("Lotta", "so cute, I want one"), [("Rui", "How cute is that puppy??")]) is None
