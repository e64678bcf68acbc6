"""A question is known by its grammar, not its mark: chat asks "didnt u sell the van in may", "whos mirela",
"should i bring food or"; a bare "yep" confirming such a question states its fact with both turns as sources;
a short phrase answers a short question; "she ..." answers a question about someone else; and an outcome said
without its event ("WE PASSED") is kept with the event the speaker named before. Statements that open with
an auxiliary ("Is very cold here") ask nothing. Invented conversations only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.outcomes import awaited_event
from dmem.decisions.offline.splitting import facts_from_message
from dmem.text import crossed
from dmem.text.asked import ends_asking, question_sentences
from tests.conftest import chat_turn

turn = functools.partial(chat_turn, session="D3", when=datetime(2025, 11, 4, 20, 15))
"""A turn of the invented chat."""


QUESTIONS = ["didnt u sell the van in may", "also is tomas still with the band", "whos mirela", "omg what breed",
             "should i bring food or", "r u still at the bakery", "where u living now, still with ur mum",
             "wait hasnt the shop closed already"]
"""Questions chat asks without their mark."""
STATEMENTS = ["Is very cold here, minus 20", "Is finished already, the whole cake", "Was good day, we finish the roof",
              "whats that", "what a week", "who cares", "I can take the bus or"]
"""Statements that open as a question does: a dropped 'it', a reaction, a hedge."""


def test_grammar_tells_a_question_without_its_mark_from_a_statement() -> None:
    assert [question_sentences(t) for t in QUESTIONS] == [[f"{t}?"] for t in QUESTIONS]
    assert [t for t in STATEMENTS if question_sentences(t)] == []


@pytest.mark.parametrize(("asked", "reply"), [
    ("whos mirela", "my cousin lol"),
    ("Is Dana still in the hospital?", "She went home yesterday, resting now"),
    ("where u living now, still with ur mum", "no got my own place in oct"),
    ("didnt u sell the van in may", "yep"),
])
def test_a_reply_is_linked_to_the_question_its_grammar_asks(asked: str, reply: str) -> None:
    assert crossed.replied_question(("Ansa", reply), [("Bruno", asked)]) == 0


def test_a_fragment_answers_a_short_unmarked_question_only() -> None:
    assert crossed.replied_question(("Jun", "collie mix"), [("Jun", "got a puppy!!"), ("Kasia", "omg what breed")]) == 1
    prior = [("Lena", "When is the wedding?"), ("Lena", "I need to book a hotel"), ("Joss", "sorry, at work")]
    assert crossed.replied_question(("Joss", "the wedding is June 14"), prior) == 0  # "sorry, at work" answers nothing


def test_a_bare_yes_confirms_the_fact_its_question_names_with_both_turns() -> None:
    question = turn("didnt u sell the van in may", "Pilar", 1)
    reply = turn("...yep", "Tomek", 2)
    admitted, why = judge_utterance(reply, [question])
    assert admitted and why.startswith("admitted: yes or no")
    facts = facts_from_message(reply, [question, reply], [], gated=True)
    assert [f.source_turn_ids for f in facts] == [["D3:1", "D3:2"]]
    assert "sell the van in may" in facts[0].text
    assert not judge_utterance(turn("ya", "Tomek", 2), [turn("is that ok", "Pilar", 1)])[0]  # names no fact


def test_a_yes_across_a_crossed_message_confirms_the_earlier_question() -> None:
    said = [turn("also is tomas still with the band", "Ansa", 1), turn("should i bring food or", "Bruno", 2),
            turn("oh ya he is", "Bruno", 3)]
    facts = facts_from_message(said[2], said, [], gated=True)
    assert [f.source_turn_ids for f in facts] == [["D3:1", "D3:3"]]


def test_an_outcome_is_kept_with_the_event_the_speaker_named_before() -> None:
    said = [turn("boat licence exam tmrw, so nervous", "Lale", 1), turn("u got this", "Ivo", 2),
            turn("WE PASSED", "Lale", 3)]
    admitted, why = judge_utterance(said[2], said[:2])
    assert admitted and "awaited event" in why
    facts = facts_from_message(said[2], said, [], gated=True)
    assert facts[0].source_turn_ids == ["D3:1", "D3:3"] and "boat licence exam" in facts[0].text
    no_event = [turn("the ferry was late again", "Lale", 1), turn("ugh", "Ivo", 2)]
    assert not judge_utterance(turn("WE PASSED", "Lale", 3), no_event)[0]


def test_an_outcome_finds_its_event_among_the_speakers_memories() -> None:
    memories = ["Ivo has a viva on the 9th", "Lale's viva is on the 9th", "Lale likes figs"]
    assert awaited_event("aced it!!", [], memories, "Lale") == "Lale's viva is on the 9th"
    assert awaited_event("aced the viva", [], memories, "Lale") is None


def test_only_a_last_sentence_that_asks_ends_asking() -> None:
    assert not ends_asking("The blue one? Yes! We painted it in May")
    assert ends_asking("We painted it. so whens the party")
