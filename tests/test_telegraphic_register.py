"""Chat's telegraphic register after a turn that asks nothing: a dropped 'my' before what the speaker has ("Dog
has been sick all week"), 'the' standing for 'my', a dropped subject before a negated auxiliary, and an
evaluation of the speaker's own dated occasion are facts about the speaker, written with their name; generic
lines, news and comments on the other speaker's news of the same shape are not. Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.model import ModelDecider
from dmem.decisions.offline import telegraphic
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.replies import restore_subject
from dmem.models.embeddings import HashEmbeddings
from dmem.testing import FakeChatModel
from tests.chat_lines import ChatLines

AGREEING = "Haha yes that is so true."
"""Ivo's turn before each line: it asks nothing, so no line is admitted as an answer."""
CHAT = ChatLines("T4", datetime(2025, 10, 9, 21, 5), AGREEING)
turn = CHAT.turn
"""A turn of the invented chat."""
_judged, _facts = CHAT.judged, CHAT.facts


@pytest.mark.parametrize(("text", "fact"), [
    ("Dog has been sick all week", "Noor's dog has been sick all week"),
    ("Sister just had her baby", "Noor's sister just had her baby"),
    ("New job starts monday", "Noor's new job starts monday"),
    ("Flight to Tallinn got cancelled", "Noor's flight to Tallinn got cancelled"),
    ("Cello lesson got moved to thursday", "Noor's cello lesson got moved to thursday"),
    ("Dentist says the molar has to come out", "Noor's dentist says the molar has to come out"),
    ("Grandpa's surgery went fine", "Noor's grandpa's surgery went fine"),
    ("Kids loved the planetarium", "Noor's kids loved the planetarium"),
    ("Twins start judo next month", "Noor's twins start judo next month"),
    ("the new kitten is climbing the curtains", "Noor's new kitten is climbing the curtains"),
    ("The girls have choir every wednesday", "Noor's girls have choir every wednesday"),
    ("Yeah the garden is full of chillies this year", "Noor's garden is full of chillies this year"),
    ("legs are aching after the fell race", "Noor's legs are aching after the fell race"),
    ("Hands are still shaking from the exam", "Noor's hands are still shaking from the exam"),
])
def test_a_dropped_my_before_what_the_speaker_has_is_put_back(text: str, fact: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert _facts(text) == [fact]


@pytest.mark.parametrize(("text", "fact"), [
    ("Haven't slept well since the move", "Noor hasn't slept well since the move"),
    ("Can't eat shellfish anymore", "Noor can't eat shellfish anymore"),
    ("Didn't get the flat on Harbour road", "Noor didn't get the flat on Harbour road"),
    ("Wasn't allowed to take the ferry with the bike", "Noor wasn't allowed to take the ferry with the bike"),
])
def test_a_dropped_subject_before_a_negated_auxiliary_is_the_speaker(text: str, fact: str) -> None:
    admitted, reason = _judged(text)
    assert admitted, reason
    assert _facts(text) == [fact]


@pytest.mark.parametrize("text", ["Can't wait to hear all about it", "Didn't see that coming",
                                  "Couldn't agree more", "Couldn't have put it better", "Doesn't matter",
                                  "Don't forget the umbrella", "Didn't you say it was closed"])
def test_a_reaction_imperative_or_question_gets_no_subject(text: str) -> None:
    assert restore_subject(text) == text


@pytest.mark.parametrize("text", ["The concert last night was incredible", "Saturday's race was so much fun",
                                  "The hike this morning was brutal"])
def test_an_evaluation_of_the_speakers_own_dated_occasion_is_their_opinion(text: str) -> None:
    admitted, reason = _judged(text)
    assert admitted and "own dated occasion" in reason, reason
    (fact,) = _facts(text)
    assert fact.startswith("Noor's opinion:") and text.split()[1].lower() in fact.lower()


@pytest.mark.parametrize(("before", "text"), [
    (AGREEING, "Kids love candy"), (AGREEING, "Cats hate baths"), (AGREEING, "Coffee is bitter"),
    (AGREEING, "Puppies chew everything"), (AGREEING, "The election is next week"),
    # "Ferry strike starts monday" is news, but the offline criterion 3 keeps it (anchor 'monday'): the cost of
    # keeping the speaker's own plans said without "I" (tests/test_reusable_content.py, docs/formation.md).
    (AGREEING, "The debate last night was a mess"),
    (AGREEING, "Kids these days are glued to screens"), (AGREEING, "The kids in the square were so loud"),
    ("We finally adopted a puppy from the shelter!", "The puppy is adorable"),
    ("My dad is visiting next weekend.", "Dad will love the new flat"),
    ("I ran the coastal half marathon on sunday.", "The half marathon on sunday was brutal for everyone"),
    ("Sending a pic of the twins at the beach.", "The twins look so happy"),
])
def test_lines_of_the_same_shape_that_are_no_fact_about_the_speaker_are_rejected(before: str, text: str) -> None:
    admitted, reason = _judged(text, before)
    assert not admitted, reason


def test_the_noun_the_other_speaker_just_named_is_theirs(monkeypatch: pytest.MonkeyPatch) -> None:
    before = "Our dog had surgery on his paw."
    assert not _judged("Dog has been so brave", before)[0]
    assert _judged("Dog has been so brave")[0]
    monkeypatch.setattr(telegraphic, "OTHERS_TURNS", 0)  # the check off: the other's dog read as Noor's
    assert _judged("Dog has been so brave", before)[0]


def test_after_a_question_the_restored_line_still_names_the_question() -> None:
    prior = [turn("How is your puppy settling in?", "Ivo", 1)]
    facts = OfflineDecider(HashEmbeddings()).split([turn("Puppy finally sleeps through the night", "Noor", 2)],
                                                   prior, []).value.facts
    assert [f.text for f in facts] == ["Noor's puppy finally sleeps through the night"]
    assert facts[0].source_turn_ids == ["T4:1", "T4:2"]


def test_the_model_prompts_say_chat_drops_my_and_i() -> None:
    verdicts = {"verdicts": [{"turn_id": "1", "reason": "the speaker's cat", "admit": True}]}
    drafted = {"facts": [{"text": "Noor's cat knocked the vase off again", "speaker": "Noor",
                          "source_turn_ids": ["T4:2"], "categories": ["event"], "provenance": "stated"}]}
    model = FakeChatModel(script={"AdmissionVerdicts": [verdicts], "FactDrafts": [drafted]})
    decider = ModelDecider(model)
    said, prior = turn("Cat knocked the vase off again", "Noor", 2), [turn(AGREEING, "Ivo", 1)]
    decider.admit([said], prior, [])
    decider.split([said], prior, [])
    admit = str(model.calls_for("AdmissionVerdicts")[0].messages[0].content)
    split = str(model.calls_for("FactDrafts")[0].messages[0].content)
    assert "Chat drops 'my' and 'I'" in admit and "a comment on what the other speaker just shared" in admit
    assert "Put back the 'my' or 'I' chat drops" in split and "Noor's cat knocked the vase off" in split
