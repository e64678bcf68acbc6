"""A bare answer given lines after its question (``thread_value.answered_in_pieces``), offline: a writer who answers
in bursts ("Held up how? The snow again?" / "no" / "my permit" / "customs seal") says the detail in a later piece,
which the answer rule (the line right after the question) does not read. The piece forms one memory stating the
question and the run (one reply a piece, as the lifecycle joins replies), the question, the pieces and the line its
sources, and no piece's value or day is lost to the answer stored from the first piece. A laugh, a reaction, a run
broken by a longer own line or a silence, and a question early in a long turn stay out. Invented conversations
only."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from dmem import Memory
from dmem.decisions.offline import thread_value
from dmem.decisions.offline.admission import judge_utterance
from dmem.decisions.offline.clauses import answer_words
from dmem.decisions.offline.lifecycle_rules import decide
from dmem.state.schemas import Fact, MemoryRecord, Message, Operation
from tests.conftest import drafted_last, minute_chat

WHEN = datetime(2031, 11, 3, 21, 5)
_pieces = functools.partial(thread_value.answered_in_pieces, words=answer_words)


def _chat(*lines: tuple[str, str], gap_before_last: timedelta = timedelta(0)) -> list[Message]:
    """Turns of an invented chat between Oriel and Bastian, a minute apart (the last after ``gap_before_last``)."""
    return minute_chat(lines, session="T1", start=WHEN, gap_before_last=gap_before_last)


def test_the_last_piece_of_a_burst_answers_the_question_with_the_run() -> None:
    turns = _chat(("Oriel", "Glad you rang. Held up how? The snow again?"), ("Bastian", "no"),
                  ("Bastian", "my hours"), ("Bastian", "logbook"))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and reason.startswith("admitted: a terse value read with its thread (Oriel's 'Held up how?")
    topic = _pieces(turns[-1], turns[:-1])
    assert topic is not None and topic.how == thread_value.IN_PIECES
    assert [p.turn_id for p in topic.pieces] == ["T1:2", "T1:3"]
    assert drafted_last(turns) == [('Bastian answered Oriel\'s question "Held up how? The snow again?": no; my hours; '
                                    'logbook', ["T1:1", "T1:2", "T1:3", "T1:4"])]


def test_a_detail_after_a_bare_yes_is_stated_with_the_question() -> None:
    turns = _chat(("Oriel", "Now, are you still free on Sunday? I need a hand with the shed."), ("Bastian", "yes!"),
                  ("Bastian", "rest day"))
    assert drafted_last(turns) == [('Bastian answered Oriel\'s question "Now, are you still free on Sunday?": yes; '
                                    'rest day', ["T1:1", "T1:2", "T1:3"])]


@pytest.mark.parametrize("lines", [
    # a laugh or a reaction after the run answers nothing
    (("Oriel", "Where are you now?"), ("Bastian", "lyon"), ("Bastian", "ha")),
    (("Oriel", "Where are you now?"), ("Bastian", "lyon"), ("Bastian", "haha same")),
    # a longer own line between: the piece goes on with that, not the question
    (("Oriel", "Held up how?"), ("Bastian", "the lorry broke down outside the depot and nobody came for hours"),
     ("Bastian", "customs seal")),
    # the question early in a long turn of news is not the open one
    (("Oriel", "Did you eat? The inspector came today. The hives are clear. We sold all the honey."),
     ("Bastian", "yes"), ("Bastian", "customs seal")),
    # right after the question: the answer rule's line, not a run
    (("Oriel", "Held up how?"), ("Bastian", "customs seal")),
    # more than RUN_PIECES pieces between
    (("Oriel", "Held up how?"), ("Bastian", "no"), ("Bastian", "not that"), ("Bastian", "my hours"),
     ("Bastian", "again"), ("Bastian", "customs seal")),
])
def test_lines_that_answer_no_open_question_stay_out(lines: tuple[tuple[str, str], ...]) -> None:
    turns = _chat(*lines)
    assert _pieces(turns[-1], turns[:-1]) is None


def test_a_piece_after_a_silence_starts_a_new_talk() -> None:
    turns = _chat(("Oriel", "Held up how?"), ("Bastian", "no"), ("Bastian", "customs seal"),
                  gap_before_last=timedelta(hours=6))
    assert _pieces(turns[-1], turns[:-1]) is None


# h74e: the run's memory after the answer the first piece stored ('Bastian answered ...: friday'). Written with
# commas, the run read as a repeat of that answer (a close cosine: the question's frame is most of both texts), and
# the lifecycle's NOOP kept 'friday' and dropped the later pieces, the date among them.
_DATED = (("Oriel", "How long are you away this time?"), ("Bastian", "all week"), ("Bastian", "back sunday"),
          ("Oriel", "Thursday the 9th?"), ("Bastian", "friday"), ("Bastian", "evening"), ("Bastian", "10th"),
          ("Oriel", "Good, the boiler man comes that week."), ("Bastian", "ok"))


def test_the_run_goes_on_with_the_answer_its_first_piece_stored() -> None:
    turns = _chat(*_DATED[3:7])
    run = Fact(text=drafted_last(turns)[0][0], namespace="bastian", speaker="Bastian",
               source_turn_ids=["T1:1", "T1:2", "T1:3", "T1:4"])
    stored = MemoryRecord(id="m", namespace="bastian", speaker="Bastian", source_turn_ids=["T1:1", "T1:2"],
                          text='Bastian answered Oriel\'s question "Thursday the 9th?": friday',
                          created_at=WHEN, updated_at=WHEN)
    decision = decide(run, [stored], [0.98])  # close enough to count as a repeat
    assert decision.operation == Operation.UPDATE
    assert decision.text == 'Bastian answered Oriel\'s question "Thursday the 9th?": friday; evening; 10th'


def test_no_piece_of_a_dated_run_is_lost_in_the_store(tmp_path: Path) -> None:
    turns = _chat(*_DATED)
    with Memory(tmp_path / "m", embeddings="hash") as mem:
        mem.add(turns, user_id="u", conversation_id="c1", speaker_namespaces={"Oriel": "oriel", "Bastian": "bastian"})
        stored = [(r.text, r.source_turn_ids) for r in mem.get_all(user_id="bastian")]
    asked = [(text, sources) for text, sources in stored if "Thursday the 9th?" in text]
    assert asked == [('Bastian answered Oriel\'s question "Thursday the 9th?": friday; evening; 10th',
                      ["T1:4", "T1:5", "T1:6", "T1:7"])]

