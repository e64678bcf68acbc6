"""A reply opened by a label naming one piece of the other's long multi-topic message ("the test: CONGRATS 🎉", "re
your sister - june by a lake", "gwilym: good call."), offline (``labelled``): the reply is kept with the piece it
names, both turns its sources. A label that is the speaker's own ("my news:") or a speaker's name, a short message of
the other's, another session and a label naming no piece stay out. Invented conversations only."""

from __future__ import annotations

import functools
from datetime import datetime

import pytest

from dmem.decisions.offline import labelled
from dmem.decisions.offline.admission import judge_utterance
from dmem.state.schemas import Message
from tests.conftest import chat_turn, drafted_last

WHEN = datetime(2026, 3, 2, 18, 15)
NEWS = ("Quick update before my shift:\n"
        "The driving test - I passed! First try. The examiner only sighed once.\n"
        "Ottilie rang: the christening is not in March any more, it is May, in the garden at Fennick.\n"
        "And Oskar asked if I want to come back to the bakery. I said no. I like the quiet here.")
LONG_ONE = ("Long one, sorry:\nOskar quit on friday. Just like that. He is opening a soup van.\n"
            "So I am now acting head chef until they find someone. I did not ask for this.\n"
            "My dad sprained his ankle on the stairs. He is fine, just grumpy.")

_facts = functools.partial(drafted_last, gated=False)


def _chat(*lines: tuple[str, str], session: str = "T1") -> list[Message]:
    """Turns of an invented chat between Maren and Quill, in order."""
    return [chat_turn(text, who, i + 1, session=session, when=WHEN) for i, (who, text) in enumerate(lines)]


@pytest.mark.parametrize(("reply", "piece"), [
    ("the test: CONGRATS 🎉", "The driving test - Maren passed! First try. The examiner only sighed once"),
    ("re your goddaughter - may in a garden, even better",
     "Ottilie rang: the christening is not in March any more, it is May, in the garden at Fennick"),
    ("oskar: good call.", "Oskar asked if Maren wants to come back to the bakery. Maren said no. Maren likes the "
                          "quiet here"),
])
def test_a_labelled_reply_is_kept_with_the_piece_it_names(reply: str, piece: str) -> None:
    turns = _chat(("Maren", NEWS), ("Quill", "ok"), ("Quill", reply))
    admitted, reason = judge_utterance(turns[-1], turns[:-1])
    assert admitted and "Maren's message, which the reply names" in reason, reason
    [(text, sources)] = _facts(turns)
    assert text.startswith(f'Quill replied to Maren\'s "{piece}": ')
    assert sources == ["T1:1", "T1:3"]


def test_a_question_on_a_piece_keeps_its_label_as_the_other_speakers() -> None:
    turns = _chat(("Maren", LONG_ONE), ("Quill", "oskar: a SOUP VAN 😂"), ("Maren", "He has the ladle already."),
                  ("Quill", "acting head chef: congrats?? or sorry"))
    [(text, sources)] = _facts(turns)
    assert text == ('Quill replied to Maren\'s "Maren is now acting head chef until they find someone. Maren did '
                    'not ask for this": acting head chef: congrats, or sorry')
    assert sources == ["T1:1", "T1:4"]


def test_each_reply_of_a_run_names_its_own_piece() -> None:
    turns = _chat(("Maren", LONG_ONE), ("Quill", "oskar: a SOUP VAN 😂"), ("Quill", "dad: tell him to rest"))
    asked = labelled.labelled(turns[-1], turns[:-1])
    assert asked is not None and asked.question.startswith("My dad sprained") and asked.stance == "named"
    asked = labelled.labelled(turns[1], turns[:1])
    assert asked is not None and asked.question.startswith("Oskar quit on friday")


@pytest.mark.parametrize("reply", [
    "my news: the kiln is fixed",  # the speaker's own topic
    "Maren: congrats",  # a speaker's name, as transcripts write it
    "the weather: awful",  # names no piece
    "the test: CONGRATS 🎉 I knew you would pass it, you practised every single evening for months",  # a long line
])
def test_labels_naming_no_piece_of_the_other_are_not_read(reply: str) -> None:
    turns = _chat(("Maren", NEWS), ("Quill", reply))
    assert labelled.labelled(turns[-1], turns[:-1]) is None


def test_a_short_message_or_another_session_has_no_pieces_to_name() -> None:
    short = _chat(("Maren", "The driving test went fine. I passed."), ("Quill", "the test: CONGRATS 🎉"))
    assert labelled.labelled(short[-1], short[:-1]) is None
    earlier = _chat(("Maren", NEWS), session="T1")
    later = _chat(("Quill", "hi"), ("Quill", "the test: CONGRATS 🎉"), session="T2")
    assert labelled.labelled(later[-1], [*earlier, *later[:-1]]) is None
