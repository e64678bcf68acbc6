"""A terse line echoing a value the other stated a few lines back (``echoed_value``), offline: "16. that's about 90
people" after "The raffle is at 16 tickets now", "FOURTH!!!" after "Fourth . Out of twelve crews", "it was 40!!"
after "Now the same room is £55" form ONE memory stating both, the two turns its sources. A value the other never
stated, one the speaker stated themselves, one later in the line and one after a silence stay unpaired. A PURE echo
("FOURTH!!!", "£55!!! see") adds nothing to the memory the other's line formed: it forms no memory, its turn
becomes a source of that one (within the exchange, or written again after it). Invented conversations only."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from dmem.decisions.offline import echoed_value
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.splitting import facts_from_message, split_messages
from dmem.state.schemas import Message
from tests.conftest import drafted_last, minute_chat

WHEN = datetime(2031, 8, 14, 18, 5)


def _chat(*lines: tuple[str, str], gap_before_last: timedelta = timedelta(0)) -> list[Message]:
    """Turns of an invented chat between Perpetua and Oswin, a minute apart (the last after ``gap_before_last``)."""
    return minute_chat(lines, session="E1", start=WHEN, gap_before_last=gap_before_last)


def test_a_value_with_a_comment_is_stated_with_the_others_sentence() -> None:
    turns = _chat(("Perpetua", "Fine, I'll ring the hall Monday. The raffle is at 16 tickets now."),
                  ("Oswin", "16. that's about 90 people"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "Perpetua's 'The raffle is at 16 tickets now', echoed" in reason
    assert drafted_last(turns) == [('Oswin replied to Perpetua\'s "The raffle is at 16 tickets now": 16. that\'s '
                                    'about 90 people', ["E1:1", "E1:2"])]


def test_a_pure_echo_is_a_source_of_the_memory_the_others_line_formed() -> None:
    turns = _chat(("Perpetua", "HOW DID THE REGATTA GO"), ("Oswin", "Fourth . Out of twelve crews . Dilys & me."),
                  ("Perpetua", "FOURTH!!!"))
    assert judge_utterance(turns[-1], turns[:-1])[0]
    drafted = [(f.text, f.source_turn_ids) for f in facts_from_message(turns[-1], turns, turns[:1], gated=True)]
    assert drafted and all(sources[-2:] == ["E1:2", "E1:3"] and "FOURTH" not in text for text, sources in drafted)
    exchange = split_messages(turns[1:], turns[:1], gated=True)
    assert [f.source_turn_ids for f in exchange] == [["E1:1", "E1:2", "E1:3"]]  # no second memory


def test_a_pure_echo_of_a_stored_memory_writes_it_again_with_the_echo_as_source() -> None:
    turns = _chat(("Oswin", "Bad luck . I waited and the ferry ticket is now £55 with the booking fee."),
                  ("Perpetua", "£55!!! see"))
    memory = "Oswin waited and the ferry ticket is now £55 with the booking fee"
    assert judge_utterance(turns[-1], turns[:-1], [memory])[0]
    drafted = facts_from_message(turns[-1], turns, [], gated=True, memories=[memory])
    assert drafted and all(f.speaker == "Oswin" and "E1:2" in f.source_turn_ids for f in drafted)
    assert not any("Perpetua" in f.text for f in drafted)


def test_a_pure_echo_of_a_value_no_memory_states_keeps_a_memory_of_its_own() -> None:
    turns = _chat(("Oswin", "flight booked. i fly from lisbon 14th. home 15th morning"), ("Perpetua", "THE 15TH!!"))
    assert drafted_last(turns) == [('Perpetua replied to Oswin\'s "flight booked. i fly from lisbon 14th. home 15th '
                                    'morning": THE 15TH', ["E1:1", "E1:2"])]


@pytest.mark.parametrize(("text", "is_pure"), [
    ("THIRD!!!", True), ("£69!!! see", True), ("8!", True), ("74?? seriously", True), ("THE 27TH!!", True),
    ("12k! Good", True),
    ("16. that's about 90 people", False), ("9 is good", False), ("it was 74!!", False), ("11. i'll take it", False),
])
def test_a_pure_echo_says_nothing_but_its_value(text: str, is_pure: bool) -> None:
    assert echoed_value.pure(text) is is_pure


def test_a_value_reaches_back_past_lines_of_both_to_the_one_stating_it() -> None:
    turns = _chat(("Perpetua", "i'll collect you from the depot friday at 8?"), ("Oswin", "not in the old van though"),
                  ("Perpetua", "the old van is retired"), ("Oswin", "8 is good"))
    assert drafted_last(turns) == [('Oswin replied to Perpetua\'s "i\'ll collect you from the depot friday at 8?": '
                                    '8 is good', ["E1:1", "E1:4"])]


def test_what_a_value_was_is_set_against_the_others_new_value() -> None:
    turns = _chat(("Oswin", "Bad luck . I waited . Now the same room is £55."), ("Perpetua", "NO"),
                  ("Perpetua", "it was 40!!"))
    assert drafted_last(turns) == [('Perpetua replied to Oswin\'s "Now the same room is £55": it was 40',
                                    ["E1:1", "E1:3"])]


@pytest.mark.parametrize("lines", [
    (("Perpetua", "the raffle went well"), ("Oswin", "16. that's about 40 quid")),  # no 16 stated
    (("Oswin", "we sold 16 tickets"), ("Perpetua", "wow"), ("Oswin", "16. not bad")),  # the speaker's own value
    (("Perpetua", "The raffle is at 16 tickets now."), ("Oswin", "so about 40 quid, 16")),  # the value comes late
    (("Oswin", "Now the same room is £55."), ("Perpetua", "my sister booked hers in march"),
     ("Perpetua", "it was 40!!")),  # the speaker said something of their own between
])
def test_a_value_not_stated_by_the_other_just_before_is_not_paired(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert echoed_value.echoed(turns[-1], turns[:-1]) is None


def test_a_value_after_a_silence_is_not_paired() -> None:
    turns = _chat(("Perpetua", "The raffle is at 16 tickets now."), ("Oswin", "16. that's about 40 quid"),
                  gap_before_last=timedelta(days=3))
    assert echoed_value.echoed(turns[-1], turns[:-1]) is None
