"""A question quoted or stated in a fact names the people as a statement does: chat's "u", "ur" and "r u" are
the listener, and an auxiliary before its subject agrees with the name ("do you" -> "does Ivo", "didnt u fail"
-> "didn't Ivo fail"), while "you" as an object keeps its verb's subject. Invented people only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.pronouns import rewrite_person
from dmem.decisions.offline.register import standard
from dmem.decisions.offline.splitting import facts_from_message
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="Q7", when=datetime(2025, 10, 2, 19, 40))
"""A turn of the invented chat."""


@pytest.mark.parametrize(("said", "fact"), [
    ("ur band is playing?", "Ivo's band is playing?"),
    ("u still at the bakery?", "Ivo still at the bakery?"),
    ("u ok?", "Ivo ok?"),
    ("so proud of u", "so proud of Ivo"),
])
def test_chat_spellings_of_you_name_the_listener(said: str, fact: str) -> None:
    assert rewrite_person(said, "Noor", "Ivo") == fact


@pytest.mark.parametrize("said", ["ur so patient", "ur baking is way better than mine", "i miss u", "r u coming"])
def test_a_statement_reads_the_same_written_out_or_not(said: str) -> None:
    assert rewrite_person(said, "Noor", "Ivo") == rewrite_person(standard(said), "Noor", "Ivo")


@pytest.mark.parametrize(("said", "fact"), [
    ("didnt u fail the exam", "didn't Ivo fail the exam"),
    ("don't you love it", "doesn't Ivo love it"),
    ("won't you come", "won't Ivo come"),
    ("can't you see it", "can't Ivo see it"),
    ("do you still play the cello", "does Ivo still play the cello"),
    ("r u still at ur mum's", "is Ivo still at Ivo's mum's"),
    ("how long have you lived there", "how long has Ivo lived there"),
    ("what kind of music do you like", "what kind of music does Ivo like"),
    ("were you at the gig, or", "was Ivo at the gig, or"),
    ("you like it, don't you", "Ivo likes it, doesn't Ivo"),
    ("didn't I say so", "didn't Noor say so"),
    ("aren't I lucky", "isn't Noor lucky"),
    ("don't I know it", "doesn't Noor know it"),
])
def test_an_auxiliary_before_its_subject_agrees_and_the_verb_stays_bare(said: str, fact: str) -> None:
    assert rewrite_person(said, "Noor", "Ivo") == fact


@pytest.mark.parametrize(("said", "fact"), [
    ("they do you good", "they do Ivo good"),
    ("when the kids have you over", "when the kids have Ivo over"),
    ("Have you and Mia moved?", "Have Ivo and Mia moved?"),
    ("what do you guys cook", "what do Ivo guys cook"),
])
def test_you_as_an_object_or_in_a_plural_subject_leaves_the_auxiliary(said: str, fact: str) -> None:
    assert rewrite_person(said, "Noor", "Ivo") == fact


def test_a_bare_confirmation_quotes_its_question_about_the_listener() -> None:
    question, reply = turn("didnt u sell the van in may", "Wren", 1), turn("...yes", "Dario", 2)
    facts = facts_from_message(reply, [question, reply], [], gated=True)
    assert [f.text for f in facts] == ['Dario answered Wren\'s question "didn\'t Dario sell the van in may?": ...yes']


def test_a_question_kept_as_asked_agrees_with_the_listener() -> None:
    question = turn("r u still doing the pottery class on thursdays with ur aunt", "Wren", 1)
    reply = turn("yep every week", "Dario", 2)
    facts = facts_from_message(reply, [question, reply], [], gated=True)
    assert facts and "is Dario still doing the pottery class on thursdays with Dario's aunt" in facts[0].text
