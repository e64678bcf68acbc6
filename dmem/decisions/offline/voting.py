"""Voting samples for the offline engine: alternative answer spans drawn by score, deterministically.

A chat model varies its samples through temperature; rules have no noise, so sample 0 is the
extractive answer and each later sample draws one answer from the candidates (the best answer,
then the span of every other line that can answer) with weight exp(-gap / (temperature x
VOTE_SPREAD)), where gap is how far the candidate's line trails the best line's relevance. A clear
winner collects every vote; close rivals split them, which is what Majority Voting and Consensus
are there to notice. The draw is seeded by the question, the sample index and the temperature:
the same question always gets the same samples.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from langchain_core.embeddings import Embeddings

from dmem.decisions.offline import spans
from dmem.decisions.offline.answer_extraction import answer, ranked_lines, sentences
from dmem.decisions.offline.topics import strip_vocatives
from dmem.state.verdicts import AnswerDraft, is_no_info
from dmem.text.names import question_names

VOTE_SPREAD = 0.1  # relevance gap that, at temperature 1, makes a candidate e times less likely than the best
VOTE_CANDIDATES = 5  # lines whose spans a sample may draw from, best first


@dataclass(frozen=True)
class Candidate:
    """One answer a sample may give, with the relevance of the line it comes from."""

    answer: str
    relevance: float


def candidates(embeddings: Embeddings, question: str, context: list[str]) -> list[Candidate]:
    """The extractive answer first, then each other answering line's own span (distinct answers only)."""
    names = question_names(question)
    lines = [(strip_vocatives(text, names), tag) for text, tag in map(spans.parse_line, context)]
    ranked = ranked_lines(embeddings, question, lines, [strip_vocatives(c, names) for c in context])
    best = answer(embeddings, question, context)
    if not ranked or is_no_info(best.answer):
        return []
    out = [Candidate(best.answer, ranked[0][1])]
    for i, score in ranked[:VOTE_CANDIDATES]:
        parts = sentences(embeddings, question, lines[i][0])
        typed = next((s for s in (spans.typed_span(question, p, lines[i][1]) for p in parts) if s), None)
        span = typed or spans.free_span(question, parts[0])
        if all(span.lower() != c.answer.lower() for c in out):
            out.append(Candidate(span, score))
    return out


def draw(pool: list[Candidate], question: str, sample: int, temperature: float) -> Candidate:
    """One candidate, weighted by its relevance gap to the best; the seed makes the draw repeatable."""
    top = max(c.relevance for c in pool)
    weights = [math.exp(-(top - c.relevance) / (temperature * VOTE_SPREAD)) for c in pool]
    rng = random.Random(f"{sample}|{temperature:.3f}|{question}")
    return rng.choices(pool, weights=weights, k=1)[0]


def sample_answer(embeddings: Embeddings, question: str, context: list[str], *, sample: int,
                  temperature: float) -> AnswerDraft:
    """Sample ``sample`` of a vote: the extractive answer for sample 0 or temperature 0, else a drawn candidate."""
    if sample == 0 or temperature <= 0:
        return answer(embeddings, question, context)
    pool = candidates(embeddings, question, context)
    if len(pool) < 2:
        return answer(embeddings, question, context)
    chosen = draw(pool, question, sample, temperature)
    return AnswerDraft(reasoning=f"sample {sample} at temperature {temperature:g}: drew '{chosen.answer}' "
                       f"(line relevance {chosen.relevance:.2f}) from {len(pool)} candidate answers",
                       answer=chosen.answer)
