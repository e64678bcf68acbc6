"""Offline quality gate (relevance, faithfulness, completeness) and answer grouping for voting."""

from __future__ import annotations

import re
from datetime import date, datetime

from langchain_core.embeddings import Embeddings

from dmem.decisions.deixis import NUMBER_WORDS, absolute_dates, ground_time
from dmem.decisions.lexical import (
    STOPWORDS,
    content_stems,
    content_words,
    hybrid_scores,
    jaccard,
    overlap,
    stem,
    tokenize,
)
from dmem.decisions.spans import NO_INFO, parse_line, question_kind
from dmem.state.verdicts import AnswerGroups, CriterionVerdict, QualityAudit

AUDIT_MIN_SUPPORT = 0.35  # completeness: mean of hybrid evidence and answer overlap must reach this
FAITHFUL_MIN_OVERLAP = 0.75  # faithfulness: share of answer content words that must occur in the context
GROUP_MIN_JACCARD = 0.5  # answers whose content-word sets overlap this much mean the same thing


def is_no_info(answer: str) -> bool:
    """True for the abstention answer and empty answers."""
    norm = " ".join(tokenize(answer))
    return not norm or norm == " ".join(tokenize(NO_INFO)) or norm in ("none", "unknown", "n a")


def grounded_lines(context: list[str]) -> list[str]:
    """Context texts without their date tags, relative times grounded on the tag."""
    out = []
    for line in context:
        text, tag = parse_line(line)
        out.append(ground_time(text, datetime(tag.year, tag.month, tag.day)).text if tag else text)
    return out


def _context_stems(context: list[str]) -> set[str]:
    stems: set[str] = set()
    for line, grounded in zip(context, grounded_lines(context), strict=True):
        _, tag = parse_line(line)
        stems |= set(content_stems(grounded))
        if tag:
            stems |= {str(tag.day), tag.strftime("%B").lower(), str(tag.year), stem(tag.strftime("%B").lower())}
    return stems


def _relevance(question: str, answer: str, context: list[str]) -> CriterionVerdict:
    kind = question_kind(question)
    if kind == "when" and not (absolute_dates(answer) or re.search(r"\b\d{4}\b", answer)):
        return CriterionVerdict(reason=f"a when-question answered without a date ('{answer}')", passed=False)
    if kind in ("count", "duration") and not re.search(r"\d|" + "|".join(NUMBER_WORDS), answer, re.I):
        return CriterionVerdict(reason=f"a how-many/how-long question answered without a number ('{answer}')",
                                passed=False)
    q, a = set(content_stems(question)), set(content_stems(answer))
    linked = bool(q & a) or any(q & set(content_stems(t)) and a & set(content_stems(t))
                                for t in grounded_lines(context))
    if not linked:
        topic = ", ".join(sorted(set(content_words(question)))) or "the question"
        return CriterionVerdict(reason=f"answer '{answer}' is not connected to the question's topic ({topic})",
                                passed=False)
    return CriterionVerdict(reason="answer and question meet in the same memory", passed=True)


def audit(embeddings: Embeddings, question: str, answer: str, context: list[str]) -> QualityAudit:
    """Three-dimension audit of a System 1 answer against its context lines."""
    if is_no_info(answer):
        return QualityAudit(
            relevance=CriterionVerdict(reason="the answer says no information is available", passed=False),
            faithfulness=CriterionVerdict(reason="the answer makes no claim", passed=True),
            completeness=CriterionVerdict(reason="nothing the question asks is answered", passed=False),
        )
    known = _context_stems(context)
    words = list(dict.fromkeys(w for w in re.findall(r"[^\W_]+(?:'[^\W_]+)*", answer) if w.lower() not in STOPWORDS))
    missing = [w for w in words if stem(w.lower()) not in known]
    share = 1 - len(missing) / len(words) if words else 1.0
    faithful = CriterionVerdict(
        reason=(f"answer words {', '.join(repr(w) for w in missing)} not found in memories" if missing
                else "every answer word occurs in the memories"), passed=share >= FAITHFUL_MIN_OVERLAP)
    texts = grounded_lines(context)
    scores = hybrid_scores(embeddings, f"{question} {answer}", texts)
    best = max(range(len(texts)), key=lambda i: scores[i], default=None)
    support = (scores[best] + overlap(answer, texts[best])) / 2 if best is not None else 0.0
    complete = CriterionVerdict(
        reason=(f"evidence support {support:.2f} from memory {best + 1 if best is not None else '-'} "
                f"({'>=' if support >= AUDIT_MIN_SUPPORT else '<'} {AUDIT_MIN_SUPPORT})"),
        passed=support >= AUDIT_MIN_SUPPORT)
    return QualityAudit(relevance=_relevance(question, answer, context), faithfulness=faithful,
                        completeness=complete)


def _keys(answer: str) -> tuple[set[date], set[str]]:
    dates = {d for _, d in absolute_dates(answer)}
    stripped = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", " ", answer)
    numbers = {t for t in (stem(w) for w in tokenize(stripped)) if t.isdigit() and not dates}
    return dates, numbers


def _equivalent(a: str, b: str) -> bool:
    if is_no_info(a) or is_no_info(b):
        return is_no_info(a) and is_no_info(b)
    (da, na), (db, nb) = _keys(a), _keys(b)
    return jaccard(a, b) >= GROUP_MIN_JACCARD or bool(da & db) or bool(na & nb)


def _best(members: list[int], answers: list[str]) -> int:
    def norm(i: int) -> str:
        return " ".join(tokenize(answers[i - 1]))

    def contained(i: int) -> int:
        return sum(1 for j in members if j != i and f" {norm(i)} " in f" {norm(j)} ")

    return max(members, key=lambda i: (contained(i), -len(answers[i - 1]), -i))


def group(answers: list[str]) -> AnswerGroups:
    """Union of pairwise-equivalent answers (indexes from 1), with the most quoted member of each."""
    parent = list(range(len(answers) + 1))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(1, len(answers) + 1):
        for j in range(i + 1, len(answers) + 1):
            if _equivalent(answers[i - 1], answers[j - 1]):
                parent[find(j)] = find(i)
    groups: dict[int, list[int]] = {}
    for i in range(1, len(answers) + 1):
        groups.setdefault(find(i), []).append(i)
    ordered = sorted(groups.values(), key=lambda g: g[0])
    best = [_best(g, answers) for g in ordered]
    sizes = ", ".join(f"{{{', '.join(map(str, g))}}}" for g in ordered)
    return AnswerGroups(reason=f"grouped by shared words (Jaccard >= {GROUP_MIN_JACCARD}), dates or numbers: "
                        f"{sizes}", groups=ordered, best=best)
