"""A quote of a longer line: whole when short, cut with '...' and no space before it when long."""

from __future__ import annotations

from dmem.decisions.offline.admission import judge_utterance
from dmem.state.schemas import Message
from dmem.text.quotes import shorten


def test_a_short_text_is_quoted_whole_and_a_long_one_cut_without_a_trailing_space() -> None:
    assert shorten("the ferry was late", 18) == "the ferry was late"
    assert shorten("the ferry was late again", 13) == "the ferry..."
    assert len(shorten("x" * 200, 80)) == 80


def test_an_admission_reason_quotes_a_long_question_the_same_way() -> None:
    question = "Did you ever finish building that little wooden boat you started in the shed by the lake, then?"
    asked = Message(turn_id="1", speaker="Ivo", text=question)
    ok, reason = judge_utterance(Message(turn_id="2", speaker="Noor", text="A blue rowing boat"), [asked])
    assert ok and f"('{shorten(question, 80)}')" in reason and " ...'" not in reason
