"""Offline quality gate (relevance, faithfulness, completeness) and answer grouping for voting."""

from __future__ import annotations

import re
from datetime import date, datetime

from langchain_core.embeddings import Embeddings

from dmem.decisions.offline import asked_when, members, rules
from dmem.decisions.offline.spans import adds_information, parse_line, question_kind
from dmem.decisions.offline.spoken_days import spoken_days, spoken_months
from dmem.decisions.offline.topics import covered, focused_signals, standouts, topic_stems, topic_terms
from dmem.grounding.deixis import absolute_dates, format_day, ground_time
from dmem.state.verdicts import AnswerGroups, CriterionVerdict, QualityGateVerdict, is_no_info, joined
from dmem.text.answers import is_kind_asked, says_number, yes_no_echo
from dmem.text.asked import asks_yes_no, opens_yes_no
from dmem.text.lexical import (
    STOPWORDS,
    content_stems,
    content_words,
    hybrid_scores,
    jaccard,
    stem,
    tokenize,
)
from dmem.text.questions import two_questions

GATE_MIN_SUPPORT = 0.5  # completeness: mean of hybrid evidence and question coverage must reach this
FAITHFUL_MIN_OVERLAP = 0.75  # faithfulness: share of answer content words that must occur in the context
GROUP_MIN_JACCARD = 0.5  # answers whose content-word sets overlap this much mean the same thing
_RELATION = re.compile(rules.words(*rules.RELATIONS), re.I)


def grounded_lines(context: list[str]) -> list[str]:
    """Context texts without their date tags, relative times grounded on the tag."""
    out = []
    for line in context:
        text, tag = parse_line(line)
        out.append(ground_time(text, datetime(tag.year, tag.month, tag.day)).text if tag else text)
    return out


def line_stems(line: str) -> set[str]:
    """Stems of a context line as written, as grounded, of its date tag ('7', 'may', '2023'), and of its days.

    A day said without its year ('the 19th of May', 'the 30th', 'saturday') or a month said alone ('in may') is
    read as the answerer reads it (``spoken_days``, ``spoken_months``).
    """
    text, tag = parse_line(line)
    stems = set(content_stems(text)) | set(content_stems(grounded_lines([line])[0]))
    if tag:
        stems |= set(content_stems(f"{tag.day} {tag.strftime('%B')} {tag.year}"))
        stems |= {s for _, day in spoken_days(text, tag) for s in content_stems(format_day(day))}
        stems |= {s for _, month in spoken_months(text, tag) for s in content_stems(month.strftime("%B %Y"))}
    return stems


def _holds(answer: set[str], line: set[str]) -> bool:
    """The line holds most of the answer's words (one shared number is not enough)."""
    return bool(answer) and len(answer & line) >= FAITHFUL_MIN_OVERLAP * len(answer)


def _relevance(question: str, answer: str, context: list[str], stand: list[bool]) -> CriterionVerdict:
    kind = question_kind(question)
    if kind == "when" and not _dated(answer):
        return CriterionVerdict(reason=f"a when-question answered without a date ('{answer}')", passed=False)
    if kind in ("count", "duration") and not says_number(answer):
        return CriterionVerdict(reason=f"a how-many/how-long question answered without a number ('{answer}')",
                                passed=False)
    a = set(content_stems(answer))
    if not adds_information(question, answer) and kind != "when":
        return CriterionVerdict(reason=f"answer '{answer}' only repeats words of the question", passed=False)
    if kind == "who" and not _names_person(answer):
        return CriterionVerdict(reason=f"a who-question answered without a person ('{answer}')", passed=False)
    topic = topic_terms(question)
    if not (topic & a or _met_in_a_line(topic, a, kind == "when", context, stand)):
        words = ", ".join(sorted(w for w in set(content_words(question)) if stem(w) in topic)) or "the question"
        return CriterionVerdict(reason=f"answer '{answer}' is not connected to the question's topic ({words})",
                                passed=False)
    return CriterionVerdict(reason="answer and question topic meet in the same memory", passed=True)


def _dated(answer: str) -> bool:
    """The answer says a date, a year or a time ago, as a when-answer must."""
    return bool(absolute_dates(answer) or re.search(r"\b\d{4}\b|\b\w+ (?:year|month|week|day)s? ago\b", answer))


def _names_person(answer: str) -> bool:
    """The answer names someone, as a who-answer must: a capitalised word or a relation ('her sister')."""
    return any(w[:1].isupper() for w in answer.split()) or bool(_RELATION.search(answer))


def of_kind_asked(question: str, answer: str) -> bool:
    """Whether ``answer`` is the kind of answer ``question`` (or one part of a two-part one) asks for.

    A date for "when", a number for "how many", "how much", "how old" or "how long", a person (not a date: "25 March"
    is capitalised too) for "who", a place for "where" (``text.answers.is_kind_asked``), a yes or a no echoing the
    question for a yes/no question. A question of no such kind ("what did she do", "why", "how did it go") has no
    kind to check an answer by, and none is of its kind. A question opening as a yes/no one asks for a yes or a no
    whatever wh-word it holds later.
    """
    return any(_of_kind(kind, asked, answer) for asked, kind in _kinds(question))


def partial_stands(question: str, answer: str) -> bool:
    """Whether an answer this gate failed only as incomplete stands when Full Deliberation finds nothing.

    Only one of the kind asked (``of_kind_asked``), and not a date for "when": a date is the whole answer or a
    wrong one, and a date whose line misses the question's words dates another event (as ``_completeness`` says).
    """
    return any(kind != "when" and _of_kind(kind, asked, answer) for asked, kind in _kinds(question))


def _kinds(question: str) -> list[tuple[str, str]]:
    """Each part of the question (itself, or both of a two-part one: ``two_questions``) with the kind it asks."""
    return [(asked, _asks(asked)) for asked in two_questions(question) or (question,)]


def _asks(question: str) -> str:
    """The question's kind (``question_kind``), or 'yes/no' for one opening as a yes/no question."""
    return "yes/no" if asks_yes_no(question.split(",")[0]) else question_kind(question)


def _of_kind(kind: str, question: str, answer: str) -> bool:
    """Whether ``answer`` is of ``kind``, the kind ``question`` asks (``_asks``)."""
    if kind == "yes/no":  # "Was she named when she was born?" asks a yes or a no, not a date
        return opens_yes_no(answer) or yes_no_echo(question, answer)
    if kind == "when":
        return _dated(answer)
    if kind in ("count", "duration"):
        return says_number(answer)
    if kind == "who":
        return _names_person(answer) and not absolute_dates(answer)
    return kind == "where" and is_kind_asked(question, answer)


def _met_in_a_line(topic: set[str], answer: set[str], when: bool, context: list[str], stand: list[bool]) -> bool:
    """Whether a line holding most of the answer is on the question's topic: by its words or its focused cosine.

    For a when-question, a reply to a bare "when is it?" is on the topic of what its speaker told that day
    (``asked_when``). Each line's stems are read here, only for an answer that does not meet the topic itself.
    """
    stems = [line_stems(line) for line in context]
    told = {j: any(topic & stems[u] for u in of) for j, of in asked_when.anchors(context).items()} if when else {}
    return any(_holds(answer, stems[j]) and (topic & stems[j] or standout or told.get(j, False))
               for j, standout in enumerate(stand))


def quality_gate(embeddings: Embeddings, question: str, answer: str, context: list[str]) -> QualityGateVerdict:
    """The quality gate's three-dimension check of a System 1 answer against its context lines."""
    if is_no_info(answer):
        return QualityGateVerdict(
            relevance=CriterionVerdict(reason="the answer says no information is available", passed=False),
            faithfulness=CriterionVerdict(reason="the answer makes no claim", passed=True),
            completeness=CriterionVerdict(reason="nothing the question asks is answered", passed=False),
        )
    known = set().union(*map(line_stems, context)) if context else set()
    words = list(dict.fromkeys(w for w in re.findall(r"[^\W_]+(?:'[^\W_]+)*", answer) if w.lower() not in STOPWORDS))
    missing = [w for w in words if stem(w.lower()) not in known]
    share = 1 - len(missing) / len(words) if words else 1.0
    faithful = CriterionVerdict(
        reason=(f"answer words {', '.join(repr(w) for w in missing)} not found in memories" if missing
                else "every answer word occurs in the memories"), passed=share >= FAITHFUL_MIN_OVERLAP)
    if members.lists_members(question, answer, context):  # its items never say the category: judged as members
        listed = "the answer lists members of the asked category that the asked person's memories name"
        return QualityGateVerdict(relevance=CriterionVerdict(reason=listed, passed=True), faithfulness=faithful,
                                  completeness=CriterionVerdict(reason=listed, passed=True))
    judged, relevant = _answered_part(embeddings, question, answer, context)
    return QualityGateVerdict(relevance=relevant, faithfulness=faithful,
                              completeness=_completeness(embeddings, judged, answer, context))


def _answered_part(embeddings: Embeddings, question: str, answer: str,
                   context: list[str]) -> tuple[str, CriterionVerdict]:
    """The question a two-part question's answer is judged as, with its relevance verdict.

    The one part it alone answers, else the whole. The answerer gives a two-part question ('Who paid the bill, and
    how much did Ivo owe?') the answers of the parts that found one (``answer_extraction.both_answers``): a number
    alone answers the how-much part, and is judged by that part's kind and words, not failed as a who-answer
    without a person.
    """
    def judged(asked: str) -> tuple[str, CriterionVerdict]:
        return asked, _relevance(asked, answer, context, _standouts(embeddings, asked, context))

    pair = two_questions(question)
    fits = [verdict for verdict in map(judged, pair or ()) if verdict[1].passed]
    return fits[0] if len(fits) == 1 else judged(question)


def _standouts(embeddings: Embeddings, question: str, context: list[str]) -> list[bool]:
    """Which context lines stand out for the question by their focused cosine (``topics.standouts``)."""
    return standouts([c for c, _ in focused_signals(embeddings, question, grounded_lines(context))])


def _completeness(embeddings: Embeddings, question: str, answer: str, context: list[str]) -> CriterionVerdict:
    """Support = mean of hybrid(question + answer, best line) and the share of the question covered."""
    texts = grounded_lines(context)
    scores = hybrid_scores(embeddings, f"{question} {answer}", texts)
    best = max(range(len(texts)), key=lambda i: scores[i], default=None)
    if best is None:
        return CriterionVerdict(reason="no memory supports the answer", passed=False)
    asked = sorted(topic_stems(question))
    evidence = line_stems(context[best]) | set(content_stems(answer))
    uncovered = [w for w in content_words(question) if stem(w) in asked and not covered(stem(w), evidence)]
    coverage = 1 - len(set(map(stem, uncovered))) / len(asked) if asked else 1.0
    support = (scores[best] + coverage) / 2
    ok = support >= GATE_MIN_SUPPORT
    missing = f"; question words not covered: {', '.join(repr(w) for w in uncovered)}" if uncovered else ""
    if ok and uncovered and question_kind(question) == "when":  # a date of another event is wrong, not partial
        return CriterionVerdict(reason=f"memory {best + 1} dates another event{missing}", passed=False)
    return CriterionVerdict(reason=f"evidence support {support:.2f} from memory {best + 1} "
                            f"({'>=' if ok else '<'} {GATE_MIN_SUPPORT}){missing}", passed=ok)


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
    n = len(answers)
    ordered = joined(n, ((i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1)
                         if _equivalent(answers[i - 1], answers[j - 1])))
    best = [_best(g, answers) for g in ordered]
    sizes = ", ".join(f"{{{', '.join(map(str, g))}}}" for g in ordered)
    return AnswerGroups(reason=f"grouped by shared words (Jaccard >= {GROUP_MIN_JACCARD}), dates or numbers: "
                        f"{sizes}", groups=ordered, best=best)
