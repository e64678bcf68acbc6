"""Questions that carry a fact: admitted by the offline gate and stated about the right person.

Invented people and lines only: Rosa asks, Dmitri is asked.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.model import ModelDecider
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.presuppose import presupposed, statement
from dmem.state.schemas import Provenance
from dmem.testing import FakeChatModel
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D5", when=datetime(2025, 6, 2, 19, 0))
"""A turn of the invented chat."""


def drafted(decider: OfflineDecider, question: str) -> tuple[bool, str, list[tuple[str, Provenance]]]:
    """Rosa's question after a turn of Dmitri that asks nothing: admitted, the reason, the facts drafted."""
    before = turn("Finally home after a long shift.", "Dmitri", 1)
    said = turn(question, "Rosa", 2)
    verdict = decider.admit([said], [before], []).value.verdicts[0]
    facts = decider.split([said], [before], []).value.facts if verdict.admit else []
    return verdict.admit, verdict.reason, [(f.text, f.provenance) for f in facts]


@pytest.mark.parametrize(("question", "fact"), [
    ("Did you finish the crossword book I lent you?", "Rosa lent Dmitri the crossword book"),
    ("Have you been to the tapas bar I work at?", "Rosa works at the tapas bar"),
    ("Do you want to come to my choir concert on sunday?", "Rosa has a choir concert on sunday"),
    ("How's your new kitten settling in?", "Dmitri has a new kitten"),
    ("Are you still at the flower shop?", "Dmitri has been at the flower shop"),
    ("When do you start at the new clinic?", "Dmitri will start at the new clinic"),
    ("Do you still swim at the lido?", "Dmitri has swum at the lido"),
    ("Is your sister still in the air force?", "Dmitri's sister has been in the air force"),
    ("How was your cousin's wedding?", "Dmitri's cousin had a wedding"),
    ("How's the new job treating you?", "Dmitri has a new job"),
    ("hows ur new bike?", "Dmitri has a new bike"),
])
def test_a_question_that_carries_a_fact_gives_it_as_a_statement(decider: OfflineDecider, question: str,
                                                                fact: str) -> None:
    admitted, reason, facts = drafted(decider, question)
    assert admitted, reason
    assert facts == [(fact, Provenance.INFERRED)]


def test_a_question_saying_more_than_its_statement_is_kept_as_asked(decider: OfflineDecider) -> None:
    admitted, reason, facts = drafted(decider, "Is your dad feeling better after the fall?")
    assert admitted and "('your dad')" in reason
    assert facts == [('Rosa asked Dmitri: "Is Dmitri\'s dad feeling better after the fall?"', Provenance.STATED)]


@pytest.mark.parametrize("question", [
    "What do you do for fun?", "How are you?", "What about you?", "Any plans?", "Really?", "How was your day?",
    "What's your favourite film?", "Do you have any pets?", "Are you still there?", "Are you still working?",
    "How's your family?", "What are your plans for the summer?", "Is that the way you see it?",
    "Anything else that keeps you going?", "Can I ask you something?", "Are you still up for tonight?",
])
def test_generic_phatic_and_vague_questions_carry_no_fact(decider: OfflineDecider, question: str) -> None:
    assert presupposed(question) is None and statement(question, "Rosa", "Dmitri") is None
    assert drafted(decider, question)[0] is False


@pytest.mark.parametrize(("question", "words"), [
    ("Did you get the postcard I sent you from Oslo?", "the postcard I sent you"),
    ("Did your ankle heal after the sprain?", "your ankle"),
    ("Are you nervous about your viva exam?", "your viva exam"),
])
def test_the_reason_quotes_the_words_that_carry_the_fact(question: str, words: str) -> None:
    assert presupposed(question) == words


def test_the_body_is_a_fact_only_about_an_injury() -> None:
    assert presupposed("Do you get your hair cut often?") is None
    assert presupposed("Did your ankle heal after the sprain?") == "your ankle"


def test_model_prompts_ask_for_the_presupposed_fact_as_a_statement() -> None:
    model = FakeChatModel(script={"FactDrafts": [{"facts": []}]})
    ModelDecider(model).split([turn("How's your new kitten settling in?", "Rosa", 2)], [], [])
    system = str(model.calls_for("FactDrafts")[0].messages[0].content)
    assert "'Ivo has a new kitten'" in system and "never the question copied" in system


def test_chat_spellings_are_written_out_once_as_admission_reads_them() -> None:
    """One speller (``register.standard``) for admission and for the statement a question carries."""
    assert statement("did u finish the crossword book i lent u", "Rosa", "Dmitri") == \
        "Rosa lent Dmitri the crossword book"
    assert statement("did you get the U-Haul I reserved for you", "Rosa", "Dmitri") == \
        "Rosa reserved the U-Haul for Dmitri"  # a 'U' inside a name is no 'you'


# Stop 44: a question read with what follows it, a plan asked after, a tail to confirm ------------------------

@pytest.mark.parametrize(("question", "fact"), [
    ("Have you tried the dumpling cart on Quay Lane? It's incredible!",
     "Rosa has tried the dumpling cart on Quay Lane: It's incredible"),
    ("Have you been to the night market on Pier Road? I loved it", "Rosa has been to the night market on Pier Road: "
                                                                    "Rosa loved it"),
    ("Did you end up buying the camper van?", "Dmitri considered buying the camper van"),
    ("Did you get to see the lantern parade after all?", "Dmitri planned to see the lantern parade"),
    ("Did you ever go to the pottery class in the end?", "Dmitri planned to go to the pottery class"),
    ("and you, still at the bakery?", "Dmitri has been at the bakery"),
    ("Can you believe I finally passed my sailing exam?", "Rosa finally passed Rosa's sailing exam"),
    ("Did I tell you my cousin is moving to Tallinn in June?", "Rosa's cousin is moving to Tallinn in June"),
])
def test_a_question_read_with_what_follows_or_asking_after_a_plan_gives_a_statement(
        decider: OfflineDecider, question: str, fact: str) -> None:
    admitted, reason, facts = drafted(decider, question)
    assert admitted, reason
    assert facts == [(fact, Provenance.INFERRED)]


@pytest.mark.parametrize("question", [
    "Have you tried the dumpling cart on Quay Lane?",  # nothing after it vouches: only a question
    "Have you tried the dumpling cart? Not sure it's open.",
    "Did you ever go to Iceland?",  # an experience asked for, no plan
    "Did you end up winning the quiz?",  # an outcome asked for
    "How did you end up celebrating?",
    "Still the same?", "Can you believe it?", "Did I tell you about it?",
])
def test_questions_without_a_vouching_clause_or_a_plan_carry_no_fact(decider: OfflineDecider, question: str) -> None:
    assert drafted(decider, question)[0] is False


@pytest.mark.parametrize(("line", "question"), [
    ("Will do!", False), ("Have a great trip", False), ("Is what it is", False), ("DO NOT tell mum", False),
    ("Can't wait for it", False), ("Would love to see the harbour one day", False), ("What a cute dog!", False),
    ("When it comes to baking, I love tarts", False), ("When you visit Tromso try the sauna", False),
    ("Will you come", True), ("Is Marta in", True), ("What does that entail", True), ("Did it rain", True),
    ("Isn't it lovely?", True),
])
def test_a_line_opening_like_a_question_asks_only_before_its_subject(line: str, question: bool) -> None:
    from dmem.decisions.offline.rules import opens_question
    assert (opens_question(line) or line.endswith("?")) is question


def test_looking_forward_to_a_dated_occasion_is_a_plan_not_a_question(decider: OfflineDecider) -> None:
    admitted, reason, facts = drafted(decider, "Can't wait for tomorrow's open day at the studio!")
    assert admitted and "dated plan" in reason
    assert [f for f, _ in facts] == ["Rosa can't wait for tomorrow's open day at the studio"]
    assert drafted(decider, "Can't wait to hear how it goes")[0] is False  # a reaction, no occasion


def test_a_lead_in_announcing_news_is_no_hedge(decider: OfflineDecider) -> None:
    """'Guess what, I ...' tells news: no 'I guess', and the lead-in stays out of the fact."""
    admitted, reason, facts = drafted(decider, "Guess what, I got the lighthouse job, can you believe it?")
    assert admitted and "hedged" not in reason
    assert [f for f, _ in facts] == ["Rosa got the lighthouse job"]
