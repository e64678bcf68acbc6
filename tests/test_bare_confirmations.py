"""A bare yes to the other's follow-up on the speaker's own line, a celebrated choice and a bare value (``picked``),
offline: each is kept with the line it answers, both turns its sources. A yes to a line that follows nothing of the
speaker's, to an opinion, or shouted as a cheer forms nothing; a price's "for the weekend" is no passing state.
Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import picked
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.clause_rules import reject_early
from dmem.state.schemas import Message
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2027, 9, 3, 18, 5)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Perpetua and Osgood, in order."""
    return [chat_turn(text, who, i + 1, session="T1", when=WHEN) for i, (who, text) in enumerate(lines)]


_facts = drafted_last


@pytest.mark.parametrize(("own", "follow_up", "reply", "fact"), [
    ("my brother can't make friday, he'll drive over on sunday", "in his own van?", "yep",
     'Osgood agreed to Perpetua\'s "in his own van": yep'),
    ("The physio says I should keep swimming, but slowly.", "so gentle lengths with the club", "Exactly so.",
     'Osgood agreed to Perpetua\'s "gentle lengths with the club": Exactly so'),
    ("it was only that the council moved the bin day", "To a Tuesday from now on, you told me.", "yep",
     'Osgood agreed to Perpetua\'s "To a Tuesday from now on, Osgood told Perpetua": yep'),
    ("what should i bring on saturday", "Just yourself. And your bike, the trail is dry now.", "omg yes",
     'Osgood agreed to Perpetua\'s "Just Osgood. And Osgood\'s bike, the trail is dry now": yes'),
])
def test_a_bare_yes_confirms_the_others_follow_up_on_the_speakers_line(own: str, follow_up: str, reply: str,
                                                                        fact: str) -> None:
    turns = _chat(("Osgood", own), ("Perpetua", follow_up), ("Osgood", reply))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "follow-up on the speaker's line" in reason, reason
    assert _facts(turns) == [(fact, ["T1:2", "T1:3"])]


@pytest.mark.parametrize("lines", [
    (("Osgood", "I repainted the shed door green"), ("Perpetua", "Are you still there?"), ("Osgood", "yes")),
    (("Osgood", "the tent leaked all over the maps"), ("Perpetua", "wet maps are the worst"), ("Osgood", "yep")),
    (("Osgood", "my landlord says he'll fix the boiler"), ("Perpetua", "so, never"), ("Osgood", "haha exactly")),
    (("Osgood", "the lease starts in march, I signed today"), ("Perpetua", "so the canal flat is yours"),
     ("Osgood", "YES")),
    (("Perpetua", "Are you still there?"), ("Osgood", "yes")),  # no line of the speaker's before it
    (("Osgood", "I repainted the shed door green"), ("Perpetua", "how was your day?"), ("Osgood", "yep")),
])
def test_a_yes_to_nothing_of_the_speakers_or_to_an_opinion_or_a_cheer_confirms_nothing(
        lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert picked.followed_up(turns[-1], turns[:-1], None) is None
    assert _facts(turns) == []


def test_a_yes_no_question_with_its_own_topic_is_still_stated() -> None:
    turns = _chat(("Osgood", "finally heard back from the boatyard"),
                  ("Perpetua", "did you get the job at the boatyard?"), ("Osgood", "yep"))
    assert _facts(turns) == [("Osgood got the job at the boatyard", ["T1:2", "T1:3"])]


def test_a_celebrated_choice_agrees_to_the_sentence_that_settles_it() -> None:
    turns = _chat(("Perpetua", "ok the barn has the big kitchen"), ("Perpetua", "so we go with the barn on the moor"),
                  ("Osgood", "BARN ON THE MOOR 🎉"))
    assert _facts(turns) == [('Osgood agreed to Perpetua\'s "Perpetua and others go with the barn on the moor": '
                              'BARN ON THE MOOR', ["T1:2", "T1:3"])]


def test_a_bare_value_answers_the_sentence_saying_it_of_the_speaker() -> None:
    turns = _chat(("Osgood", "dinner was lovely, the dumplings especially"), ("Perpetua", "you had 11 dumplings"),
                  ("Osgood", "I had nine."))
    assert _facts(turns) == [('Osgood replied to Perpetua\'s "Osgood had 11 dumplings": Osgood had nine',
                              ["T1:2", "T1:3"])]
    turns = _chat(("Perpetua", "you had 11 dumplings"), ("Osgood", "I had fun."))  # no value: not a count of them
    assert picked.picked(turns[-1], turns[:-1]) is None


def test_a_prices_term_is_no_passing_state() -> None:
    assert reject_early("the barn £800 for the weekend, the mill £650") is None
    verdict = reject_early("we hired a van for the weekend")
    assert verdict is not None and verdict.kind == "transient"
