"""Offline admission and splitting of chat-register turns: dropped subjects, casual spellings, replies."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.replies import casual_first_person, question_answered, restore_subject
from tests.conftest import chat_turn

TS = datetime(2025, 5, 2, 18, 0)


turn = functools.partial(chat_turn, session="D1", when=TS)
"""A turn of the invented chat, at ``TS``."""


@pytest.mark.parametrize(
    ("said", "restored"),
    [
        ("Been busy fixing up the old sailboat.", "I've been busy fixing up the old sailboat."),
        ("Just been helping my cousin move.", "I've just been helping my cousin move."),
        ("Had an audition yesterday for a radio play.", "I had an audition yesterday for a radio play."),
        ("Still working on opening a bakery", "I'm still working on opening a bakery"),
        ("Planning a trip to Oslo next month.", "I'm planning a trip to Oslo next month."),
        ("Yeah, started a pottery class.", "Yeah, I started a pottery class."),
        ("Love experimenting with spices.", "I love experimenting with spices."),
        ("Excited to try this.", "I'm excited to try this."),
        ("Never had a chance to go.", "I never had a chance to go."),
        # Unchanged: questions, imperatives, a noun or gerund as the subject, a full sentence.
        ("Been there?", "Been there?"),
        ("Make sure the couch is comfy!", "Make sure the couch is comfy!"),
        ("Let the sourdough rest overnight.", "Let the sourdough rest overnight."),  # past = base form: imperative
        ("Put it on low heat for an hour.", "Put it on low heat for an hour."),
        ("Painting is my therapy.", "Painting is my therapy."),
        ("Wedding went great!", "Wedding went great!"),
        ("Speed is what matters.", "Speed is what matters."),
        ("Fitting into the new choir was a challenge.", "Fitting into the new choir was a challenge."),
        ("I started a pottery class.", "I started a pottery class."),
    ],
)
def test_restore_subject(said: str, restored: str) -> None:
    assert restore_subject(said) == restored


def test_casual_first_person() -> None:
    assert casual_first_person("im playing a racing game and ive got two controllers") == \
        "I'm playing a racing game and I've got two controllers"
    assert casual_first_person("the time is right") == "the time is right"


def test_a_dropped_subject_is_admitted_and_split_with_the_speaker(decider: OfflineDecider) -> None:
    exchange = [turn("Thanks, Theo. Still working on opening a bakery.", "Maya", 1),
                turn("Had an audition yesterday for a radio play.", "Theo", 2)]
    verdicts = decider.admit(exchange, [], []).value.verdicts
    assert [v.admit for v in verdicts] == [True, True]
    texts = [f.text for f in decider.split(exchange, [], []).value.facts]
    assert texts == ["Maya is still working on opening a bakery", "Theo had an audition yesterday for a radio play"]


def test_casual_and_curly_first_person_are_first_person(decider: OfflineDecider) -> None:
    exchange = [turn("im learning to code a web scraper", "Maya", 1),
                turn("I\u2019ve got two rescue greyhounds", "Theo", 2)]
    assert [v.admit for v in decider.admit(exchange, [], []).value.verdicts] == [True, True]
    assert [f.text for f in decider.split(exchange, [], []).value.facts] == [
        "Maya is learning to code a web scraper", "Theo has got two rescue greyhounds"]


def test_a_reply_to_a_question_about_the_speaker_is_admitted(decider: OfflineDecider) -> None:
    asked = turn("Nice pick! What's your favourite film these days?", "Maya", 1)
    reply = turn("The Lighthouse Keeper by Ilse Varga.", "Theo", 2)
    verdict = decider.admit([reply], [asked], []).value.verdicts[0]
    assert verdict.admit and "answer to Maya's question ('What's your favourite film these days?')" in verdict.reason
    facts = decider.split([reply], [asked], []).value.facts
    assert [f.text for f in facts] == ["Theo's favourite film is The Lighthouse Keeper by Ilse Varga"]
    assert facts[0].source_turn_ids == ["D1:1", "D1:2"]  # the fact states both: the question is a source too


def test_a_reply_without_a_question_before_it_stays_rejected(decider: OfflineDecider) -> None:
    said = turn("Nice pick! I watched it twice.", "Maya", 1)
    reply = turn("The Lighthouse Keeper by Ilse Varga.", "Theo", 2)
    assert decider.admit([reply], [said], []).value.verdicts[0].admit is False
    assert decider.admit([reply], [], []).value.verdicts[0].admit is False


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("Which one do you mean?", "question"),  # a question back is not an answer
        ("Wow, amazing!", "emotional"),  # nothing informative
        ("Sure!", "vague"),
    ],
)
def test_replies_that_answer_nothing_stay_rejected(decider: OfflineDecider, reply: str, why: str) -> None:
    asked = turn("What's your favourite film these days?", "Maya", 1)
    verdict = decider.admit([turn(reply, "Theo", 2)], [asked], []).value.verdicts[0]
    assert verdict.admit is False and why in verdict.reason


def test_the_question_answered_is_the_turn_just_before_from_the_other_speaker() -> None:
    asked = turn("I saw your photo. Where was it taken? Do you go there often?", "Maya", 1)
    mine = turn("Not really.", "Theo", 2)
    reply = turn("At the harbour in Bergen.", "Theo", 3)
    found = question_answered(turn("At the harbour.", "Theo", 2), [asked])
    assert found is not None and (found.asker, found.question) == ("Maya", "Do you go there often?")
    assert question_answered(reply, [asked, mine]) is None  # the speaker spoke in between
    about_it = turn("Love that photo! What's on it?", "Maya", 1)
    found = question_answered(reply, [about_it])
    assert found is not None and found.question == "What's on it?"


def test_a_reply_after_the_speakers_bare_what_answers_the_question_before_it(decider: OfflineDecider) -> None:
    asked = turn("How did Ysolde do at the gala?", "Maya", 1)
    what = turn("What?", "Theo", 2)
    restated = turn("Swimming. It was on Saturday", "Maya", 3)
    reply = turn("Oh! No gala after all, the pool is closed for repairs", "Theo", 4)
    found = question_answered(reply, [asked, what, restated])
    assert found is not None and (found.asker, found.question, found.turn_id) == (
        "Maya", "How did Ysolde do at the gala?", asked.turn_id)
    verdict = decider.admit([reply], [asked, what, restated], []).value.verdicts[0]
    assert verdict.admit, verdict.reason
    # "What?" asks again only when the speaker says it: the asker's own "what?" or a fuller question is no such line
    assert question_answered(reply, [asked, turn("what?", "Maya", 2), restated]) is None
    assert question_answered(reply, [asked, turn("What do you mean?", "Theo", 2), restated]) is None


def test_an_answer_to_a_question_about_a_shared_photo(decider: OfflineDecider) -> None:
    asked = turn("Love that photo! What's on it?", "Maya", 1)
    reply = turn("It's a hand-drawn map of the old harbour district.", "Theo", 2)
    facts = decider.split([reply], [asked], []).value.facts
    assert [f.text for f in facts] == [
        'Theo answered Maya\'s question "What\'s on it?": It\'s a hand-drawn map of the old harbour district']
