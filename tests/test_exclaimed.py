"""An exclaimed echo of the other's news ("door off!!", "barnabas lol", "tape. clever"): a source, no memory (stop 75).

The listener says back a word of the line just before, with a "!!", a laugh or a one-word verdict: it picks out the
part of the news that struck them and forms no memory of its own; its turn joins the sources of what the line formed
(``reacted``). Kept out: a value said back, a question, a first person, a negation, a wish ("keep it up!"), agreement
and a word the line did not say. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline.admission import judge_utterance, reacted_news
from dmem.decisions.offline.exclaimed import echoes_back, marked
from dmem.decisions.offline.reacted import _VERDICT
from dmem.decisions.offline.splitting import facts_from_message
from dmem.state.schemas import Message
from tests.conftest import chat_turn, exchange_drafts

turn = functools.partial(chat_turn, session="D4", when=datetime(2025, 3, 9, 20, 0))
OPENING = (("Perpetua", "evening love"), ("Ishbel", "hi gran"))
NEWS = "The delivery men got the wardrobe up the stairs in the end, they took the door off its hinges to do it"


def chat(*lines: tuple[str, str]) -> list[Message]:
    """The opening and ``lines`` as turns D4:1, D4:2, ..."""
    return [turn(text, who, i + 1) for i, (who, text) in enumerate((*OPENING, *lines))]


@pytest.mark.parametrize("echo", ["door off!!", "the wardrobe!!", "hinges lol", "the stairs. clever", "WARDROBE!!!"])
def test_an_exclaimed_echo_of_the_line_is_one(echo: str) -> None:
    assert echoes_back(echo, NEWS)


@pytest.mark.parametrize("line", [
    "the ladder!!",  # a word the line did not say: it says more than the line did
    "door?",  # an echo question is ``reacted.echoes``'s
    "door off",  # not marked as an exclamation
    "my door!!",  # a first person: the listener's own
    "not the door!",  # turned round
    "keep it up!",  # a wish
    "lol true the stairs",  # agreement with a claim
    "two men!!",  # a value said back: ``echoed_value``'s
    "lol",  # echoes nothing
    "wow, the door was off!",  # a clause: a restatement
    "the wardrobe and the door and the stairs!!",  # too long
])
def test_lines_that_are_no_exclaimed_echo(line: str) -> None:
    assert not echoes_back(line, NEWS)


def test_marks() -> None:
    assert marked("barnabas lol") and marked("tape. clever") and marked("door!!") and not marked("door off")


def test_good_decision_with_a_kin_word_is_a_verdict() -> None:
    assert _VERDICT.match("good decision grandad") and _VERDICT.match("good decision")
    assert not _VERDICT.match("good decision to sell")


def test_an_echo_in_the_same_exchange_joins_the_lines_draft() -> None:
    turns = chat(("Perpetua", "I sold the car to the Ruddock boy for nine hundred pounds"), ("Ishbel", "ruddock lol"))
    drafts = exchange_drafts(turns)
    assert len(drafts) == 1 and drafts[0][1] == ["D4:3", "D4:4"]
    assert "Ruddock" in drafts[0][0]


def test_an_echo_after_a_stored_line_restates_its_memory_with_the_echo_as_source() -> None:
    turns = chat(("Perpetua", NEWS), ("Ishbel", "door off!!"))
    memory = "The delivery men took the door off its hinges to get Perpetua's wardrobe up the stairs"
    assert reacted_news(turns[-1], turns[:-1], [memory]) is turns[-2]
    assert judge_utterance(turns[-1], turns[:-1], [memory])[0]
    drafted = facts_from_message(turns[-1], turns, [], gated=True, memories=[memory])
    assert drafted and all(f.speaker == "Perpetua" and f.source_turn_ids[-1] == "D4:4" for f in drafted)


def test_an_echo_of_the_listeners_own_line_or_a_line_that_formed_nothing_is_none() -> None:
    own = chat(("Ishbel", NEWS), ("Ishbel", "door off!!"))
    assert reacted_news(own[-1], own[:-1]) is None  # the line's own speaker
    asked = chat(("Perpetua", "did they take the door off?"), ("Ishbel", "door off!!"))
    assert reacted_news(asked[-1], asked[:-1]) is None  # a question is no news
