"""A list or recipe told one piece per line (``runs``), offline: "the rice goes in the stock" / "with the leeks" /
"same pan" / "peas too" / "then lemon" is one run; each later piece joins the fact of the run's head, the run's
pieces between are its sources and its words, so one memory tells the run. An answer's items one per line ("what
did you bake?" / "the rye" / "caraway" / "walnuts") go on with the answer. Kept out: a piece after the
listener said something, after a pause, or after the speaker's own question. Invented conversations only."""

from __future__ import annotations

from datetime import datetime, timedelta

from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.splitting import split_messages
from dmem.state.schemas import Message
from tests.conftest import drafted_last, minute_chat

WHEN = datetime(2033, 3, 9, 19, 40)
RECIPE = (("Ilsabet", "Did you pick up anything at the cookery class?"), ("Gaspard", "the rice goes in the stock"),
          ("Gaspard", "with the leeks"), ("Gaspard", "same pan"), ("Gaspard", "peas too"), ("Gaspard", "then lemon"))


def _chat(*lines: tuple[str, str], gap_before_last: timedelta = timedelta(0)) -> list[Message]:
    """Turns of an invented chat between Ilsabet and Gaspard, a minute apart (the last after ``gap_before_last``)."""
    return minute_chat(lines, session="R1", start=WHEN, gap_before_last=gap_before_last)


def test_a_piece_opening_with_same_goes_on_with_the_run() -> None:
    turns = _chat(*RECIPE[:4])
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "goes on with the speaker's fact ('the rice goes in the stock')" in reason
    assert drafted_last(turns) == [("Gaspard: the rice goes in the stock; with the leeks; same pan",
                                    ["R1:2", "R1:3", "R1:4"])]


def test_a_piece_after_the_runs_pieces_is_written_with_all_of_them() -> None:
    turns = _chat(*RECIPE)
    assert drafted_last(turns) == [("Gaspard: the rice goes in the stock; with the leeks; same pan; peas too; "
                                    "then lemon", ["R1:2", "R1:3", "R1:4", "R1:5", "R1:6"])]


def test_a_run_within_one_exchange_forms_one_memory() -> None:
    turns = _chat(*RECIPE)
    drafted = split_messages(turns[3:], turns[:3], gated=True)
    assert [(f.text, f.source_turn_ids) for f in drafted] == [
        ("Gaspard: the rice goes in the stock; with the leeks; same pan; peas too; then lemon",
         ["R1:2", "R1:3", "R1:4", "R1:5", "R1:6"])]


def test_an_answers_items_one_per_line_go_on_with_the_answer() -> None:
    turns = _chat(("Ilsabet", "What did you bake today?"), ("Gaspard", "the rye"), ("Gaspard", "caraway"),
                  ("Gaspard", "walnuts"))
    drafted = drafted_last(turns)
    assert len(drafted) == 1
    text, sources = drafted[0]
    assert text.endswith(": the rye; caraway; walnuts") and sources == ["R1:1", "R1:2", "R1:3", "R1:4"]


def test_a_possessive_piece_carries_a_detail() -> None:
    turns = _chat(("Ilsabet", "What's the food like on board?"), ("Gaspard", "the cook taught me"),
                  ("Gaspard", "flatbread"), ("Gaspard", "lebanese flatbread"), ("Gaspard", "his aunt's"))
    assert judge_utterance(turns[-1], turns[:-1])[0]
    assert drafted_last(turns)[0][1][-1] == "R1:5"


def test_a_piece_after_the_listener_says_something_is_no_run() -> None:
    turns = _chat(*RECIPE[:3], ("Ilsabet", "Leeks in risotto sounds odd to me honestly"), ("Gaspard", "same pan"))
    assert drafted_last(turns) == []


def test_a_piece_after_a_pause_is_no_run() -> None:
    turns = _chat(*RECIPE[:4], gap_before_last=timedelta(minutes=6))
    assert drafted_last(turns) == []


def test_a_piece_after_the_speakers_own_question_is_no_run() -> None:
    turns = _chat(*RECIPE[:3], ("Gaspard", "have you got a big pan?"), ("Gaspard", "same pan"))
    assert drafted_last(turns) == []
