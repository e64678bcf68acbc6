"""An utterance judged with the question it replies to: the question's turn is a source of the facts its
reply forms, a fragment reply is stated with the question, greetings and tags are no such question, and
no memory is added. Both engines (offline rules, the model split's check). Invented conversations only."""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import pytest

from dmem.api import Memory
from dmem.decisions.model import ModelDecider
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.replies import question_replied
from dmem.state.schemas import Message
from dmem.testing import FakeChatModel
from dmem.text.asked import real_questions, reply_answers
from tests.conftest import chat_turn

TS = datetime(2025, 6, 14, 9, 15)


turn = functools.partial(chat_turn, session="D4", when=TS)
"""A turn of the invented chat, at ``TS``."""


def facts(decider: OfflineDecider, said: Message, prior: list[Message]) -> list[tuple[str, list[str]]]:
    return [(f.text, f.source_turn_ids) for f in decider.split([said], prior, []).value.facts]


# What counts as a question a reply answers -------------------------------------------------------

@pytest.mark.parametrize("text", [
    "How are you?", "Morning Noor, how are you feeling?", "How was your day?", "How's your weekend been so far?",
    "What's up?", "How have you been?", "It was a long week, you know?", "Crazy weather, right?",
    "Hi! How's it going?",
])
def test_greetings_and_tags_are_no_real_question(text: str) -> None:
    assert real_questions(text) == []


@pytest.mark.parametrize("text", [
    "What got you into rowing?", "Did you see the harbour fireworks?", "Hey Noor! Where did you find that lamp?",
    "I tried the new bakery. How about you?", "How did your driving test go?",
])
def test_real_questions_are_found(text: str) -> None:
    assert real_questions(text)


@pytest.mark.parametrize(("question", "reply"), [
    ("What got you into rowing?", "Watching the river races every summer since I was a kid, honestly."),  # topic
    ("Did you see the harbour fireworks?", "Yeah, from the roof of the library with a couple of old friends."),
    ("What do you do on weekends with them?", "We mostly bake bread together and take long walks in the park."),
])
def test_a_reply_that_takes_up_a_real_question_answers_it(question: str, reply: str) -> None:
    assert reply_answers(question, reply, ("Ivo", "Noor"))


@pytest.mark.parametrize(("question", "reply"), [
    ("How are you?", "I started a new job at the aquarium and the jellyfish tanks are my favourite part."),
    ("Which bus goes to the stadium from the centre?", "The weather has been awful all week long and the "
                                                        "garden is flooded again, sadly."),
    ("Ivo, you know?", "Totally, it is such a long way to the coast from the city centre."),
])
def test_a_reply_to_a_greeting_or_ignoring_the_question_answers_nothing(question: str, reply: str) -> None:
    assert not reply_answers(question, reply, ("Ivo", "Noor"))


def test_only_the_other_speakers_turn_just_before_is_the_question() -> None:
    asked = turn("What got you into rowing?", "Ivo", 1)
    own = turn("I love the mornings on the water.", "Noor", 2)
    reply = turn("My cousin took me out on the river once.", "Noor", 3)
    assert question_replied(reply, [asked]) is not None
    assert question_replied(reply, [asked, own]) is None  # a message of the speaker's own in between
    assert question_replied(turn("My cousin took me out once.", "Ivo", 2), [asked]) is None  # the asker


# The offline engine --------------------------------------------------------------------------------

def test_an_admitted_reply_names_the_question_as_a_source(decider: OfflineDecider) -> None:
    """On the main of before, the reply's fact named the reply's turn only."""
    prior = [turn("What got you into rowing?", "Ivo", 1)]
    said = turn("My cousin took me out on the river once.", "Noor", 2)
    verdict = decider.admit([said], prior, []).value.verdicts[0]
    assert verdict.admit and "replies to Ivo's question ('What got you into rowing?')" in verdict.reason
    assert facts(decider, said, prior) == [("Noor's cousin took Noor out on the river once", ["D4:1", "D4:2"])]


def test_later_clauses_name_the_question_only_when_they_take_it_up(decider: OfflineDecider) -> None:
    prior = [turn("What got you into rowing?", "Ivo", 1)]
    said = turn("My cousin took me out on the river once. I also bake sourdough every Sunday. "
                "Rowing keeps me calm.", "Noor", 2)
    assert facts(decider, said, prior) == [
        ("Noor's cousin took Noor out on the river once", ["D4:1", "D4:2"]),
        ("Noor also bakes sourdough every Sunday", ["D4:2"]),
        ("Rowing keeps Noor calm", ["D4:1", "D4:2"]),
    ]


def test_a_reply_to_a_greeting_keeps_its_own_turn_only(decider: OfflineDecider) -> None:
    prior = [turn("Hey Noor, how are you?", "Ivo", 1)]
    said = turn("I just started at the city aquarium.", "Noor", 2)
    verdict = decider.admit([said], prior, []).value.verdicts[0]
    assert verdict.admit and "replies to" not in verdict.reason
    assert facts(decider, said, prior) == [("Noor just started at the city aquarium", ["D4:2"])]


def test_a_fragment_reply_is_stated_with_its_question(decider: OfflineDecider) -> None:
    prior = [turn("Did you finish the quilt for your niece?", "Ivo", 1)]
    said = turn("Yes, I mailed it to her in May.", "Noor", 2)
    assert facts(decider, said, prior) == [
        ('Noor answered Ivo\'s question "Did Noor finish the quilt for Noor\'s niece?": Noor mailed it to her in May',
         ["D4:1", "D4:2"])]


def test_a_reply_that_stands_alone_keeps_its_own_words(decider: OfflineDecider) -> None:
    prior = [turn("Did you finish the quilt for your niece?", "Ivo", 1)]
    said = turn("Yes, I finished the quilt last weekend.", "Noor", 2)
    assert facts(decider, said, prior) == [("Noor finished the quilt last weekend", ["D4:1", "D4:2"])]


@pytest.mark.parametrize(("question", "reply"), [
    ("Did you get my message?", "yep"), ("Did you see that?", "lol yes"), ("How are you doing?", "fine thanks"),
    ("What do you think?", "hmm not sure"),
])
def test_filler_replies_to_a_question_stay_rejected(decider: OfflineDecider, question: str, reply: str) -> None:
    assert decider.admit([turn(reply, "Noor", 2)], [turn(question, "Ivo", 1)], []).value.verdicts[0].admit is False


def test_ingestion_adds_sources_not_memories(tmp_path: Path) -> None:
    """The question in the exchange before (reference history) is a source; the memories are the same in number."""
    turns = [turn("I finally repainted the shed.", "Ivo", 1), turn("What got you into rowing?", "Ivo", 2),
             turn("My cousin took me out on the river once.", "Noor", 3), turn("Nice, I should try it.", "Ivo", 4)]
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        res = mem.add(turns, user_id="u", conversation_id="c1",
                      speaker_namespaces={"Noor": "noor", "Ivo": "ivo"})
        decisions = {d.turn_id: d for ex in res.exchanges for d in ex.admissions}
        noor = mem.get_all(user_id="noor")
    assert decisions["D4:2"].admitted is False and "replies to Ivo's question" in decisions["D4:3"].reason
    assert [(r.text, r.source_turn_ids) for r in noor] == [
        ("Noor's cousin took Noor out on the river once", ["D4:2", "D4:3"])]


# The model engine ------------------------------------------------------------------------------------

def test_model_split_names_the_question_of_a_reply_that_answers_it() -> None:
    """The check adds the question's turn to the reply's first fact and to facts taking up its words only."""
    reply = {"facts": [{"text": "Noor's cousin took Noor out on the river once", "speaker": "Noor",
                        "source_turn_ids": ["1"]},
                       {"text": "Noor bakes sourdough every Sunday", "speaker": "Noor", "source_turn_ids": ["1"]}]}
    model = FakeChatModel(script={"FactDrafts": [reply, reply]})
    said = turn("My cousin took me out on the river once. I bake sourdough every Sunday.", "Noor", 2)
    out = ModelDecider(model).split([said], [turn("What got you into rowing?", "Ivo", 1)], []).value.facts
    assert [f.source_turn_ids for f in out] == [["D4:1", "D4:2"], ["D4:2"]]
    greeted = ModelDecider(model).split([said], [turn("Hey, how are you?", "Ivo", 1)], []).value.facts
    assert [f.source_turn_ids for f in greeted] == [["D4:2"], ["D4:2"]]
    system = str(model.calls_for("FactDrafts")[0].messages[0].content)
    assert "The question's turn becomes a source of that fact" in system


def test_model_admission_prompt_judges_a_reply_with_its_question() -> None:
    verdicts = {"verdicts": [{"turn_id": "1", "reason": "answers the question about a trip", "admit": True}]}
    model = FakeChatModel(script={"AdmissionVerdicts": [verdicts]})
    ModelDecider(model).admit([turn("Yes, twice last spring.", "Noor", 2)],
                              [turn("Have you ever sailed to the dunes?", "Ivo", 1)], [])
    system = str(model.calls_for("AdmissionVerdicts")[0].messages[0].content)
    assert "Judge a reply together with the question it answers" in system and "A greeting" in system
