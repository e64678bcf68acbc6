"""A he/she line going on about the person the line before told of: a source of what that line formed (stop 74).

"Bram rebuilt the shed roof over the weekend" / "He wants it finished before the frost": the second line names no
one and says no "I", so admission rejected it as no personal fact; it goes on with the person of the line before,
so its turn becomes a source of the memory that line formed, and no memory is added. Kept out: a line with a
first person or a question, a reaction, a line whose he/she fits no one of the line before, a line after a question
or after a line that formed nothing, and a he/she line the people readers write out (``recalled``) keeps its own
fact. Invented people and events only.
"""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import pytest

from dmem.decisions.offline.admission import judge_utterance, judged_utterance, remarked_line
from dmem.decisions.offline.remarked import REASON, pronoun_of
from dmem.decisions.offline.splitting import facts_from_message
from dmem.state.schemas import Message
from tests.conftest import chat_turn, exchange_drafts, stored_by_speaker

turn = functools.partial(chat_turn, session="D4", when=datetime(2025, 11, 12, 19, 0))
OPENING = (("Ysolde", "hey you"), ("Corwen", "evening"))


def chat(*lines: tuple[str, str]) -> list[Message]:
    """The opening and ``lines`` as turns D4:1, D4:2, ..."""
    return [turn(text, who, i + 1) for i, (who, text) in enumerate((*OPENING, *lines))]


LINE = ("Ysolde", "Augustyn from the rowing club sanded the whole hull by hand on Sunday")


@pytest.mark.parametrize("remark", ["He loves that boat", "and he wants it back on the water by May",
                                    "A second coat! He is hooked now.", "he says the varnish needs three days"])
def test_a_he_line_after_a_line_naming_him_is_admitted_as_its_source(remark: str) -> None:
    turns = chat(LINE, ("Corwen", remark))
    admit, reason = judge_utterance(turns[-1], turns[:-1])
    assert admit and reason.startswith(REASON) and "Ysolde's line" in reason
    # alone, with no line before naming him, it stays no personal fact
    assert not judge_utterance(turns[-1], turns[:2])[0]


def test_the_verdict_carries_the_line_remarked_on() -> None:
    turns = chat(LINE, ("Corwen", "He loves that boat"))
    assert judged_utterance(turns[-1], turns[:-1]).remarked == turns[-2]
    assert judged_utterance(turns[-1], turns[:2]).remarked is None  # no line before naming him: rejected


def test_in_one_exchange_the_remark_joins_the_lines_draft_and_adds_no_fact() -> None:
    turns = chat(LINE, ("Corwen", "He loves that boat"))
    drafts = exchange_drafts(turns)
    assert drafts and all("loves" not in text for text, _ in drafts)
    assert any("hull" in text and sources == ["D4:3", "D4:4"] for text, sources in drafts)


def test_after_a_stored_line_the_remark_restates_its_memory_with_the_remarks_turn() -> None:
    turns = chat(("Ysolde", "my brother Tamsin starts at the bakery on Dunmore Street on Monday"),
                 ("Corwen", "he'll be up at four every day then"))
    memory = "Ysolde's brother Tamsin starts at the bakery on Dunmore Street on Monday"
    drafted = facts_from_message(turns[-1], turns, [], gated=True, memories=[memory])
    assert drafted and all("D4:4" in f.source_turn_ids and "D4:3" in f.source_turn_ids for f in drafted)
    assert all("four" not in f.text for f in drafted)


def test_the_stored_memory_takes_the_remarks_turn_and_no_memory_is_added(tmp_path: Path) -> None:
    lines = (LINE, ("Corwen", "He loves that boat"), ("Corwen", "when does it go back in?"))
    stored = stored_by_speaker(tmp_path / "m", chat(*lines), {"Ysolde": "ysl", "Corwen": "cor"})
    ysl, cor = stored["ysl"], [text for text, _ in stored["cor"]]
    hull = [sources for text, sources in ysl if "hull" in text]
    assert len(hull) == 1 and "D4:3" in hull[0] and "D4:4" in hull[0]
    assert not any("loves" in t for t in cor) and not any("loves" in t for t, _ in ysl)


@pytest.mark.parametrize(("line", "remark"), [
    (LINE, "He loves that boat and I do too"),  # a first person: the speaker's own news is judged as theirs
    (LINE, "he sanded it all?"),  # a question (questions are judged as such)
    (LINE, "he did"),  # too little
    (("Ysolde", "my brother sanded the whole hull by hand on Sunday"), "She loves that boat"),  # no she there
    (("Ysolde", "did Augustyn sand the hull on Sunday?"), "He loves that boat"),  # the line before asks
    (("Ysolde", "lol"), "He loves that boat"),  # the line before formed nothing and names no one
])
def test_kept_out(line: tuple[str, str], remark: str) -> None:
    turns = chat(line, ("Corwen", remark))
    assert remarked_line(turns[-1], turns[:-1]) is None


def test_a_he_line_the_people_readers_write_out_keeps_its_own_fact() -> None:
    turns = chat(("Ysolde", "the roofer came to quote. Gwilym."), ("Ysolde", "he says half the slates are shot"))
    admit, reason = judge_utterance(turns[-1], turns[:-1])
    assert admit and not reason.startswith(REASON)


@pytest.mark.parametrize(("text", "pronoun"), [
    ("He loves that boat", "he"), ("and she says no", "she"), ("ok so he's off to Leith", "he"),
    ("A second coat! He is hooked.", "he"), ("loves that boat", None), ("They love it", None),
    ("A really very long second coat! He is hooked.", None)])
def test_pronoun_of(text: str, pronoun: str | None) -> None:
    assert pronoun_of(text) == pronoun
