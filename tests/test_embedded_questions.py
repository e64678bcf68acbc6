"""A question's embedded clause judged like a statement, and answer pieces that only react (issue #26, stop 47).

Invented people and lines only: Marit asks, Tobias is asked.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Provenance
from tests.conftest import chat_turn, drafted_after

turn = functools.partial(chat_turn, session="D3", when=datetime(2025, 3, 9, 18, 0))


def drafted(question: str, before: str = "Long day at work today.") -> tuple[bool, str, list[tuple[str, Provenance]]]:
    """Marit's question after a turn of Tobias: admitted, the reason, the facts drafted."""
    return drafted_after(turn(before, "Tobias", 1), turn(question, "Marit", 2))


@pytest.mark.parametrize(("question", "fact"), [
    ("When did you visit Lisbon?", "Tobias did visit Lisbon"),
    ("Oh nice. Which street in Tallinn are you living on?", "Tobias is living on (which street in tallinn)"),
    ("didnt u fail the first one in Ghent", "Tobias did fail the first one in Ghent"),
    ("did you hear cousin Wilma is flying in from Perth for the party", "Marit's news: cousin Wilma is flying in"),
])
def test_a_question_takes_its_embedded_clause_as_known(question: str, fact: str) -> None:
    admitted, reason, facts = drafted(question)
    assert admitted and "presupposed by a question" in reason
    assert [t for t, _ in facts][0].startswith(fact)
    assert facts[0][1] == Provenance.INFERRED  # presupposed, not said


@pytest.mark.parametrize(("question", "fact"), [
    ("Evening! My name is Hanna, what is yours?", "Marit's name is Hanna"),
    ("im good, I spent the day re-tiling the bathroom how about you?", "re-tiling the bathroom"),
])
def test_the_askers_statement_before_the_question_is_told(question: str, fact: str) -> None:
    admitted, reason, facts = drafted(question)
    assert admitted and "the asker's own statement in a question" in reason
    assert fact in facts[0][0] and facts[0][1] == Provenance.STATED


@pytest.mark.parametrize(("question", "fact"), [
    ("Hi! Busy day here. My name is Hanna, when may we visit you?", "Marit's name is Hanna"),
    ("My name is Hanna, how can I help you?", "Marit's name is Hanna"),
    ("Evening! My name is Hanna, what shall I call you?", "Marit's name is Hanna"),
])
def test_a_statement_before_a_modal_question_is_told_without_the_question_word(question: str, fact: str) -> None:
    """Stop 59: a modal and the asker between the question word and "you" ("how can I reach you"); the
    statement ends before the question word (it was drafted as "Marit's name is Hanna, how")."""
    admitted, reason, facts = drafted(question)
    assert admitted and "the asker's own statement in a question" in reason
    assert fact in facts[0][0] and not facts[0][0].rstrip().endswith(("how", "how,"))
    assert facts[0][1] == Provenance.STATED


@pytest.mark.parametrize("question", [
    "I'm doing fine, how can I reach you?",  # how the asker is: no fact
    "Im good what about you?",  # filler
    "Thanks so much, how can I ever repay you?",  # thanks, no fact
    "Wow, that looks lovely. What is Vellmar like?",  # a reaction, then a question about a place
])
def test_filler_before_a_modal_question_stays_rejected(question: str) -> None:
    admitted, reason, _ = drafted(question)
    assert not admitted, reason


@pytest.mark.parametrize("question", [
    "Remind me again, what are you cooking?",  # an order, not the asker's statement
    "im good, and you?",  # filler

    "what are you knitting at the moment?",  # no detail
    "what are you cooking tonight?",  # no detail
    "Do you swim in Lisbon much?",  # a yes/no question asks whether
    "How big is Tallinn?",  # the world, nobody's
    "Want to come over on friday?",  # an invitation naming nothing to do (one naming a thing or place and a day
    # forms the invitation: tests/test_question_chains.py)
    "How are you?",  # filler
    "What is your shoe size?",  # asks for a value
    "What's the weather like in Lisbon?",  # the world
    "Have you applied to any college in Tartu?",  # open
    "What are your favourite things to do in Tallinn?",  # a taste
])
def test_a_question_that_takes_nothing_as_known_stays_rejected(question: str) -> None:
    admitted, reason, _ = drafted(question)
    assert not admitted, reason


def test_an_answer_piece_that_only_reacts_forms_no_memory_of_its_own() -> None:
    decider = OfflineDecider(HashEmbeddings())
    asked = turn("How was your weekend?", "Marit", 1)
    reply = turn("Thanks for asking! That sounds like a great plan. I spent it repainting the boat shed.", "Tobias", 2)
    facts = decider.split([reply], [asked], []).value.facts
    assert len(facts) == 1
    assert "boat shed" in facts[0].text and "Thanks" not in facts[0].text
    assert facts[0].source_turn_ids == ["D3:1", "D3:2"]  # the question answered stays a source


def test_an_answer_piece_taking_up_the_question_is_kept() -> None:
    decider = OfflineDecider(HashEmbeddings())
    asked = turn("Did you get to the pottery class you booked?", "Marit", 1)
    reply = turn("Yes, the pottery class was fantastic! I made a lopsided mug.", "Tobias", 2)
    texts = [f.text for f in decider.split([reply], [asked], []).value.facts]
    assert any("pottery class" in t for t in texts) and any("mug" in t for t in texts)


def test_a_reaction_alone_still_answers() -> None:
    decider = OfflineDecider(HashEmbeddings())
    asked = turn("How was the ferry crossing to Aran?", "Marit", 1)
    reply = turn("Honestly pretty rough crossing", "Tobias", 2)
    assert decider.split([reply], [asked], []).value.facts
