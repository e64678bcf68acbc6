"""The offline gate's number check for how-many/how-long answers reads whole numbers, not the letter "a".

Invented people and events only.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline.gate import quality_gate
from dmem.models.embeddings import make_embeddings
from dmem.text.answers import says_number

_CONTEXT = ["[2031-03-02] Tomasz: we let the water run an hour, two weeks after the pipes froze, and I paid 3 "
            "euros for a dozen washers",
            "[2031-03-04] Tomasz: the plumber charged a few coins for the water, we waited twenty minutes"]


@pytest.mark.parametrize("text", ["3", "31.50", "an hour", "a week", "two weeks", "a dozen", "a few",
                                  "a couple of days", "twelve", "twenty-five", "hundreds", "half an hour", "several",
                                  "$40"])
def test_a_number_or_an_amount_is_read(text: str) -> None:
    assert says_number(text)


@pytest.mark.parametrize("text", ["the water", "a new kettle", "at the harbour", "anything", "Another day", "fivefold",
                                  "someone"])
def test_a_bare_a_or_a_number_inside_a_word_is_no_number(text: str) -> None:
    assert not says_number(text)


def test_the_gate_fails_a_how_much_answer_without_a_number() -> None:
    verdict = quality_gate(make_embeddings("hash"), "How much did Tomasz pay for the washers?", "the water", _CONTEXT)
    assert not verdict.relevance.passed
    assert "without a number" in verdict.relevance.reason


@pytest.mark.parametrize(("question", "answer"), [
    ("How long did Tomasz let the water run?", "an hour"),
    ("How long after the pipes froze did Tomasz let the water run?", "two weeks"),
    ("How many washers did Tomasz buy?", "a dozen"),
    ("How much did Tomasz pay for the washers?", "3"),
])
def test_the_gate_does_not_fail_a_number_answer_for_want_of_a_number(question: str, answer: str) -> None:
    verdict = quality_gate(make_embeddings("hash"), question, answer, _CONTEXT)
    assert "without a number" not in verdict.relevance.reason
