"""An elliptical check ('Lena? the one in Oslo?', 'the shed roof?') asks for a yes or a no like an auxiliary
question does: a reply opening with a yes or a no answers it, and the question's turn becomes a source of the
reply's fact. A wh-question, a question turned back ('and you?') and an offer ('want to call later?') are no
such check (issue #26, stop 49, h49e). Invented conversations only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.text.asked import asks_yes_no, elliptical_check, reply_answers
from tests.conftest import chat_turn

TS = datetime(2025, 3, 2, 18, 40)
turn = functools.partial(chat_turn, session="D2", when=TS)


@pytest.mark.parametrize("question", [
    "Lena? the one in Oslo?", "the shed roof?", "you moving in june?", "hollin street?",
    "Sunday the 4th then?", "your cousin in the navy?",
])
def test_a_question_with_no_wh_word_and_a_topic_checks_a_yes_or_a_no(question: str) -> None:
    assert elliptical_check(question)
    assert asks_yes_no(question)


@pytest.mark.parametrize("question", [
    "and you?", "you?", "what about you?", "where?", "which one?", "how come?", "really?",
    "want to call later?", "fancy a pint on friday?", "need a hand with the move?",
])
def test_wh_questions_turned_back_questions_and_offers_are_no_check(question: str) -> None:
    assert not elliptical_check(question)
    assert not asks_yes_no(question)


def test_a_yes_to_an_elliptical_check_answers_it() -> None:
    assert reply_answers("Lena? the one in Oslo?", "yes. she sends postcards every month", ["Ada", "Bo"])
    assert not reply_answers("and you?", "yes. she sends postcards every month", ["Ada", "Bo"])


def test_the_checked_turn_becomes_a_source_of_the_replys_fact() -> None:
    said = [turn("my aunt taught me to knit, she mails me wool", "Ada", 1),
            turn("Lena? the one in Oslo?", "Bo", 2),
            turn("yes. she sends wool because the post is cheaper than flights", "Ada", 3)]
    facts = OfflineDecider(HashEmbeddings()).split([said[2]], said[:2], []).value.facts
    assert facts and any("D2:2" in f.source_turn_ids for f in facts), [(f.text, f.source_turn_ids) for f in facts]


def test_an_offer_accepted_with_a_yes_forms_nothing() -> None:
    said = [turn("want to call later?", "Ada", 1), turn("sure!", "Bo", 2)]
    verdict = OfflineDecider(HashEmbeddings()).admit([said[1]], said[:1], []).value.verdicts[0]
    assert not verdict.admit, verdict.reason
