"""Offline System 1 answer: find the context lines that can answer, then the span the question asks for.

A line can answer when it shares the question's topic (a topic word or its concept class) or its
focused cosine stands out from the other lines', when it adds something the question lacks, and,
when the question names people found in the context, when it names one of them.
"""

from __future__ import annotations

from datetime import date

from langchain_core.embeddings import Embeddings

from dmem.decisions import spans
from dmem.decisions.spans import NO_INFO
from dmem.decisions.topics import focused_signals, mentions, question_names, relevance, standouts
from dmem.state.verdicts import AnswerDraft

ANSWER_TYPED_LINES = 5  # lines searched for a typed span (date, place, name, number) before the best line's words
ANSWER_MARGIN = 0.15  # ...and only lines within this relevance of the best one


def ranked_lines(embeddings: Embeddings, question: str, texts: list[str],
                 tags: list[date | None] | None = None) -> list[tuple[int, float]]:
    """(index, relevance) of the lines that can answer, best first."""
    signals = focused_signals(embeddings, question, texts)
    stand = standouts([c for c, _ in signals])
    people = [n for n in question_names(question) if any(mentions(t, [n]) for t in texts)]
    usable = []
    for i, (text, (cos, lex)) in enumerate(zip(texts, signals, strict=True)):
        tag = tags[i] if tags else None
        if (spans.on_topic(question, text, stand[i])
                and spans.adds_information(question, text, tag)
                and (not people or mentions(text, people))):
            usable.append((i, relevance(cos, lex)))
    return sorted(usable, key=lambda p: -p[1])


def answer(embeddings: Embeddings, question: str, context: list[str]) -> AnswerDraft:
    """The typed span of the best close line that has one, else the best line's new words."""
    lines = [spans.parse_line(line) for line in context]
    ranked = ranked_lines(embeddings, question, [t for t, _ in lines], [d for _, d in lines])
    if not ranked:
        return AnswerDraft(reasoning=f"none of the {len(context)} lines shares the question's topic, names its "
                           "people and adds to it", answer=NO_INFO)
    top = ranked[0][1]
    close = [i for i, score in ranked[:ANSWER_TYPED_LINES] if score >= top - ANSWER_MARGIN]
    typed = ((i, spans.typed_span(question, *lines[i])) for i in close)
    best, found = next(((i, span) for i, span in typed if span), (ranked[0][0], None))
    score = dict(ranked)[best]
    return AnswerDraft(reasoning=f"line {best + 1} (relevance {score:.2f}, {spans.question_kind(question)} "
                       f"question): {context[best].strip()}",
                       answer=found or spans.free_span(question, lines[best][0]))
