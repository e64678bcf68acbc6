"""A category question is answered by the members the asked person's lines name (invented people and events)."""

from __future__ import annotations

import pytest

from dmem.decisions.offline import gate, members
from dmem.decisions.offline.answer_extraction import answer, category_answer
from dmem.models.embeddings import make_embeddings

EMB = make_embeddings("hash")


@pytest.mark.parametrize(("question", "category"), [
    ("What are Odile's hobbies?", "hobbies"),
    ("Which foods does Bruno like?", "foods"),
    ("What food did Bruno cook?", "foods"),
    ("What pets has Odile had?", "pets"),
    ("What instruments does Bruno play?", "instruments"),
    ("What spicy dishes does Bruno cook?", None),  # narrowed by a word before the category
    ("What dishes did Odile cook in her evening class?", None),  # narrowed to an occasion
    ("What food did Odile cook on 3 May 2024?", None),  # narrowed to a day
    ("What are Bruno's pets' names?", None),  # the members' names, not the members
    ("Does Odile have pets?", None),  # yes or no
    ("What pet does Bruno have?", None),  # one pet: the best line says it
    ("When did Odile get her pets?", None),
    ("What cuisines does Bruno like?", None),  # peoples' adjectives: no common word list
    ("What is Odile's job?", None),
])
def test_the_category_a_question_names(question: str, category: str | None) -> None:
    assert members.asked_category(question) == category


def test_a_hobbies_question_gathers_the_asked_persons_members_from_every_line() -> None:
    context = ["[2024-02-03] Odile has talked a lot about her hobbies lately",
               "[2024-02-10] Odile loves bouldering, she goes twice a week",
               "[2024-02-11] Bruno thinks Odile's new gym looks amazing",
               "[2024-03-01] Odile is keeping the drums she bought for her band",
               "[2024-03-05] Bruno loves fishing on the lake",
               "[2024-03-09] Odile went skiing for the first time"]
    got = answer(EMB, "What are Odile's hobbies?", context)
    assert got.answer.split(", ") == ["bouldering", "drums", "band", "skiing"]  # not Bruno's fishing
    assert got.used == [2, 4, 6]


def test_a_food_question_takes_the_thing_liked_not_what_is_done_with_it() -> None:
    context = ["[2024-05-02] Bruno really likes chicken dumplings",
               "[2024-05-04] Bruno loves making a spicy lentil soup for dinner",
               "[2024-05-06] Bruno's dinner with Odile was lovely",
               "[2024-05-09] Odile loves fresh figs"]
    got = answer(EMB, "What food does Bruno like?", context).answer
    assert got.split(", ") == ["chicken dumplings", "spicy lentil soup"]


def test_a_category_question_whose_person_names_no_member_is_answered_as_before() -> None:
    context = ["[2024-06-01] Bruno went kayaking on the river",
               "[2024-06-03] Bruno and his sister baked bread"]
    assert members.member_answer("What pets does Bruno have?", "pets", context, ["Bruno"]) == []
    assert members.gathered("What pets does Bruno have?", context) is None  # nothing gathered: both callers read None
    assert answer(EMB, "What pets does Bruno have?", context).answer  # the extractive answer still runs


def test_a_category_question_naming_no_person_in_the_context_is_not_gathered() -> None:
    context = ["[2024-06-01] Bruno adopted a tabby cat", "[2024-06-03] Odile's dog chased it up a tree"]
    assert category_answer("What pets does Yusuf have?", context) is None
    assert members.gathered("What pets does Yusuf have?", context) is None
    assert members.gathered("What pets does Bruno have?", context) == ("pets", ["Bruno"], [(0, "cat")])
    got = category_answer("What pets does Bruno have?", context)
    assert got is not None and got.answer == "cat"


def test_the_gate_passes_a_list_of_the_asked_persons_members_and_judges_other_answers_as_before() -> None:
    context = ["[2024-02-10] Odile loves bouldering, she goes twice a week",
               "[2024-03-01] Odile is keeping the drums she bought for her band",
               "[2024-03-05] Bruno loves fishing on the lake"]
    question = "What are Odile's hobbies?"
    listed = answer(EMB, question, context).answer
    assert gate.quality_gate(EMB, question, listed, context).passed
    assert members.lists_members(question, listed, context)
    assert not members.lists_members(question, "bouldering, fishing", context)  # Bruno's fishing is not hers
    assert not members.lists_members("Where does Odile climb?", "bouldering", context)
