"""Chat's short questions and the reply right after them (issue #26, stop 61, h61c).

A question asked of the listener with "you" dropped ("why spanish?", "favourite food?", "antwerp?") is answered by
the reply right after that speaks of its speaker, and one opening with lead words alone ("hmm. I think I'd say
Trieste") answers a question with "you" as well: the question's turn is a source of the reply's fact. Only right
after: a message of the replier's in between answered it. A bare yes to a check of one day, date, time or number
("so the 27th?" -> "yep") states it. Lines that must still be rejected: filler, a question with no fact, a vague
reply, a yes to a check naming nothing. Invented conversations only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.replies import question_replied
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message
from dmem.text.asked import reply_answers
from tests.conftest import chat_turn

TS = datetime(2027, 9, 12, 19, 5)
turn = functools.partial(chat_turn, session="D3", when=TS)
NAMES = ("Ottoline", "Brisco")


def drafted(said: Message, prior: list[Message]) -> tuple[bool, str, list[tuple[str, list[str]]]]:
    """The offline engine on ``said`` after ``prior``: admitted, the reason, the facts with their source turns."""
    engine = OfflineDecider(HashEmbeddings())
    verdict = engine.admit([said], prior, []).value.verdicts[0]
    facts = engine.split([said], prior, []).value.facts if verdict.admit else []
    return verdict.admit, verdict.reason, [(f.text, f.source_turn_ids) for f in facts]


@pytest.mark.parametrize(("question", "reply"), [
    ("why portuguese?", "my brother married a girl from Braga"),
    ("favourite food?", "I could eat dumplings every day"),
    ("antwerp?", "thats like an hour from me"),
    ("favourite town you lived in?", "hmm. I think I'd say Tarbury"),
    ("what got you into climbing?", "oh! my neighbour took me to the wall once"),
])
def test_a_reply_about_its_speaker_answers_a_short_question_right_before(question: str, reply: str) -> None:
    assert reply_answers(question, reply, NAMES)


@pytest.mark.parametrize(("question", "reply"), [
    ("why portuguese?", "the weather there is lovely"),  # says nothing of the speaker, shares no word
    ("did they win?", "the whole town was out"),  # asks about others
    ("how are you?", "I started a new job at the bakery"),  # a greeting
    ("is Merrow coming too?", "I hope so"),  # names someone: about them
])
def test_other_short_questions_are_not_taken_as_the_listeners(question: str, reply: str) -> None:
    assert not reply_answers(question, reply, NAMES)


def test_only_the_reply_right_after_answers_a_question_that_dropped_you() -> None:
    """On the main of before, "I have an idea" was linked across "same time!" to the question it did not answer."""
    asked = turn("I'm off to bed. same time next week?", "Ottoline", 1)
    answered = turn("same time!", "Brisco", 2)
    later = turn("hey! I have an idea for the summer", "Brisco", 3)
    assert question_replied(later, [asked]) is not None
    assert question_replied(later, [asked, answered]) is None
    assert not reply_answers(asked.text, later.text, NAMES, right_after=False)


def test_the_question_is_a_source_of_the_reply_that_gives_its_reason() -> None:
    """On the main of before, 'Brisco's brother married a girl from Braga' named the reply's turn only."""
    prior = [turn("why portuguese?", "Ottoline", 1)]
    admit, reason, facts = drafted(turn("my brother married a girl from Braga", "Brisco", 2), prior)
    assert admit and "replies to Ottoline's question ('why portuguese?')" in reason
    assert facts and all(f[1] == ["D3:1", "D3:2"] for f in facts), facts


def test_a_hedged_reply_after_hmm_is_kept_with_its_question() -> None:
    """On the main of before, 'Brisco thinks Brisco would say Tarbury' said nothing of what was asked."""
    prior = [turn("favourite town you lived in?", "Ottoline", 1)]
    admit, _, facts = drafted(turn("hmm. I think I'd say Tarbury", "Brisco", 2), prior)
    assert admit and facts and all(f[1] == ["D3:1", "D3:2"] for f in facts), facts


@pytest.mark.parametrize("question", ["so the 27th?", "next monday? the 5th?", "it's tuesday right?", "friday at 8?"])
def test_a_yes_to_a_check_of_a_day_or_time_states_it(question: str) -> None:
    """On the main of before, "yep" was rejected as vague: the check named one topic word."""
    admit, reason, facts = drafted(turn("yep", "Brisco", 2), [turn(question, "Ottoline", 1)])
    assert admit and "yes or no to Ottoline's question" in reason, reason
    assert facts and facts[0][1] == ["D3:1", "D3:2"], facts


@pytest.mark.parametrize(("question", "reply"), [
    ("is that ok?", "yep"),  # a check naming nothing
    ("the shed?", "yep"),  # one topic word, no day: as before
    ("why?", "haha"),  # filler
    ("antwerp?", "hmm"),  # vague
])
def test_a_bare_reply_to_a_check_naming_too_little_stays_rejected(question: str, reply: str) -> None:
    admit, reason, _ = drafted(turn(reply, "Brisco", 2), [turn(question, "Ottoline", 1)])
    assert not admit, reason


def test_a_question_without_a_fact_stays_rejected() -> None:
    admit, reason, _ = drafted(turn("favourite food?", "Ottoline", 2), [turn("I'm starving", "Brisco", 1)])
    assert not admit and "question without a first-person fact" in reason, reason
