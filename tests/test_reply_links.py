"""A reply linked to a question further back (up to three of the asker's messages, two of the replier's) only
when nobody took turns and the reply plausibly answers it; questions in a row answered in order; both engines
alike. Invented chats only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.model import ModelDecider
from dmem.decisions.offline.replies import question_replied
from dmem.state.schemas import Message
from dmem.testing import FakeChatModel
from dmem.text.answers import is_kind_asked, yes_no_echo
from dmem.text.crossed import replied_question
from tests.conftest import chat_turn

TS = datetime(2025, 11, 8, 20, 15)
turn = functools.partial(chat_turn, session="K3", when=TS)
"""A turn of the invented chat, at ``TS``."""
AFTER = [("Wren", "I'm so hungry rn"), ("Wren", "skipped lunch again"), ("Wren", "the canteen was shut")]
"""Three messages of the asker after the question, none on its topic."""


def _link(reply: str, prior: list[tuple[str, str]]) -> int | None:
    return replied_question(("Tomas", reply), prior)


# Further back ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("question", "reply"), [
    ("What did you bake for the fair?", "For the fair I baked rye rolls"),  # a topic word
    ("Did you renew your passport?", "I did, last week"),  # a yes/no echo
    ("Have you tried the new pool?", "not yet"),
    ("Where are you moving to?", "to Ghent, near the old docks"),  # a place for where
    ("When is the recital?", "Saturday at 7"),  # a time for when
    ("How long was the flight?", "eleven hours, brutal"),  # a length for how long
    ("How many guests are coming?", "about 30 so far"),  # a number for how many
])
def test_a_reply_after_three_of_the_askers_messages_that_plausibly_answers_is_linked(question: str,
                                                                                      reply: str) -> None:
    prior = [("Wren", question), *AFTER]
    assert _link(reply, prior) == 0
    assert _link(reply, [*prior, ("Wren", "anyway")]) is None  # four after: past the window


@pytest.mark.parametrize(("question", "reply"), [
    ("Did you renew your passport?", "yeah"),  # a bare yes agrees with anything
    ("Did you renew your passport?", "yep"),
    ("What did you bake for the fair?", "which fair? the one in spring?"),  # the reply asks
    ("What did you bake for the fair?", "my sister is visiting next week"),  # another topic
    ("Where are you moving to?", "honestly no idea what to do"),  # no place, no topic word
])
def test_a_reply_further_back_that_does_not_plausibly_answer_is_not_linked(question: str, reply: str) -> None:
    assert _link(reply, [("Wren", question), *AFTER]) is None
    assert _link("For the fair I baked rye rolls", [("Wren", "What did you bake for the fair?"), *AFTER]) == 0


def test_a_topic_word_said_in_between_does_not_tie_the_reply_to_the_question() -> None:
    prior = [("Wren", "How was the festival?"), ("Wren", "saw a clip of the fireworks"), ("Wren", "so jealous")]
    assert _link("the fireworks were unreal", prior) is None  # it takes up the clip, not the question
    assert _link("the festival was muddy but great", prior) == 0


def test_the_replier_took_a_turn_in_between_so_the_reply_answers_that() -> None:
    prior = [("Wren", "What did you bake for the fair?"), ("Wren", "I got a new kitten"), ("Wren", "she's tiny"),
             ("Tomas", "a kitten! what's her name")]
    assert _link("I baked rye rolls for the fair", prior) is None
    crossed_first = [("Wren", "What did you bake for the fair?"), ("Tomas", "sorry, was driving"),
                     ("Tomas", "just got home")]  # the replier's own messages, typed before reading
    assert _link("I baked rye rolls for the fair", crossed_first) == 0


# Questions in a row ---------------------------------------------------------------------------------------

def test_questions_in_a_row_answered_in_a_row_pair_up_in_order() -> None:
    prior = [("Wren", "where did you go for the holiday?"), ("Wren", "and when did you get back?")]
    assert _link("took the train up to Aberlady with my brother", prior) == 0
    assert _link("tuesday night, super late", [*prior, ("Tomas", "took the train up to Aberlady")]) == 1
    asked = [("Wren", "What did you call the puppy?"), ("Wren", "how old is he?")]
    assert _link("we called him Pretzel", asked) == 0
    assert _link("nine weeks", [*asked, ("Tomas", "we called him Pretzel")]) == 1


# Shapes of an answer --------------------------------------------------------------------------------------

def test_a_yes_no_echo_uses_the_questions_verb_or_refuses_outright() -> None:
    assert yes_no_echo("Did you book it?", "yes I did")
    assert yes_no_echo("Have you been?", "I have, twice")
    assert yes_no_echo("Are you coming?", "nope")
    assert yes_no_echo("Have you been?", "never")
    assert not yes_no_echo("Did you book it?", "yeah")
    assert not yes_no_echo("Did you book it?", "yes I have a cold")
    assert not yes_no_echo("Where did you go?", "I did")


def test_the_kind_of_answer_asked() -> None:
    assert is_kind_asked("where did you stay?", "at a hostel in Lyon")
    assert not is_kind_asked("where did you stay?", "it was lovely")
    assert is_kind_asked("when do you start?", "next monday")
    assert is_kind_asked("how long did it take?", "a couple of hours")
    assert is_kind_asked("how much was it?", "$40")
    assert not is_kind_asked("how many came?", "it was lovely")
    assert not is_kind_asked("what did you eat?", "next monday")


# Both engines ---------------------------------------------------------------------------------------------

def _chat() -> tuple[list[Message], Message]:
    prior = [turn("where did you go for the holiday?", "Wren", 1), turn("and when did you get back?", "Wren", 2)]
    return prior, turn("We took the train up to Aberlady with my brother.", "Tomas", 3)


def test_the_offline_engine_names_the_first_question_for_the_first_reply() -> None:
    prior, said = _chat()
    asked = question_replied(said, prior)
    assert asked is not None and asked.turn_id == "K3:1"


def test_the_model_split_check_names_the_question_the_offline_engine_names() -> None:
    """On main the model's check named the question right before (when did you get back) for the place."""
    prior, said = _chat()
    fact = {"text": "Tomas took the train to Aberlady with his brother", "speaker": "Tomas", "source_turn_ids": ["1"]}
    model = FakeChatModel(script={"FactDrafts": [{"facts": [fact]}]})
    got = ModelDecider(model).split([said], prior, []).value.facts
    asked = question_replied(said, prior)
    assert asked is not None and [f.source_turn_ids for f in got] == [[asked.turn_id, "K3:3"]]
    far = [turn("How many guests are coming?", "Wren", 1), turn("I'm so hungry rn", "Wren", 2),
           turn("skipped lunch again", "Wren", 4), turn("the canteen was shut", "Wren", 5)]
    reply = turn("about 30 so far, maybe more", "Tomas", 6)
    fact = {"text": "About 30 guests are coming", "speaker": "Tomas", "source_turn_ids": ["1"]}
    model = FakeChatModel(script={"FactDrafts": [{"facts": [fact]}]})
    assert [f.source_turn_ids for f in ModelDecider(model).split([reply], far, []).value.facts] == [["K3:1", "K3:6"]]
