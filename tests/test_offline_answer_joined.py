"""The offline answerer ranks a line with pieces joined because they point back by the fact they lean on.

Formation joins a statement's piece that points back ('it was a big step', 'they cost ...') to the fact
before it with '; ' (``leaning``). Ranked whole, such a line is less focused than the fact alone and a
line that says less wins the question. Invented people and events only.
"""

from __future__ import annotations

import pytest

from dmem.decisions.offline import leaning
from dmem.decisions.offline.answer_extraction import answer, ranked_lines
from dmem.decisions.offline.spans import parse_line
from dmem.decisions.offline.topics import focused_signals, relevance
from dmem.models.embeddings import make_embeddings

EMB = make_embeddings("hash")


@pytest.mark.parametrize(("line", "head"), [
    ("Ivo got a dog; it snores all night", "Ivo got a dog"),
    ("Ivo got a dog; it snores; they walk at dawn", "Ivo got a dog"),
    ('Noor answered Ivo\'s question "Which film?": The one with the lighthouse; it was so calm; Also the ferry one',
     'Noor answered Ivo\'s question "Which film?": The one with the lighthouse'),
    # Replies joined under one question (capitalized) and a line without joins are their own head.
    ('Noor answered Ivo\'s question "Which films?": The one with the lighthouse; The ferry one',
     'Noor answered Ivo\'s question "Which films?": The one with the lighthouse; The ferry one'),
    ("Ivo got a dog; a beagle named Pip", "Ivo got a dog; a beagle named Pip"),
    ("Ivo got a dog", "Ivo got a dog"),
])
def test_a_lines_head_ends_before_its_first_piece_pointing_back(line: str, head: str) -> None:
    assert leaning.head(line) == head


POTTERY = ["[2025-03-02] Here's one of the pottery courses Ivo is looking into",
           "[2025-04-10] Ivo applied to the pottery course at the harbour studio; it's a big step, but Ivo thinks "
           "Ivo is ready to spend every weekend at the wheel, learn glazing and fire his own mugs in the old kiln",
           "[2025-06-20] Ivo passed the pottery course interview on 20 June 2025"]


def test_a_joined_line_ranks_by_the_fact_it_leans_on() -> None:
    question = "When did Ivo apply to the pottery course?"
    ranked = ranked_lines(EMB, question, [parse_line(c) for c in POTTERY], POTTERY)
    assert ranked[0][0] == 1
    out = answer(EMB, question, POTTERY)
    assert out.answer == "10 April 2025"
    assert out.used == [2]


def test_lines_without_pieces_pointing_back_rank_whole() -> None:
    """Replies joined under one question, and plain lines, keep the whole line's relevance."""
    question = "Which films did Noor like?"
    context = ['[2025-04-10] Noor answered Ivo\'s question "Which films?": The one with the lighthouse; The ferry one',
               "[2025-04-11] Noor liked the film about the night market",
               "[2025-04-12] Noor bought a lamp"]
    lines = [parse_line(c) for c in context]
    signals = focused_signals(EMB, question, [t for t, _ in lines], families=True)
    whole = {i: relevance(cos, lex) for i, (cos, lex) in enumerate(signals)}
    ranked = ranked_lines(EMB, question, lines, context)
    assert ranked and all(score == pytest.approx(whole[i]) for i, score in ranked)
