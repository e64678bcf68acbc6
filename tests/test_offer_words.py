"""The words of an offer have one home (``text.asked.OFFER_WORDS``): an elliptical check does not take an offer for a
yes/no question, and ``embedded`` keeps no fact from an offer nor from a question asking an opinion (h59e)."""

from __future__ import annotations

import pytest

from dmem.decisions.offline.embedded import embedded
from dmem.text.asked import elliptical_check

OFFERS = ["fancy the ferry on sunday?", "want a lift to the market?", "wanna borrow the tent?",
          "up for the quiz night?", "need a hand with the shelves?"]


@pytest.mark.parametrize("question", OFFERS)
def test_an_offer_is_no_elliptical_check(question: str) -> None:
    assert not elliptical_check(question)


def test_a_check_without_an_offer_word_still_is_one() -> None:
    assert elliptical_check("the ferry on sunday?")


@pytest.mark.parametrize("clause", ["Wenna might need help with the boat on Sunday",
                                    "Wenna would like to sail to Skarholm in May",
                                    "Wenna is up for sailing to Skarholm", "you think the ferry runs on sunday"])
def test_a_heard_clause_that_offers_or_asks_an_opinion_is_no_fact(clause: str) -> None:
    assert embedded(f"did you hear {clause}", str.split, frozenset(), set(), lambda s: True) is None


def test_a_heard_clause_with_news_is_kept() -> None:
    found = embedded("did you hear Wenna sailed to Skarholm in May", str.split, frozenset(), set(), lambda s: True)
    assert found is not None and found.whose == "news"
