"""A short question about the listener's own thing asked without "you" (``terse_asked``), offline: the reply right
after is the speaker's answer, one fact stating both, both turns its sources. Questions about the asker or the
world, replies that only react, fill or say yes, and questions naming nothing after the speaker's own line (the
follow-up rule's) stay out. Invented conversations only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import terse_asked
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.clauses import answer_words
from dmem.state.schemas import Message
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2026, 3, 4, 20, 15)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Noor and Ivo, in order."""
    return [chat_turn(text, who, i + 1, session="T1", when=WHEN) for i, (who, text) in enumerate(lines)]


_facts = functools.partial(drafted_last, gated=False)


@pytest.mark.parametrize(("question", "thing"), [
    ("how r lessons", "lessons"),  # "how are your lessons": the thing is owned in the fact
    ("hows work", ""),  # not a noun of what a person has (a name, likely: "hows ness"): kept with the question
    ("how is baby", "baby"),
    ("hows the legs", ""),  # said with 'the': kept with the question
    ("how much", ""),
    ("of what", ""),
    ("meh why", ""),
    ("name", ""),  # a bare noun of what a person has
    ("baby?", ""),  # a person's word asks with its mark
    ("ok but how", ""),
])
def test_a_short_question_without_you_asks_about_the_listeners_thing(question: str, thing: str) -> None:
    assert terse_asked.own_thing(question) == thing


@pytest.mark.parametrize("question", [
    "how far is it to the coast",  # longer: about the world
    "how much are tickets these days",
    "how do i look",  # about the asker
    "hows your sister",  # says "your": ``replies`` reads it
    "what?",  # a "pardon?"
    "wait what",  # surprise
    "idk why",  # a doubt, no question
    "hows it",  # names nothing: the follow-up rule's
    "hi back",  # a greeting passed on, not one's back
    "baby",  # a person's word with no mark: a tease
    "lovely",
])
def test_other_lines_are_no_such_question(question: str) -> None:
    assert terse_asked.own_thing(question) is None


def test_the_reply_states_the_thing_asked_about_as_the_speakers() -> None:
    turns = _chat(("Ivo", "how r lessons"), ("Noor", "can float now"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted, reason
    assert reason.startswith("admitted: answer to Ivo's question ('how r lessons?')")
    assert _facts(turns) == [("Noor's lessons: can float now", ["T1:1", "T1:2"])]


def test_a_question_naming_no_thing_of_theirs_is_kept_with_the_reply() -> None:
    turns = _chat(("Noor", "lol"), ("Ivo", "ok so how much"), ("Noor", "32 each"))
    assert _facts(turns) == [('Noor answered Ivo\'s question "ok so how much?": 32 each', ["T1:2", "T1:3"])]
    turns = _chat(("Noor", "we got a new budgie"), ("Ivo", "omg"), ("Noor", "friend for pim"), ("Ivo", "name"),
                  ("Noor", "lieutenant fig"))
    assert _facts(turns) == [('Noor answered Ivo\'s question "name?": lieutenant fig', ["T1:4", "T1:5"])]


@pytest.mark.parametrize("reply", ["lol idk", "ye", "good", "haha same", "why?", "meh"])
def test_a_reply_that_only_reacts_fills_says_yes_or_asks_back_answers_nothing(reply: str) -> None:
    turns = _chat(("Ivo", "how r lessons"), ("Noor", reply))
    assert terse_asked.asked_terse(turns[-1], turns[:-1], answer_words) is None


def test_a_reply_in_pieces_is_one_fact_framed_with_its_question() -> None:
    turns = _chat(("Ivo", "how r lessons"), ("Noor", "scary. can float now"))
    assert _facts(turns) == [('Noor answered Ivo\'s question "how r lessons?": scary; can float now', ["T1:1", "T1:2"])]


def test_a_long_reply_is_judged_on_what_it_says() -> None:
    turns = _chat(("Ivo", "hows work"), ("Noor", "the whole district is getting new bus lanes soon"))
    assert terse_asked.asked_terse(turns[-1], turns[:-1], answer_words) is None


def test_a_question_naming_nothing_after_the_speakers_own_line_is_left_to_the_follow_up() -> None:
    turns = _chat(("Noor", "the dog escaped"), ("Ivo", "how far"), ("Noor", "next door"))
    assert terse_asked.asked_terse(turns[-1], turns[:-1], answer_words) is None
    # after the speaker's own question it asks about that question ("why do you ask"), not a thing of theirs
    turns = _chat(("Noor", "how was your weekend?"), ("Ivo", "why"), ("Noor", "roundabout. obvs"))
    assert terse_asked.asked_terse(turns[-1], turns[:-1], answer_words) is None
    # after a line of the speaker's that says nothing, the question asks on its own
    turns = _chat(("Noor", "meh"), ("Ivo", "meh why"), ("Noor", "pruett"))
    asked = terse_asked.asked_terse(turns[-1], turns[:-1], answer_words)
    assert asked is not None and (asked.asker, asked.turn_id, asked.thing) == ("Ivo", "T1:2", "")
    # a question naming its own thing is this rule's even right after the speaker's line
    turns = _chat(("Noor", "pool was cold today"), ("Ivo", "how r lessons"), ("Noor", "can float now"))
    asked = terse_asked.asked_terse(turns[-1], turns[:-1], answer_words)
    assert asked is not None and asked.thing == "lessons"


def test_the_speakers_own_question_before_is_no_question_answered() -> None:
    turns = _chat(("Noor", "how r lessons"), ("Noor", "can float now"))
    assert terse_asked.asked_terse(turns[-1], turns[:-1], answer_words) is None


@pytest.mark.parametrize("question", [
    "when u start", "where u going", "wat u doing", "how u feeling",  # an asking word, "u" its subject, no mark
    "doing wat", "got what", "going where", "u going where",  # an echo question: a verb, then the asking word
])
def test_a_short_unmarked_question_to_the_listener_asks_for_the_replys_detail(question: str) -> None:
    assert terse_asked.own_thing(question) == ""


@pytest.mark.parametrize("question", [
    "what u mean", "wat u think", "how u know",  # about what was just said, not the listener's own thing
    "so what", "wait wat",  # no verb: surprise or dismissal
    "when do u start",  # an auxiliary: ``replies`` reads it as a question
    "where did i put it",  # about the asker
])
def test_other_unmarked_lines_with_u_or_wat_are_no_such_question(question: str) -> None:
    assert terse_asked.own_thing(question) is None


def test_the_reply_to_an_unmarked_question_keeps_the_question() -> None:
    turns = _chat(("Noor", "got the bakery job!!"), ("Ivo", "YES"), ("Ivo", "when u start"), ("Noor", "monday"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and reason.startswith("admitted: answer to Ivo's question ('when u start?')")
    assert _facts(turns) == [('Noor answered Ivo\'s question "when Noor starts?": monday', ["T1:3", "T1:4"])]
    turns = _chat(("Noor", "new job"), ("Ivo", "doing wat"), ("Noor", "night baker"))
    assert _facts(turns) == [('Noor answered Ivo\'s question "doing wat?": night baker', ["T1:2", "T1:3"])]


def test_a_reply_to_an_unmarked_question_that_only_reacts_answers_nothing() -> None:
    turns = _chat(("Ivo", "when u start"), ("Noor", "lol idk"))
    assert terse_asked.asked_terse(turns[-1], turns[:-1], answer_words) is None
