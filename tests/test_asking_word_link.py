"""A short question with no subject, linked to the reply right after that answers it (issue #26, stop 62, h62c).

Chat asks with an asking word alone and no mark ("where", "how long", "how long off"): it is a question, and the
other's reply right after that answers it has the question's turn as a source; a reply that is only a value of the
kind asked ("3 weeks", "40 a month") is said with its question. A reply that opens with its own check before its yes
("the 19th? yes, i'm free then") answers the asker's proposal. Lines that must still be rejected: a reply that gives
nothing of the kind asked, a reaction, a message in between, an asking word with a laugh, filler. Invented
conversations only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.replies import question_replied
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message
from dmem.text.asked import question_sentences, real_questions, reply_answers
from tests.conftest import chat_turn

TS = datetime(2027, 5, 3, 18, 40)
turn = functools.partial(chat_turn, session="D7", when=TS)
NAMES = ("Ysenna", "Corbald")


def drafted(said: Message, prior: list[Message]) -> list[tuple[str, list[str]]]:
    """The offline engine's facts for ``said`` after ``prior``, with their source turns (none when rejected)."""
    engine = OfflineDecider(HashEmbeddings())
    verdict = engine.admit([said], prior, []).value.verdicts[0]
    facts = engine.split([said], prior, []).value.facts if verdict.admit else []
    return [(f.text, f.source_turn_ids) for f in facts]


@pytest.mark.parametrize(("turn_text", "asked"), [
    ("how long", "how long?"),
    ("finally. where", "where?"),
    ("how long off", "how long off?"),
    ("oh when", "oh when?"),
    ("how much", "how much?"),
])
def test_an_asking_word_alone_with_no_mark_asks(turn_text: str, asked: str) -> None:
    assert real_questions(turn_text) == [asked]


@pytest.mark.parametrize("said", ["how much fun", "how far lol", "where we ate last time", "why not"])
def test_an_asking_word_in_a_reaction_or_a_clause_asks_nothing(said: str) -> None:
    assert question_sentences(said) == []


@pytest.mark.parametrize(("question", "reply"), [
    ("finally. where", "st wenna's i think"),
    ("how long", "3 weeks"),
    ("how long off", "few wks they said"),
    ("how much", "40 a month"),
])
def test_the_reply_right_after_an_asking_word_is_linked_to_it(question: str, reply: str) -> None:
    """On the main of before none of these questions was read as one, so no reply was linked."""
    prior = [turn(question, "Ysenna", 1)]
    found = question_replied(turn(reply, "Corbald", 2), prior)
    assert found is not None and found.turn_id == "D7:1"


@pytest.mark.parametrize(("question", "reply"), [
    ("18-21?", "lemme check shifts"),  # answers nothing of what was asked
    ("how long", "lol"),  # a reaction
    ("how much", "ugh dont ask"),
    ("how far lol", "the big hill"),  # no question
])
def test_a_reply_that_gives_nothing_asked_is_not_linked(question: str, reply: str) -> None:
    assert question_replied(turn(reply, "Corbald", 2), [turn(question, "Ysenna", 1)]) is None


def test_a_message_in_between_answered_the_asking_word() -> None:
    prior = [turn("where", "Ysenna", 1), turn("no idea tbh", "Corbald", 2), turn("haha same", "Ysenna", 3)]
    assert question_replied(turn("my cousin got a new puppy", "Corbald", 4), prior) is None


@pytest.mark.parametrize(("question", "reply"), [
    ("in three weeks maybe? that friday?", "the 12th? yes, i'm free then"),
    ("so the harbour walk on sunday?", "sunday? yep, count me in"),
])
def test_a_reply_opening_with_its_own_check_answers_the_proposal(question: str, reply: str) -> None:
    """On the main of before the opening check hid the yes after it."""
    assert reply_answers(question, reply, NAMES)


@pytest.mark.parametrize(("question", "reply"), [
    ("in three weeks maybe? that friday?", "you mean the one after easter? yes"),  # a longer question asks
    ("that friday?", "which one? yes the 12th"),  # asks back (a wh-word)
    ("that friday?", "the 12th? hmm not sure"),  # no yes after the check
])
def test_a_reply_asking_back_is_no_yes_to_the_proposal(question: str, reply: str) -> None:
    assert not reply_answers(question, reply, NAMES)


def test_the_proposal_is_a_source_of_the_confirmed_date() -> None:
    """On the main of before the fact named the reply's turn only."""
    prior = [turn("in three weeks maybe? that friday?", "Ysenna", 1)]
    facts = drafted(turn("the 12th? yes, i'm free then", "Corbald", 2), prior)
    assert facts and all(sources == ["D7:1", "D7:2"] for _, sources in facts), facts
    assert any("12th" in text for text, _ in facts)


def test_a_bare_value_is_said_with_the_asking_word_it_answers() -> None:
    """On the main of before: 'Corbald: 3 weeks', sourced by the reply alone."""
    prior = [turn("the cinnamon bakery?", "Ysenna", 1), turn("ya", "Corbald", 2), turn("how long", "Ysenna", 3)]
    facts = drafted(turn("3 weeks", "Corbald", 4), prior)
    assert facts == [('Corbald answered Ysenna\'s question "how long?": 3 weeks', ["D7:3", "D7:4"])], facts


def test_a_value_among_other_pieces_stays_in_its_line() -> None:
    """Only a line that is a bare value is said with the question; a longer line keeps all its pieces."""
    prior = [turn("im an aunt!!", "Corbald", 1), turn("WHAT", "Ysenna", 2), turn("WHEN", "Ysenna", 3)]
    facts = drafted(turn("friday night. 14th", "Corbald", 4), prior)
    assert facts and "14th" in facts[0][0], facts


def test_a_reply_to_an_asking_word_after_the_speakers_news_is_written_with_the_news() -> None:
    """Linking the question must not lose the news it asked after ('added to "..."')."""
    prior = [turn("wedding date set", "Corbald", 1), turn("finally!!", "Ysenna", 2), turn("12 june", "Corbald", 3),
             turn("where", "Ysenna", 4)]
    facts = drafted(turn("the harbour hall in Penlowen", "Corbald", 5), prior)
    assert facts and "D7:4" in facts[0][1] and "D7:5" in facts[0][1], facts


def test_filler_after_an_asking_word_forms_nothing() -> None:
    assert drafted(turn("haha ok", "Corbald", 2), [turn("how long", "Ysenna", 1)]) == []
