"""A short line of two or three sentences read by the piece carrying its fact (``short_pieces``); invented people."""

from __future__ import annotations

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.short_pieces import PIECE_READ, pieces
from dmem.decisions.offline.splitting import facts_from_message
from dmem.state.schemas import Message


def _chat(*lines: tuple[str, str]) -> list[Message]:
    return [Message(conversation_id="c", turn_id=f"D1:{i}", speaker=who, text=text, seq=i)
            for i, (who, text) in enumerate(lines, start=1)]


def _judged(chat: list[Message]) -> tuple[bool, str, list[str]]:
    line, prior = chat[-1], chat[:-1]
    admit, reason = judge_utterance(line, prior)
    facts = [f.text for f in facts_from_message(line, [line], prior, gated=True)] if admit else []
    return admit, reason, facts


def test_pieces_cut_at_sentence_ends() -> None:
    assert pieces("kazik. from lodz") == ["kazik.", "from lodz"]
    assert pieces("Oh God. It broke! Again?") == ["Oh God.", "It broke!", "Again?"]


def test_own_name_head_introduces_the_speaker() -> None:
    chat = _chat(("Wanda", "Welcome to the group! Everyone here is new to the cello."),
                 ("Tobiasz", "tobiasz. from gdansk"))
    admit, reason, facts = _judged(chat)
    assert admit and reason.startswith(PIECE_READ)
    assert facts == ["Tobiasz is from gdansk"]


def test_value_head_read_with_its_thread() -> None:
    chat = _chat(("Wanda", "And the frame, I've got a price: the shop on Quay Street does an oak one with glass "
                           "for eighty-five pounds"),
                 ("Tobiasz", "85. If 5 people put in 20 each that's 100"))
    admit, reason, facts = _judged(chat)
    assert admit and reason.startswith(PIECE_READ)
    assert len(facts) == 1 and facts[0].endswith(": 85") and "eighty-five pounds" in facts[0]


def test_reply_word_head_then_the_fact() -> None:
    chat = _chat(("Tobiasz", "my sister asked me about the car"), ("Wanda", "She wants to borrow it again."),
                 ("Tobiasz", 'Oh God. "Only for a week." She means a month.'))
    admit, reason, facts = _judged(chat)
    assert admit and reason.startswith(PIECE_READ)
    assert facts == ['Tobiasz: "Only for a week." She means a month']


@pytest.mark.parametrize(("before", "line"), [
    ("see you tomorrow then", "ok. see you"),
    ("that was a good joke", "haha. yes"),
    ("I'm off to bed", "Fine. Night night"),
    ("My uncle cut his hand on the saw yesterday.", "Poor man. Cleaning with a new scar."),  # another's world
])
def test_filler_and_anothers_world_stay_out(before: str, line: str) -> None:
    admit, _, _ = _judged(_chat(("Wanda", before), ("Tobiasz", line)))
    assert not admit
