"""A short line of two or three sentences read by the piece carrying its fact (``short_pieces``); invented people."""

from __future__ import annotations

import pytest

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.short_pieces import PIECE_READ, _unfounded, pieces
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


@pytest.mark.parametrize(("before", "line"), [
    ("the glaziers said they come on thursday for the porch", "Good. It'll take them longer"),
    ("the glaziers said they come on thursday for the porch", "Oh God. That's a lot of glass"),
    ("they moved the ferry to the late slot", "yes. it takes ages now"),
])
def test_an_it_the_head_names_nothing_for_stays_out(before: str, line: str) -> None:
    """A verdict or a yes names no thing: a rest told of "it"/"that" alone would be a vague memory of the line."""
    admit, reason, facts = _judged(_chat(("Wanda", before), ("Tobiasz", line)))
    assert not admit, (reason, facts)


def test_a_rest_with_its_own_fact_is_still_read() -> None:
    chat = _chat(("Wanda", "so the move is on, and the boat has to be sold before it"),
                 ("Tobiasz", "yes. the shed stays. only the boat goes"))
    admit, reason, facts = _judged(chat)
    assert admit and reason.startswith(PIECE_READ)
    assert facts == ["Tobiasz: The shed stays; Only the boat goes"]


@pytest.mark.parametrize(("rest", "unfounded"), [
    ("It'll take them longer", True),
    ("that's a lot of glass", True),
    ("and it was a mess", True),
    ("It'll take them three weeks", False),  # a value
    ("It's at Senna's place", False),  # a name
    ("it's my third try", False),  # the speaker's own fact
    ("that part works", False),  # "that" names its thing
    ("the toolbox stays", False),
])
def test_unfounded_reads_the_rest_subject(rest: str, unfounded: bool) -> None:
    assert _unfounded(rest, "rejected: vague content (no specific detail)") is unfounded
    assert not _unfounded(rest, "rejected: too little detail to tell ('van')")  # the head names a thing


@pytest.mark.parametrize(("before", "line", "fact"), [
    ("And the fair made ninety pounds! I think Rollo did it.", "yes. he lay on the blue rug all morning",
     "Rollo lay on the blue rug"),
    ("I think Greta was at the fair too.", "yes. she sold jam at the gate", "Greta sold jam"),
])
def test_a_bare_yes_or_no_then_he_or_she_is_read_by_its_piece(before: str, line: str, fact: str) -> None:
    """After a bare yes or no to the listener's line, he or she is the one person that line named (h74f)."""
    admit, reason, facts = _judged(_chat(("Wanda", before), ("Tobiasz", line)))
    assert admit and reason.startswith(PIECE_READ), reason
    assert len(facts) == 1 and fact in facts[0]


@pytest.mark.parametrize(("before", "line"), [
    ("we went to the harbour cafe for lunch", "good. he had the fish"),  # a verdict: "he" is the turn before's thing
    ("Rollo came to the fair too.", "yes. he always does"),  # the piece says nothing alone
    ("The 3rd of May. He'll be there. He'd swim a river for that cup.", "yes. he came through a flood"),  # no name
])
def test_a_verdict_or_an_empty_piece_after_yes_stays_out(before: str, line: str) -> None:
    admit, reason, facts = _judged(_chat(("Wanda", before), ("Tobiasz", line)))
    assert not admit, (reason, facts)
