"""Chat that drops the question mark still asks: "whats the band called" or "ever been to the dunes" is a question
its reply answers, for both engines (offline rules, the model split's check, the prompts); statements that
open with a wh-word ("what a morning", "when I was a kid") are not. Invented conversations only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.model import ModelDecider
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.question_facts import is_question
from dmem.decisions.offline.replies import question_answered, question_replied
from dmem.models.embeddings import HashEmbeddings
from dmem.prompts.formation import ADMIT_SYSTEM
from dmem.testing import FakeChatModel
from dmem.text import asked
from dmem.text.asked import question_sentences, real_questions
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D7", when=datetime(2025, 8, 2, 18, 40))
"""A turn of the invented chat."""


@pytest.mark.parametrize(("text", "question"), [
    ("whats the band called", "whats the band called?"),
    ("ever been to the dunes", "ever been to the dunes?"),
    ("Sounds familiar, what is the song called", "Sounds familiar, what is the song called?"),
    ("got any tips for a first marathon", "got any tips for a first marathon?"),
    ("Nice pic.\nwhere did you take it", "where did you take it?"),
    ("Do you still play the cello", "Do you still play the cello?"),
    ("What games did you all play", "What games did you all play?"),
    ("who won the regatta", "who won the regatta?"),
    ("Who painted it and what does it show", "Who painted it and what does it show?"),
])
def test_a_sentence_without_its_mark_that_opens_as_a_question_asks(text: str, question: str) -> None:
    assert question_sentences(text) == [question]
    assert real_questions(text) == [question]


@pytest.mark.parametrize("text", [
    "what a lovely morning", "When I was a kid we sailed every summer", "how cool is that", "any time",
    "I went to the harbour market", "Where I grew up it snowed in May", "What a game.", "Did it!",
    "whats up",  # a greeting stays one, marked or not
    "who knows", "I baked bread and what a mess it was", "We saw the old mill, which has a water wheel",
    "Had that cough for a week", "So ever since then I walk to work",
])
def test_statements_and_greetings_without_a_mark_ask_nothing(text: str) -> None:
    assert real_questions(text) == []


def test_marked_questions_are_found_as_said() -> None:
    assert question_sentences("Hi Noor. How was the ferry? I took the bus.") == ["How was the ferry?"]
    assert question_sentences("Is it any good?? I hope so") == ["Is it any good?"]


def test_a_short_unmarked_question_needs_the_words_the_constant_asks() -> None:
    assert question_sentences("whats that") == []  # 2 words: a reaction as often as a question


def test_a_reply_to_an_unmarked_question_is_a_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    prior = [turn("ever been to the dunes", "Ivo", 1)]
    said = turn("yeah twice last spring with my brother", "Noor", 2)
    linked = question_replied(said, prior)
    assert linked is not None and linked.turn_id == "D7:1" and linked.question == "ever been to the dunes?"
    monkeypatch.setattr(asked, "UNMARKED_MIN_WORDS", 0)  # the rule off: the question is not seen
    assert question_replied(said, prior) is None


def test_a_fragment_answering_an_unmarked_question_is_admitted_with_it() -> None:
    prior = [turn("Love that song, what is the band called", "Ivo", 1)]
    said = turn("Marla Quinn", "Noor", 2)
    assert question_answered(said, prior) is not None
    admitted, reason = judge_utterance(said, prior)
    assert admitted and "answer to Ivo's question" in reason
    facts = OfflineDecider(HashEmbeddings()).split([said], prior, []).value.facts
    assert [f.source_turn_ids for f in facts] == [["D7:1", "D7:2"]]
    assert "Marla Quinn" in facts[0].text and "what is the band called" in facts[0].text


def test_filler_after_an_unmarked_question_still_says_nothing() -> None:
    prior = [turn("ever been to the dunes", "Ivo", 1)]
    assert not judge_utterance(turn("lol ok", "Noor", 2), prior)[0]


def test_model_split_names_an_unmarked_question_as_a_source() -> None:
    said = turn("yeah twice last spring with my brother", "Noor", 2)
    drafted = {"facts": [{"text": "Noor went to the dunes twice last spring with her brother", "speaker": "Noor",
                          "source_turn_ids": ["D7:2"], "categories": ["event"], "provenance": "stated"}]}
    model = FakeChatModel(script={"FactDrafts": [drafted]})
    out = ModelDecider(model).split([said], [turn("ever been to the dunes", "Ivo", 1)], []).value.facts
    assert [f.source_turn_ids for f in out] == [["D7:1", "D7:2"]]
    system = str(model.calls_for("FactDrafts")[0].messages[0].content)
    assert "with or without its question mark" in system


def test_model_admission_prompt_says_chat_drops_the_mark() -> None:
    verdicts = {"verdicts": [{"turn_id": "1", "reason": "answers the question about a trip", "admit": True}]}
    model = FakeChatModel(script={"AdmissionVerdicts": [verdicts]})
    ModelDecider(model).admit([turn("yeah twice", "Noor", 2)], [turn("ever been to the dunes", "Ivo", 1)], [])
    system = str(model.calls_for("AdmissionVerdicts")[0].messages[0].content)
    assert "Chat often drops the question mark" in system


@pytest.mark.parametrize("text", ["got any tips for a first marathon", "anything fun going on this weekend",
                                  "Any plans for the long weekend"])
def test_admission_judges_an_unmarked_question_as_a_question(text: str) -> None:
    admitted, reason = judge_utterance(turn(text, "Ivo", 3), [turn("I finally fixed the old bike", "Noor", 2)])
    assert not admitted and reason == "rejected: question without a first-person fact"


@pytest.mark.parametrize("text", [
    "WHAT she gave me a fiver", "Which would mean a steady cheque every month for the first time in years.",
    "which would mean a steady cheque every month", "what we need is rain", "why he left is a mystery",
    "how she does it i dont know",
])
def test_a_wh_word_with_its_own_subject_and_verb_after_it_is_a_statement(text: str) -> None:
    assert real_questions(text) == []
    assert not is_question(text)


def test_a_wh_statement_about_the_speaker_is_admitted() -> None:
    prior = [turn("Nan came round for tea", "Noor", 1), turn("aw how is she", "Ivo", 2)]
    admitted, reason = judge_utterance(turn("WHAT she gave me a fiver", "Noor", 3), prior)
    assert admitted, reason


@pytest.mark.parametrize("text", ["what time works for you", "who is coming", "where did you park", "who has the keys",
                                  "what you doing later", "how they doing", "what they up to"])
def test_a_wh_question_without_its_mark_still_asks(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize(("before", "text"), [
    ("Nan came round for tea", "WHAT she gave me a fiver"),
    ("I got the post at the library", "Which would mean a steady cheque every month for the first time in years."),
])
def test_a_statement_opening_with_a_wh_word_is_judged_by_the_statement_rules(before: str, text: str) -> None:
    reason = judge_utterance(turn(text, "Noor", 3), [turn(before, "Noor", 1), turn("no way", "Ivo", 2)])[1]
    assert reason != "rejected: question without a first-person fact"  # the statement rules judge it


def test_the_admission_prompt_says_a_wh_word_with_its_own_subject_opens_a_statement() -> None:
    assert "'WHAT she gave me a fiver'" in ADMIT_SYSTEM


def test_a_wh_clause_too_short_to_tell_anything_is_left_as_it_was() -> None:
    assert is_question("what I mean")  # "You know what I mean." says nothing either way
