"""First person rewritten to the speaker's name in a fact: a lead-in that only frames news, a question's
auxiliary, and the speaker named with someone else as one subject. Invented sentences only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline.pronouns import agree, rewrite_person
from dmem.decisions.offline.register import standard
from tests.chat_lines import ChatLines

CHAT = ChatLines("P3", datetime(2025, 9, 12, 18, 15), "Ha, fair enough.")
"""Noor's lines after Ivo's turn that asks nothing."""


@pytest.mark.parametrize(("said", "fact"), [
    ("did I mention my son started school", "Noor's son started school"),
    ("Did I tell you that I adopted a greyhound?", "Noor adopted a greyhound?"),
    ("my dad and I built a shed", "Noor's dad and Noor built a shed"),
    ("my dad and I have a shed by the canal", "Noor's dad and Noor have a shed by the canal"),
    ("My sister and I've booked a ferry", "Noor's sister and Noor have booked a ferry"),
    ("Tomas and I run a bike stall", "Tomas and Noor run a bike stall"),
    ("Do I ever go climbing on weekdays", "Does Noor ever go climbing on weekdays"),
    ("am I right that the gala is on friday", "is Noor right that the gala is on friday"),
    ("I do, I am a night nurse", "Noor does, Noor is a night nurse"),
    ("like I told you before, I love jazz", "like Noor told Ivo before, Noor loves jazz"),
    ("Have I told you about my trip?", "Has Noor told Ivo about Noor's trip?"),
])
def test_first_person_clauses_read_as_statements_about_the_speaker(said: str, fact: str) -> None:
    assert rewrite_person(said, "Noor", "Ivo") == fact


@pytest.mark.parametrize("said", ["I love my dad and I visit him weekly", "Yes and I love it"])
def test_a_clause_after_and_still_agrees_with_the_speaker_alone(said: str) -> None:
    assert "Noor visits" in rewrite_person(said, "Noor", "Ivo") or "Noor loves" in rewrite_person(said, "Noor", "Ivo")


def test_third_person_forms_are_not_agreed_twice() -> None:
    assert [agree(v) for v in ("does", "has", "is", "was", "go")] == ["does", "has", "is", "was", "goes"]


@pytest.mark.parametrize(("said", "fact"), [
    ("My dad and I built a shed last summer.", "Noor's dad and Noor built a shed last summer"),
    ("My wife and I are moving to Porto in May.", "Noor's wife and Noor are moving to Porto in May"),
    ("Did I mention my son started school last week!", "Noor's son started school last week"),
])
def test_the_offline_splitter_keeps_both_people_and_drops_the_lead_in(said: str, fact: str) -> None:
    admitted, reason = CHAT.judged(said)
    assert admitted, reason
    assert CHAT.facts(said)[0] == fact


@pytest.mark.parametrize(("said", "fact"), [
    ("I'll drive you to the ferry", "Noor will drive Ivo to the ferry"),
    ("I can take you in the van tomorrow", "Noor can take Ivo in the van tomorrow"),
    ("I met you at the gala", "Noor met Ivo at the gala"),
])
def test_you_as_an_object_stays_the_listener_and_the_next_word_is_not_a_verb(said: str, fact: str) -> None:
    assert rewrite_person(said, "Noor", "Ivo") == fact


@pytest.mark.parametrize(("said", "written"), [
    ("ur baking is way better than mine", "your baking is way better than mine"),
    ("ur leaving on friday?", "you're leaving on friday?"),
    ("ur so patient", "you're so patient"),
])
def test_ur_before_a_gerund_subject_is_your(said: str, written: str) -> None:
    assert standard(said) == written


@pytest.mark.parametrize(("said", "written"), [
    ('he say "tell her i want chips"', 'he say "tell her i want chips"'),
    ("my boss said: \"I need you here at eight\" so I'm going in early",
     "Noor's boss said: \"I need you here at eight\" so Noor is going in early"),
    ("Grandad goes 'you're late again'", "Grandad goes 'you're late again'"),
    ("she texted “i love it” and I cried", "she texted “i love it” and Noor cried"),
])
def test_someone_elses_quoted_words_keep_their_own_i_and_you(said: str, written: str) -> None:
    assert rewrite_person(said, "Noor", "Ivo") == written


def test_the_speakers_own_quoted_words_name_the_speaker() -> None:
    assert rewrite_person("I told him 'I'm out'", "Noor", "Ivo") == "Noor told him 'Noor is out'"
