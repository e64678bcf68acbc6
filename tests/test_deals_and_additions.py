"""A bare "deal" accepting the other's proposal (``accepted``) and a short "and ..." line adding an item to the line
before it (``continued``), offline: each is kept with the line it accepts or adds to, both turns its sources. A deal
to a view, an "ok" to news, "AND" alone, "and then?" and an "and" line with a verb of its own form no such memory.
Invented conversations only."""

from __future__ import annotations

from datetime import datetime

import pytest

from dmem.decisions.offline import accepted, continued, frames
from dmem.decisions.offline.admission import judge_utterance
from dmem.state.schemas import Message
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2027, 4, 11, 20, 15)


def _chat(*lines: tuple[str, str]) -> list[Message]:
    """Turns of an invented chat between Perpetua and Osgood, in order."""
    return [chat_turn(text, who, i + 1, session="T1", when=WHEN) for i, (who, text) in enumerate(lines)]


_facts = drafted_last


@pytest.mark.parametrize(("proposal", "reply", "fact"), [
    ("Let's split it. I phone the garages, you phone the dealers", "deal",
     "Perpetua agreed to Osgood's proposal: Let's split it. Osgood phones the garages, Perpetua phones the dealers"),
    ("You can pay for the first pizza", "deal", "Perpetua agreed to Osgood's proposal: Perpetua can pay for the first "
                                                "pizza"),
    ("ok. then i walk the dog mornings", "Deal", "Perpetua agreed to Osgood's proposal: then Osgood walks the dog "
                                                 "mornings"),
    ("i'll cover your saturday if you want", "ok",
     "Perpetua agreed to Osgood's proposal: Osgood will cover Perpetua's saturday if Perpetua wants"),
    ("the piano stays. we make room", "Ok. It stays",  # both clauses agree to the same plan: one memory
     "Perpetua agreed to Osgood's proposal: the piano stays. Osgood and Perpetua make room"),
])
def test_a_bare_deal_keeps_the_proposal_it_accepts(proposal: str, reply: str, fact: str) -> None:
    turns = _chat(("Osgood", proposal), ("Perpetua", reply))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "proposal" in reason, reason
    assert _facts(turns) == [(fact, ["T1:1", "T1:2"])]
    assert frames.said(fact) == fact.split(": ", 1)[1]  # what was agreed is the plan, not the "deal"


@pytest.mark.parametrize(("line", "reply"), [
    ("That's fair, I earn more", "deal"),  # a view agreed to, no plan
    ("I went to the gym today", "ok"),  # news noted, nothing proposed
    ("the lease starts in march", "done"),  # no person in it
    ("hey", "done"),
    ("i'll cover your saturday if you want", "ok but not the close"),  # words of its own: judged on them
])
def test_agreement_to_no_proposal_accepts_nothing(line: str, reply: str) -> None:
    turns = _chat(("Osgood", line), ("Perpetua", reply))
    assert accepted.accepted(turns[-1], turns[:-1]) is None
    assert not any("'s proposal: " in text for text, _ in _facts(turns))


def test_a_deal_to_a_question_is_its_answer_not_an_acceptance() -> None:
    turns = _chat(("Osgood", "want to swap shifts?"), ("Perpetua", "deal"))
    assert accepted.accepted(turns[-1], turns[:-1]) is None


@pytest.mark.parametrize(("lines", "fact", "sources"), [
    ((("Osgood", "so the plan from may: you cook mon tue, I cook wed thu"), ("Perpetua", "and friday")),
     'Perpetua added to Osgood\'s "so the plan from may: Perpetua cooks mon tue, Osgood cooks wed thu": friday',
     ["T1:1", "T1:2"]),
    ((("Perpetua", "you walked the dog twice this week right?"), ("Osgood", "yeah monday and tuesday"),
      ("Perpetua", "and today")),
     'Perpetua added to Osgood\'s "Osgood walked the dog twice this week right? yeah monday and tuesday": today',
     ["T1:2", "T1:3"]),
    ((("Perpetua", "you walked the dog twice this week right?"), ("Osgood", "yeah monday and tuesday"),
      ("Perpetua", "and today"), ("Osgood", "and today 😭")),  # the echo adds to the line both continue
     'Osgood added to "Osgood walked the dog twice this week right? yeah monday and tuesday": today',
     ["T1:2", "T1:4"]),
    ((("Osgood", "I need the bin days"), ("Perpetua", "glass is monday, paper thursday"),
      ("Osgood", "and the garden waste")),
     'Osgood added to Perpetua\'s "glass is monday, paper thursday": the garden waste', ["T1:2", "T1:3"]),
])
def test_an_and_line_keeps_the_line_it_adds_to(lines: tuple[tuple[str, str], ...], fact: str,
                                               sources: list[str]) -> None:
    turns = _chat(*lines)
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "adds to" in reason, reason
    assert _facts(turns) == [(fact, sources)]
    assert frames.said(fact) == fact.rsplit(": ", 1)[1]  # the frame reads back to what was said


@pytest.mark.parametrize("lines", [
    (("Osgood", "the agent called"), ("Perpetua", "AND")),  # nothing added
    (("Osgood", "we went to the market"), ("Perpetua", "and then?")),  # a question
    (("Osgood", "we went to the market"), ("Perpetua", "and she bought a lamp")),  # a line of its own
    (("Osgood", "ok"), ("Perpetua", "😂"), ("Osgood", "and the swans")),  # no line with topic enough before
    (("Osgood", "ok"), ("Perpetua", "the twins, my aunt, everyone from the choir"),
     ("Perpetua", "and you on a laptop")),  # own list: "you" would name Perpetua
])
def test_an_and_line_adding_nothing_to_a_line_is_not_continued(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert continued.continued(turns[-1], turns[:-1]) is None
    assert not any(" added to " in text for text, _ in _facts(turns))
