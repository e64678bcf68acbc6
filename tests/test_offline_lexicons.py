"""The offline engine's lexicons (brands, places, concept classes) must not misfire.

A named pet, person or possession of the user is never a public entity, a lexicon word in lower
case names nothing, a home city is personal context, and a word with a second sense ('a flat
tire', 'running late') is no member of a concept class.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline.answer_extraction import answer
from dmem.decisions.offline.entities import sort_names
from dmem.decisions.offline.scoping import classify
from dmem.decisions.offline.spans import concept_span
from dmem.decisions.offline.topics import shares
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Scope


def scope_of(text: str, speaker: str = "Maya") -> Scope:
    return classify(text, speaker)[0]


# Brands ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Maya adopted a cat named Pixel",  # a pet named like a phone
        "Maya's kitten is called Kindle",
        "Theo named his puppy Lego",
        "Maya's rabbit goes by Uber",
        "Theo's daughter Kia started school",
        "Maya went kayaking with Mercedes",  # a companion named like a car brand
        "Maya's friend Ford lent her a tent",
        "Theo calls his old boat Amazon",
        "Maya baked an apple pie",  # lower case: the fruit, not the company
        "Theo cleaned the windows of his flat",
        "Maya made mac and cheese for dinner",
        "Theo's nephew loves building with lego bricks",
    ],
)
def test_brand_words_that_name_the_users_own_or_nothing_are_not_public(text: str) -> None:
    assert scope_of(text) != Scope.EXTERNAL, classify(text, "Maya")
    assert not sort_names(text, "Maya").public


@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("Maya adopted a cat named Pixel", Scope.INTERNAL),  # household: only her own memories may describe it
        ("Maya's friend Ford lent her a tent", Scope.INTERNAL),
        ("Maya baked an apple pie", Scope.GENERIC),
    ],
)
def test_the_users_own_names_are_internal_and_plain_words_generic(text: str, scope: Scope) -> None:
    assert scope_of(text) == scope


# Places ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Alice lives in Boston",  # a home city is personal context
        "Alice moved to Lisbon last spring",
        "Theo grew up in Kyoto",
        "Maya is from Chile",
        "Theo was born in Sydney",
        "Maya relocated to Denver for the summer",
        "Maya's hometown is Portland",
        "Theo's colleague Austin fixed the printer",  # a person named like a city
        "Maya had lunch with Phoenix and Dallas",
        "Maya named her goldfish Paris",
        "Theo roasted a turkey for the holidays",  # lower case: the bird, not the country
        "Maya inherited her grandmother's china",
        "Theo added chile flakes to the soup",
    ],
)
def test_place_words_that_are_home_people_or_plain_words_are_not_public(text: str) -> None:
    assert scope_of(text) != Scope.EXTERNAL, classify(text, "Maya")
    assert not sort_names(text, "Maya").public


def test_home_city_and_occupation_get_the_same_scope() -> None:
    home, job = classify("Alice lives in Boston", "Alice"), classify("Alice works as a nurse", "Alice")
    assert home[0] == job[0] == Scope.GENERIC
    assert home[1] is job[1] is False  # nothing is looked up about where she lives
    assert "'Boston' is where the user lives" in home[2]


def test_a_named_workplace_is_the_users_own_organization() -> None:
    scope, enrich, reason, _ = classify("Maya works at Atlas Robotics in Lisbon", "Maya")
    assert (scope, enrich) == (Scope.INTERNAL, True)
    assert "own organization ('Atlas Robotics')" in reason


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        ("Maya visited Paris in May", "Paris"),  # a trip, not a home
        ("Theo is switching to a Tesla", "Tesla"),
        ("Maya walked across the Golden Gate Bridge", "Golden Gate Bridge"),  # public head noun
        ("Theo hiked in the Blue Ridge last fall", "Blue Ridge"),  # a name after 'the'
        ("Maya watched Star Wars again", "Star Wars"),  # a title after a media verb
        ("Maya spent a week in New York", "New York"),  # a place word before the name
        ("Theo bought a Pixel phone", "Pixel"),  # a brand he owns, not a name he gave
    ],
)
def test_public_entities_are_still_found(text: str, entity: str) -> None:
    assert sort_names(text, "Maya").public[:1] == [entity]
    assert scope_of(text) == Scope.EXTERNAL


def test_a_pet_and_a_public_place_in_one_fact_is_internal() -> None:
    names = sort_names("Maya adopted a cat named Pixel in Paris", "Maya")
    assert (names.own, names.public) == (["Pixel"], ["Paris"])
    assert scope_of("Maya adopted a cat named Pixel in Paris") == Scope.INTERNAL  # privacy wins ties


def test_a_person_named_like_nothing_public_is_no_entity() -> None:
    assert sort_names("Maya met Ana Ferreira at the climbing gym", "Maya").public == []
    assert sort_names("Maya had coffee at Ana Ferreira's flat", "Maya").public == []  # a person's, not a place


# Concept classes -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("What instrument does Theo play?", "Theo bought a new keyboard for his laptop"),
        ("What sport does Maya do?", "Maya was running late for the ferry"),
        ("What sport does Maya do?", "Maya is running a small bakery"),
        ("What sport does Maya do?", "Maya was climbing the stairs to her flat"),
        ("What kind of home does Maya have?", "Maya had a flat tire on the way back"),
        ("What work does Maya do?", "Maya did a great job on the cake"),
        ("What job does Maya have?", "The plan did not work out"),
        ("What pet does Theo have?", "Theo is an early bird"),
        ("What instrument does Theo play?", "Theo tried to drum up support for the fair"),
        ("What vehicle does Maya own?", "Maya bought a convertible sofa bed"),
    ],
)
def test_a_word_in_another_sense_is_no_class_member(question: str, line: str) -> None:
    assert concept_span(question, line) is None


@pytest.mark.parametrize(
    ("question", "line", "span"),
    [
        ("What instrument does Theo play?", "Theo plays the keyboard in a band", "keyboard"),
        ("What sport does Maya do?", "Maya goes running every morning", "running"),
        ("What vehicle does Maya own?", "Maya has a red Vespa", "Vespa"),
        ("What pet does Theo have?", "Theo has two cats and a dog", "two cats and a dog"),
    ],
)
def test_class_members_in_their_own_sense_still_answer(question: str, line: str, span: str) -> None:
    assert concept_span(question, line) == span


def test_a_word_in_another_sense_does_not_put_a_line_on_topic() -> None:
    context = ["[2024-03-18] Maya was running late for the ferry"]
    assert answer(HashEmbeddings(), "What sport does Maya do?", context).answer == "No information available."


def test_long_stems_match_the_words_they_open() -> None:
    assert shares({"friend"}, ["friendship"])
    assert not shares({"cat"}, ["categori"])  # too short to tell a prefix from a coincidence
