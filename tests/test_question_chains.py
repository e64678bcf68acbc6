"""Questions that carry someone's fact, read with the reply that settles them (issue #26, stop 58).

A question whose asker tells nothing of their own may still carry a fact: an invitation to a dated or placed plan
("want to come to the pottery fair on saturday?"), a third person's situation ("is Wenna still at the harbour
office?"), or the terms a reply answers in ("is that a lot?" -> "For a weekday in Gorran? Yes"). The reply's yes
or no (a thumbs-up too) states the pair's fact with both turns as sources, and a denial never states the question
as true. Filler ("you there?" -> "👍", "shall we?" -> "ok") forms nothing. Invented people and lines only: Saoirse
asks, Tamsin replies.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import embedded, register, speech_acts
from dmem.decisions.offline.decider import OfflineDecider
from dmem.models.embeddings import HashEmbeddings
from dmem.state.schemas import Message, Provenance
from tests.conftest import chat_turn, drafted_after

turn = functools.partial(chat_turn, session="D4", when=datetime(2025, 9, 2, 20, 15))


def replied(question: str, reply: str) -> tuple[bool, str, list[tuple[str, Provenance]]]:
    """Tamsin's reply to Saoirse's question: admitted, the reason, the facts drafted."""
    return drafted_after(turn(question, "Saoirse", 1), turn(reply, "Tamsin", 2))


def sources(turns: list[Message]) -> list[tuple[str, list[str]]]:
    """The facts the offline decider drafts for the last turn after the others, with their source turns."""
    engine = OfflineDecider(HashEmbeddings())
    *prior, said = turns
    verdict = engine.admit([said], prior, []).value.verdicts[0]
    facts = engine.split([said], prior, []).value.facts if verdict.admit else []
    return [(f.text, f.source_turn_ids) for f in facts]


@pytest.mark.parametrize(("question", "fact"), [
    ("Want to come to the pottery fair on Saturday?", "Saoirse invited Tamsin to come to the pottery fair on Saturday"),
    ("shall we do the Skellow ridge walk sunday?", "Saoirse invited Tamsin to do the Skellow ridge walk sunday"),
    ("fancy dinner at Brannock's on Thursday?", "Saoirse invited Tamsin to dinner at Brannock's on Thursday"),
])
def test_an_invitation_to_a_dated_or_placed_plan_tells_that_it_was_made(question: str, fact: str) -> None:
    admitted, reason, facts = drafted_after(turn("Evening!", "Tamsin", 1), turn(question, "Saoirse", 2))
    assert admitted, reason
    assert (fact, Provenance.STATED) in facts


@pytest.mark.parametrize(("reply", "fact"), [
    ("yes!", "Tamsin accepted Saoirse's invitation to come to the pottery fair on Saturday"),
    ("👍", "Tamsin accepted Saoirse's invitation to come to the pottery fair on Saturday"),
    ("can't, sorry", "Tamsin turned down Saoirse's invitation to come to the pottery fair on Saturday"),
])
def test_a_yes_or_no_to_an_invitation_settles_it_with_both_turns(reply: str, fact: str) -> None:
    facts = sources([turn("Want to come to the pottery fair on Saturday?", "Saoirse", 1), turn(reply, "Tamsin", 2)])
    assert (fact, ["D4:1", "D4:2"]) in facts


@pytest.mark.parametrize("question", ["wanna hang out later?", "shall we?", "want to come over?",
                                      "do you want to get coffee some time?"])
def test_an_invitation_naming_no_plan_is_no_act(question: str) -> None:
    assert speech_acts.act(question) is None


@pytest.mark.parametrize(("question", "reply", "fact"), [
    ("Is Wenna still working at the harbour office?", "yes", "Wenna is still working at the harbour office"),
    ("Has Pell found a new job yet?", "nope", "Pell has not found a new job yet"),
    ("Did Corwen ever pay you back for the tickets?", "he did", "Corwen paid Tamsin back for the tickets"),
    ("Is your brother still in the navy?", "yep", "Tamsin's brother is still in the navy"),
])
def test_a_yes_or_no_about_a_named_person_states_the_question_of_them(question: str, reply: str, fact: str) -> None:
    admitted, _, facts = replied(question, reply)
    assert admitted
    assert [text for text, _ in facts] == [fact]
    assert (fact, ["D4:1", "D4:2"]) in sources([turn(question, "Saoirse", 1), turn(reply, "Tamsin", 2)])


def test_a_denial_never_states_the_asked_fact_as_true() -> None:
    _, _, facts = replied("Did Pell sell the narrowboat in the end?", "no, he didn't")
    assert [text for text, _ in facts] == ["Pell did not sell the narrowboat in the end"]
    _, _, facts = replied("Is Wenna still working at the harbour office?", "👎")
    assert [text for text, _ in facts] == ["Wenna is not still working at the harbour office"]


@pytest.mark.parametrize(("signs", "said"), [("👍", "yes"), ("👍🏽👍", "yes"), ("✅", "yes"), ("👎", "no"),
                                             ("❌", "no"), ("😂", None), ("👍 nice", None), ("👍👎", None)])
def test_yes_and_no_signs_alone_read_as_the_word(signs: str, said: str | None) -> None:
    assert register.emoji_yes_no(signs) == said


@pytest.mark.parametrize(("question", "reply"), [
    ("you there?", "👍"), ("shall we?", "👍"), ("all good?", "👌"), ("I finally booked the ferry to Quellmoor", "👍"),
])
def test_a_thumbs_up_to_filler_forms_nothing(question: str, reply: str) -> None:
    admitted, _, facts = replied(question, reply)
    assert not admitted and facts == []


def test_an_echo_that_sets_the_answers_terms_is_an_answer_not_a_question() -> None:
    turns = [turn("Mad. Forty-two covers", "Tamsin", 1), turn("Is that a lot?", "Saoirse", 2),
             turn("For a Sunday morning in Gorran? Yes", "Tamsin", 3)]
    facts = sources(turns)
    assert len(facts) == 1
    text, ids = facts[0]
    assert "For a Sunday morning in Gorran, yes" in text and ids == ["D4:2", "D4:3"]


@pytest.mark.parametrize(("echo", "then", "joined"), [
    ("For a Sunday morning in Gorran?", "Yes", "For a Sunday morning in Gorran, yes"),
    ("In this wind?", "No way", "In this wind, no way"),
    ("The red one?", "Definitely", "The red one, definitely"),
    ("For a Sunday morning in Gorran?", "Is that odd?", None),
    ("What do you mean?", "No", None),
    ("Are you sure?", "Yes", None),
    ("For the whole of the long weekend up at Gorran?", "Yes", None),
    ("For a Sunday morning in Gorran?", None, None),
    ("Lovely, right?", "Almost as good as the last one", None),
])
def test_answer_echo_joins_only_a_short_echo_and_a_statement(echo: str, then: str | None, joined: str | None) -> None:
    assert embedded.answer_echo(echo, then) == joined


def test_a_third_persons_ongoing_situation_asked_with_still_is_presupposed() -> None:
    admitted, reason, facts = drafted_after(turn("Evening!", "Tamsin", 1),
                                            turn("Is Wenna still working at the harbour office?", "Saoirse", 2))
    assert admitted and "question carrying a fact" in reason
    assert ("Wenna has been working at the harbour office", Provenance.INFERRED) in facts
    admitted, _, _ = drafted_after(turn("Evening!", "Tamsin", 1), turn("Is It still raining over there?", "Saoirse", 2))
    assert not admitted


@pytest.mark.parametrize(("question", "reply", "fact"), [
    ("is auntie Wenna out of hospital yet?", "Came home on Tuesday.", "auntie Wenna came home on Tuesday"),
    ("did the plumber fix the boiler in the end?", "came monday, new valve", "the plumber came monday"),
    ("what did Pell get up to on his birthday?", "went climbing with Odile", "Pell went climbing with Odile"),
])
def test_a_reply_without_a_subject_is_said_of_the_third_person_asked_about(question: str, reply: str,
                                                                            fact: str) -> None:
    facts = sources([turn("Evening!", "Tamsin", 1), turn(question, "Saoirse", 2), turn(reply, "Tamsin", 3)])
    assert any(fact in text and ids == ["D4:2", "D4:3"] for text, ids in facts), facts
    assert not any(text.startswith("Tamsin came") or text.startswith("Tamsin went") for text, _ in facts)


def test_a_reply_about_oneself_without_i_answers_the_question_that_set_its_topic() -> None:
    facts = sources([turn("three weeks!!", "Tamsin", 1), turn("anyway what did you get up to on your birthday?",
                                                              "Saoirse", 2),
                     turn("went to the sea caves at Quarrelby with Idris", "Tamsin", 3)])
    assert ("Tamsin went to the sea caves at Quarrelby with Idris", ["D4:2", "D4:3"]) in facts


def test_an_offer_of_a_spare_thing_settled_after_a_clarifying_exchange() -> None:
    offer = "Do you want the spare futon from the loft? We're clearing it out."
    found = speech_acts.act(offer.split("?")[0] + "?")
    assert found is not None and found.kind == "offer"
    turns = [turn("Clever dog.", "Tamsin", 1), turn(offer, "Saoirse", 2), turn("the blue one?", "Tamsin", 3),
             turn("The grey one.", "Saoirse", 4), turn("oh. no thanks 😅", "Tamsin", 5)]
    assert ("Tamsin turned down Saoirse's offer of the spare futon from the loft", ["D4:2", "D4:5"]) \
        in sources(turns)
    assert speech_acts.act("do you want the window open?") is None


def test_a_yes_said_with_a_hedge_alone_confirms_kept_as_hedged() -> None:
    admitted, _, facts = replied("did you eat my last yoghurt again?", "…maybe")
    assert admitted
    assert facts == [("Tamsin ate Saoirse's last yoghurt again", Provenance.HEDGED)]
    admitted, _, facts = replied("are you ok?", "maybe")
    assert not admitted and facts == []


def test_a_yes_to_a_tail_that_checks_a_guess_confirms_it() -> None:
    admitted, reason, _ = replied("whose party again, your uncle Doran's?", "yep")
    assert admitted and "yes or no" in reason


@pytest.mark.parametrize("question", ["wanna grab coffee tmrw?", "wanna hang out in May?",
                                      "are you up for it on Friday?", "Are you still up for tonight?"])
def test_a_bare_activity_or_a_time_alone_names_no_plan(question: str) -> None:
    assert speech_acts.act(question) is None


@pytest.mark.parametrize(("echo", "then"), [("Guess what?", "Nothing."), ("Guess who?", "Me!"),
                                            ("What am I doing?", "Nothing much")])
def test_a_teasing_or_asking_echo_is_not_joined_to_its_answer(echo: str, then: str) -> None:
    assert embedded.answer_echo(echo, then) is None
