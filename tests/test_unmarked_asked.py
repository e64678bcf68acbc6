"""A bare answer joined to the other's question it answers, when the question drops its mark (h65g).

"is the new barista starting this week" / "thursday": the question opens with "is" and its subject and an -ing verb,
"who takes the van on friday" with "who" and a present verb; with no "?" they were read as statements, so the bare
answer stood alone ("too little detail") and the question was no source. "who's on the till" / "you": a who-question
answered by a pronoun alone names a person (the asker or the speaker), written by name. "the freezer is running
warm" / "how warm" / "7": the listener's question takes the line up as news, and the bare value goes on with that
fact ('...; how warm? 7'). Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.state.schemas import Message
from dmem.text.answers import names_who
from dmem.text.asked import question_sentences
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2031, 5, 2, 18, 5)
turn = functools.partial(chat_turn, session="M4", when=WHEN)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Gwendolen and Anselm, in order, after a greeting each."""
    opening = [("Gwendolen", "evening"), ("Anselm", "hey")]
    return [turn(text, who, i + 1) for i, (who, text) in enumerate([*opening, *lines])]


@pytest.mark.parametrize(("question", "asked"), [
    ("is the new barista starting this week", "is the new barista starting this week?"),
    ("are the twins coming on sunday", "are the twins coming on sunday?"),
    ("who takes the van on friday", "who takes the van on friday?"),
    ("who has the spare keys", "who has the spare keys?"),
])
def test_an_unmarked_question_by_its_opening_is_read_as_one(question: str, asked: str) -> None:
    assert question_sentences(question, bare=False) == [asked]


@pytest.mark.parametrize("line", [
    "who knows what happened there",  # a shrug, no question
    "who cares about the league",
    "the bus goes at nine",  # a statement
    "is the best thing about it",  # no -ing verb after the subject
    "who says that anyway",
    "who needs 10 jars",  # said to shrug
])
def test_a_statement_or_shrug_stays_no_question(line: str) -> None:
    assert question_sentences(line, bare=False) == []


def test_a_bare_day_answers_the_unmarked_question_and_both_are_sources() -> None:
    turns = _chat(("Anselm", "is the new barista starting this week"), ("Gwendolen", "thursday"))
    assert drafted_last(turns) == [
        ("Gwendolen answered Anselm's question \"is the new barista starting this week?\": thursday",
         ["M4:3", "M4:4"])]


def test_a_who_question_without_its_mark_frames_the_answer() -> None:
    turns = _chat(("Gwendolen", "Bad news, the keeper broke her thumb"), ("Anselm", "oh no"),
                  ("Anselm", "who goes in goal"), ("Gwendolen", "Hartwig asked Rosamund"))
    facts = drafted_last(turns)
    assert facts == [("Gwendolen answered Anselm's question \"who goes in goal?\": Hartwig asked Rosamund",
                      ["M4:5", "M4:6"])]


@pytest.mark.parametrize(("reply", "named"), [("you", "Anselm"), ("me!!", "Gwendolen"), ("u", "Anselm")])
def test_a_pronoun_alone_answering_who_names_the_person(reply: str, named: str) -> None:
    turns = _chat(("Gwendolen", "the manager is off to porto next week"), ("Anselm", "who's in charge"),
                  ("Gwendolen", reply))
    assert drafted_last(turns) == [(f"Gwendolen answered Anselm's question \"who's in charge?\": {named}",
                                    ["M4:4", "M4:5"])]


@pytest.mark.parametrize(("question", "reply"), [
    ("who?", "you"),  # who alone: asks whom the line meant, names nobody's role
    ("who knows", "you"),
    ("who cares", "me"),
    ("who's in charge", "you did"),  # a pronoun with a verb is judged on its words
    ("what's in the box", "you"),  # not a who-question
    ("Who is it?", "Me!"),  # who is at the door: no lasting fact
    ("who's there", "me"),
])
def test_a_pronoun_to_no_who_question_names_nobody(question: str, reply: str) -> None:
    assert not names_who(question, reply)


def test_the_pronoun_answer_stays_out_after_a_bare_who() -> None:
    turns = _chat(("Gwendolen", "someone left the gate open"), ("Anselm", "who"), ("Gwendolen", "you"))
    assert drafted_last(turns) == []


def test_a_bare_value_goes_on_with_the_news_the_listeners_question_took_up() -> None:
    turns = _chat(("Gwendolen", "ok heads up the cold room is running warm"), ("Anselm", "how warm"),
                  ("Gwendolen", "7"))
    assert judge_utterance(turns[-1], turns[:-1])[0]
    assert drafted_last(turns) == [("Gwendolen: heads up the cold room is running warm; how warm? 7",
                                    ["M4:3", "M4:4", "M4:5"])]


def test_a_bare_value_after_a_reaction_to_news_it_did_not_take_up_stays_out() -> None:
    turns = _chat(("Gwendolen", "lol"), ("Anselm", "how warm"), ("Gwendolen", "7"))
    assert drafted_last(turns) == []


def test_a_reply_to_the_listeners_echo_of_a_choice_goes_on_with_nothing() -> None:
    turns = _chat(("Gwendolen", "manual or automatic"), ("Anselm", "manual 😩"), ("Gwendolen", "respect"))
    assert not any("respect" in text for text, _ in drafted_last(turns))


def test_a_line_further_on_goes_on_with_no_head_only_a_question_took_up() -> None:
    turns = _chat(("Gwendolen", "leaving do fri"), ("Anselm", "where"), ("Gwendolen", "the boathouse obvs"),
                  ("Anselm", "obvs"), ("Gwendolen", "come"), ("Anselm", "on shift"), ("Gwendolen", "boo"))
    assert not any("boo" in text for text, _ in drafted_last(turns))
