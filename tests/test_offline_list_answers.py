"""The offline answerer joins the spans of several close lines when the question asks for a list."""

from __future__ import annotations

from dmem.decisions.offline.answer_extraction import answer
from dmem.models.embeddings import make_embeddings

EMB = make_embeddings("hash")
CONTEXT = [
    '[2024-01-03] Ines read "The Salt Road" on the train',
    '[2024-02-11] Ines finished reading "Winter Harbour"',
    "[2024-02-20] Ines bought new running shoes",
    '[2024-03-01] Ines is reading "Paper Lanterns" at night',
]


def test_a_list_question_gets_every_close_line_once():
    out = answer(EMB, "What books has Ines read?", CONTEXT)
    assert out.answer == "The Salt Road, Winter Harbour, Paper Lanterns"  # whole titles


def test_a_single_answer_question_still_gets_one_span():
    assert answer(EMB, "What shoes did Ines buy?", CONTEXT).answer == "running"


def test_a_ledger_line_is_read_like_a_deliberation_fact():
    line = "[2024-05-06] On 6 May 2024, Ines said: I moved to Porto last week"
    out = answer(EMB, "Where did Ines move?", [line])
    assert out.answer == "Porto"
