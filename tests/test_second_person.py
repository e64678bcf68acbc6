"""The second person's words have one home (``dmem.text.words``): the shared set and the variants the stages were
tuned with, each finding what it names and nothing past it (issue #26, stop 50, h50e). Invented lines only."""

from __future__ import annotations

import re

import pytest

from dmem.text.words import (
    LISTENER_SAID,
    LISTENER_SAID_CHAT,
    SECOND_PERSON,
    SECOND_PERSON_ASKED,
    SECOND_PERSON_CHAT,
    whole_words,
)

ALL = (SECOND_PERSON, SECOND_PERSON_ASKED, SECOND_PERSON_CHAT, LISTENER_SAID, LISTENER_SAID_CHAT)


@pytest.mark.parametrize("line", ["are you coming to the regatta", "You're late again", "is that ur kayak",
                                  "did u see the eclipse", "the blue one is yours", "YOUR sister rang"])
def test_every_variant_finds_the_listener_in_you_your_u_ur(line: str) -> None:
    assert all(p.search(line) for p in ALL)


@pytest.mark.parametrize(
    "line", ["the youth club reopened", "young Ferdie fixed the gate", "our uncle drove", "a urn and a yurt"])
def test_no_variant_finds_a_word_that_only_starts_like_you(line: str) -> None:
    assert not any(p.search(line) for p in ALL)


def test_the_reflexive_is_in_the_shared_set_and_not_in_the_said_variants() -> None:
    line = "treat yourself to the good cheese"
    assert SECOND_PERSON.search(line) and SECOND_PERSON_ASKED.search(line) and SECOND_PERSON_CHAT.search(line)
    assert not LISTENER_SAID.search(line) and not LISTENER_SAID_CHAT.search(line)


def test_chat_ya_is_only_in_the_chat_variants() -> None:
    line = "see ya at the boathouse"
    assert SECOND_PERSON_CHAT.search(line) and LISTENER_SAID_CHAT.search(line)
    assert not SECOND_PERSON.search(line) and not SECOND_PERSON_ASKED.search(line) and not LISTENER_SAID.search(line)


def test_yall_is_only_in_the_asked_variant() -> None:
    line = "y'all still doing the pub quiz"
    assert SECOND_PERSON_ASKED.search(line)
    assert not any(p.search(line) for p in ALL if p is not SECOND_PERSON_ASKED)
    assert SECOND_PERSON_ASKED.sub(" ", line).split() == ["still", "doing", "the", "pub", "quiz"]


def test_whole_words_is_case_blind_and_escapes_its_words() -> None:
    pattern = whole_words("Ahoy dot.com")
    assert pattern.flags & re.I and pattern.search("AHOY there") and pattern.search("the dot.com days")
    assert not pattern.search("the dotacom days") and not pattern.search("ahoyed")
