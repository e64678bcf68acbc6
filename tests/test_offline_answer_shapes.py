"""The offline answerer picks its span by the question's shape (invented people and events).

Plural place nouns ask 'where'; a list question of a known type gets that type's items; 'who' takes
the name beside the question's topic word; a line that only restates the question gives way.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline import lists, spans
from dmem.decisions.offline.answer_extraction import answer
from dmem.models.embeddings import make_embeddings

EMB = make_embeddings("hash")


@pytest.mark.parametrize("question", ["Which cities has Odile visited?", "What countries did Bruno cycle through?",
                                      "In which towns did Odile sing?", "What places has Bruno lived in?"])
def test_plural_place_nouns_ask_where(question: str) -> None:
    assert spans.question_kind(question) == "where"


def test_a_place_list_gets_the_places_of_every_close_line() -> None:
    context = ["[2024-04-02] Odile visited a conference in Lisbon",
               "[2024-05-19] Odile visited Tallinn and then took the ferry to Helsinki",
               "[2024-06-01] Odile adopted a grey kitten"]
    got = answer(EMB, "Which cities has Odile visited?", context).answer
    assert set(got.split(", ")) == {"Lisbon", "Tallinn", "Helsinki"}


@pytest.mark.parametrize(("question", "kind"), [
    ("Which hobbies does Odile share with her nephews?", "activity"),
    ("What are Bruno's pets' names?", "person"),
    ("What books has Odile read?", "title"),
    ("What kinds of films does Odile like?", None),
    ("What instruments does Bruno play?", "class"),
    ("Which cities has Odile visited?", "place"),
    ("What are Bruno's plans for the winter?", None),
])
def test_the_noun_says_the_type_of_a_list(question: str, kind: str | None) -> None:
    assert lists.list_type(question) == kind


def test_an_activity_list_gets_the_activities_not_the_sentences() -> None:
    context = ["[2024-07-03] Odile went kayaking on the lake with her nephews",
               "[2024-07-20] Odile and her nephews spent the afternoon baking bread",
               "[2024-08-02] Odile's car needs new tyres"]
    got = answer(EMB, "Which hobbies does Odile share with her nephews?", context).answer
    assert set(got.split(", ")) == {"kayaking", "baking"}


def test_a_list_of_names_skips_the_people_the_question_names() -> None:
    context = ["[2024-03-11] Bruno adopted two rescue dogs, Pepper and Miso",
               "[2024-03-30] Bruno's cat Tofu sleeps on the radiator"]
    got = answer(EMB, "What are Bruno's pets' names?", context).answer
    assert set(got.split(", ")) == {"Pepper", "Miso", "Tofu"}


def test_who_takes_the_name_beside_the_topic_word_not_the_first_name() -> None:
    line = "Odile met Bruno at the gym, and these days she trains with her climbing partner Yusuf"
    assert spans.person_span(line, "Who is Odile's climbing partner?") == "Yusuf"
    assert spans.person_span("Odile had lunch with Bruno and Yusuf", "Who did Odile have lunch with?") == "Bruno"


def test_a_line_that_restates_the_question_gives_way_to_the_next_one() -> None:
    context = ["[2024-09-14] Wow, Odile baked for the school fair!",
               "[2024-09-15] For the school fair, Odile baked lemon tarts and fig rolls"]
    assert answer(EMB, "What did Odile bake for the school fair?", context).answer == "lemon tarts and fig rolls"
