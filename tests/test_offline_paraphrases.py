"""The offline answerer finds a stored fact asked for in other words (invented people and facts).

Each class: the question's words are not the fact's ('live' / 'moved', 'do for a living' / 'works as',
'studying' / 'diploma', 'email' / the address), and a companion line shares a misleading word.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.spans import contact_span
from dmem.decisions.offline.topics import kin_words
from dmem.models.embeddings import HashEmbeddings
from dmem.text.questions import restate

COMPANIONS = [
    "Wren adopted a tabby cat called Biscuit",
    "Wren's brother is called Omar",
    "Wren has been living with two flatmates since March",
    "Wren runs on the canal path on Sundays",
]


@pytest.fixture(scope="module")
def decider() -> OfflineDecider:
    return OfflineDecider(HashEmbeddings())


def ask(decider: OfflineDecider, fact: str, question: str) -> str:
    lines = [*COMPANIONS[:2], fact, *COMPANIONS[2:]]
    context = [f"[2024-06-{day:02d}] {text}" for day, text in enumerate(lines, start=1)]
    return decider.answer(question, context).value.answer


@pytest.mark.parametrize(("fact", "question", "expected"), [
    ("Wren relocated to Tampere for her partner", "Where does Wren live?", "Tampere"),
    ("Wren moved to Daugavpils in the spring", "Which town is Wren based in?", "Daugavpils"),
    ("Wren settled in Rijeka after university", "Where is Wren's home?", "Rijeka"),
])
def test_residence_is_answered_by_a_move(decider: OfflineDecider, fact: str, question: str, expected: str) -> None:
    assert expected in ask(decider, fact, question)


@pytest.mark.parametrize(("fact", "question", "expected"), [
    ("Wren works as a tram driver in the old town", "What does Wren do for a living?", "tram driver"),
    ("Wren teaches geography at a village school", "What does Wren do for work?", "geography"),
    ("Wren is a dentist at a clinic by the harbour", "What does Wren do?", "dentist"),
    ("Wren started working as a glassblower for a studio", "What is Wren's job?", "glassblower"),
])
def test_occupation_is_answered_by_the_work_not_by_living(decider: OfflineDecider, fact: str, question: str,
                                                          expected: str) -> None:
    got = ask(decider, fact, question)
    assert expected in got
    assert "flatmates" not in got


@pytest.mark.parametrize(("fact", "question", "expected"), [
    ("Wren enrolled in a diploma in furniture restoration", "What is Wren studying?", "furniture restoration"),
    ("Wren takes evening lessons in Icelandic grammar", "What is Wren studying?", "Icelandic"),
    ("Wren is doing a master's in soil science", "What is Wren studying?", "soil science"),
])
def test_study_is_answered_by_a_course(decider: OfflineDecider, fact: str, question: str, expected: str) -> None:
    assert expected in ask(decider, fact, question)


@pytest.mark.parametrize(("fact", "question", "expected"), [
    ("Wren's email address is wren.k@example.net", "How can I email Wren?", "wren.k@example.net"),
    ("Wren's email is wren.k@example.net", "Where can I send Wren an e-mail?", "wren.k@example.net"),
    ("Wren's mobile number is 0471 22 33 44", "How can I text Wren?", "0471 22 33 44"),
    ("Wren's email is wren.k@example.net", "What's the best way to reach Wren?", "wren.k@example.net"),
])
def test_contact_questions_get_the_address_or_number(decider: OfflineDecider, fact: str, question: str,
                                                     expected: str) -> None:
    assert expected in ask(decider, fact, question)


@pytest.mark.parametrize(("fact", "question", "expected"), [
    ("Wren loves painting watercolours", "What is Wren's hobby?", "watercolours"),
    ("Wren adores old Italian westerns", "What films is Wren fond of?", "westerns"),
    ("Wren really enjoys bouldering", "What activity does Wren love?", "bouldering"),
])
def test_likes_are_answered_by_any_preference_verb(decider: OfflineDecider, fact: str, question: str,
                                                   expected: str) -> None:
    assert expected in ask(decider, fact, question)


def test_a_naming_called_is_not_a_phone_call() -> None:
    # "is called Omar" names someone; only a contact line may answer 'How can I call ...?'.
    assert kin_words("How can I call Wren?", "Wren's brother is called Omar") == []
    assert kin_words("How can I call Wren?", "Wren's mobile number is 0471 22 33 44") == ["call"]


def test_contact_span_takes_the_kind_asked_for() -> None:
    text = "Wren's email is wren.k@example.net and her number is +44 7700 900123"
    assert contact_span("How can I email Wren?", text) == "wren.k@example.net"
    assert contact_span("How do I phone Wren?", text) == "+44 7700 900123"
    assert contact_span("What is Wren studying?", text) is None


@pytest.mark.parametrize(("question", "restated"), [
    ("What does Wren do for a living?", "What does Wren do for work?"),
    ("What did Wren Ito do professionally before the move?", "What did Wren Ito do for work before the move?"),
    ("What does Wren do?", "What does Wren do for work?"),
    ("What is Wren's line of work?", "What is Wren's work?"),
    ("What does Wren do on weekends?", "What does Wren do on weekends?"),
    ("What do you do for fun?", "What do you do for fun?"),
])
def test_restate_rewrites_idioms_only(question: str, restated: str) -> None:
    assert restate(question) == restated
