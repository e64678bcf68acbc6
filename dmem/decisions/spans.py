"""Extractive answer spans for each kind of question.

A date for 'when', a place for 'where', a name for 'who', a number for 'how many'; else the
clause of the best line that covers the question, minus the asked-about subject.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from dmem.decisions.deixis import MONTHS, NUMBER_WORDS, WEEKDAYS, format_day, ground_time
from dmem.decisions.lexical import STOPWORDS, content_stems, stem, tokenize
from dmem.decisions.rules import wordset

NO_INFO = "No information available."

_TAG = re.compile(r"^\s*\[(?P<date>\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?\]\s*")
_KINDS = [
    ("when", re.compile(r"^\s*(?:when|what\s+(?:date|day|time|year|month)|which\s+(?:date|day|year|month)|"
                        r"how\s+long\s+ago|in\s+what\s+year)\b|\bwhen\b", re.I)),
    ("where", re.compile(r"^\s*(?:where|in\s+which\s+(?:city|country|place|town|state)|which\s+(?:city|"
                         r"country|place|town|state)|what\s+(?:city|country|place|town|state))\b|\bwhere\b",
                         re.I)),
    ("who", re.compile(r"^\s*(?:who|whom|whose|with\s+whom)\b", re.I)),
    ("count", re.compile(r"^\s*how\s+(?:many|much|old)\b", re.I)),
    ("duration", re.compile(r"^\s*how\s+long\b", re.I)),
]
_MONTH = "|".join(MONTHS)
_DATE_PHRASE = re.compile(
    rf"(?:the\s+(?:week|weekend)\s+of\s+)?\b\d{{1,2}}\s+(?:{_MONTH})\s+\d{{4}}\b|\b(?:{_MONTH})\s+\d{{1,2}}"
    rf"(?:st|nd|rd|th)?,?\s+\d{{4}}\b|\b(?:{_MONTH})\s+\d{{4}}\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b|(?<=\bin\s)\d{{4}}\b"
    rf"|\b(?:a few|several)\s+\w+\s+before\s+\d{{1,2}}\s+(?:{_MONTH})\s+\d{{4}}\b", re.I)
_NOT_NAMES = {m.lower() for m in MONTHS} | set(WEEKDAYS) | {"i", "the", "a", "an", "on", "in", "at"}
_PLACE = re.compile(r"\b(?:in|at|to|from|near|visited)\s+(?P<place>(?:the\s+)?[A-Z][\w'-]*(?:\s+(?:of\s+)?"
                    r"[A-Z][\w'-]*)*)")
_NUMBER = re.compile(r"\b(?P<n>\d+(?:[.,]\d+)?|" + "|".join(k for k in NUMBER_WORDS if " " not in k and
                                                              k not in ("a", "an")) + r")\b(?P<unit>\s+[a-z]+)?",
                     re.I)
_CLAUSE_CUT = re.compile(r"\s*[,;]\s*|\s+(?:and|but|because|which|while|so)\s+")
_LEAD_FILLER = wordset("is are was were has have had did does do be been being the that it")


def parse_line(line: str) -> tuple[str, date | None]:
    """A context line's text and its leading [YYYY-MM-DD] tag, if any."""
    m = _TAG.match(line)
    if not m:
        return line.strip(), None
    return line[m.end() :].strip(), date.fromisoformat(m["date"])


def question_kind(question: str) -> str:
    """'when', 'where', 'who', 'count', 'duration' or 'other'."""
    return next((kind for kind, pattern in _KINDS if pattern.search(question)), "other")


def date_span(text: str, tag: date | None, *, year_only: bool = False) -> str | None:
    """The first absolute date in the text (relative times grounded on the tag), else the tag."""
    if tag:
        text = ground_time(text, datetime(tag.year, tag.month, tag.day)).text
    m = _DATE_PHRASE.search(text)
    found = m.group(0) if m else (format_day(tag) if tag else None)
    if found and year_only:
        year = re.search(r"\d{4}", found)
        return year.group(0) if year else found
    return found


def place_span(text: str, question: str = "") -> str | None:
    """A capitalized span after in/at/to/from that is not a date; the question's preposition first."""
    asked = set(tokenize(question))
    places = []
    for m in _PLACE.finditer(text):
        place = m["place"]
        if place.split()[-1].lower() not in _NOT_NAMES and not _DATE_PHRASE.match(place):
            prep = m.group(0).split()[0].lower()
            places.append((prep not in asked, place.removeprefix("the ").removeprefix("The ")))
    return min(places, key=lambda p: p[0])[1] if places else None


def person_span(text: str, question: str) -> str | None:
    """The first run of capitalized words that the question does not already name."""
    asked = {t.removesuffix("'s") for t in tokenize(question)}
    for m in re.finditer(r"\b[A-Z][\w-]*(?:'s)?(?:\s+[A-Z][\w-]*)*", text):
        words = [w for w in m.group(0).split() if w.lower().removesuffix("'s") not in asked | _NOT_NAMES]
        if words:
            return " ".join(w.removesuffix("'s") for w in words)
    return None


def number_span(text: str, *, with_unit: bool) -> str | None:
    """A number outside any date; with its unit word for 'how long'."""
    cleaned = _DATE_PHRASE.sub(" ", text)
    m = _NUMBER.search(cleaned)
    if not m:
        return None
    return (m.group(0) if with_unit and m["unit"] else m["n"]).strip()


def clause_span(text: str, question: str) -> str:
    """The shortest clause covering the most question words, without the subject the question asks about."""
    wanted = set(content_stems(question))
    clauses = [c for c in _CLAUSE_CUT.split(text) if c.strip()] or [text]
    best = max(clauses, key=lambda c: (len(wanted & set(content_stems(c))), -len(c)))
    words = best.split()
    asked = {stem(t) for t in tokenize(question) if t not in STOPWORDS}
    while len(words) > 1 and (stem(words[0].lower().strip(",.'\"")) in asked
                              or words[0].lower() in _LEAD_FILLER):
        words = words[1:]
    return " ".join(words).strip(" .,;") or best.strip()


def extract(question: str, text: str, tag: date | None) -> str:
    """The answer span of one context line for this question."""
    kind = question_kind(question)
    span: str | None = None
    if kind == "when":
        span = date_span(text, tag, year_only=bool(re.search(r"\byear\b", question, re.I)))
    elif kind == "where":
        span = place_span(text, question)
    elif kind == "who":
        span = person_span(text, question)
    elif kind in ("count", "duration"):
        span = number_span(text, with_unit=kind == "duration")
    return span or clause_span(text, question)
