"""Extractive answer spans for each kind of question.

A date for 'when', a place for 'where', a name for 'who', a number for 'how many'; else the
words of the best line that the question does not already contain (the new information).
"""

from __future__ import annotations

__all__ = ["NO_INFO", "WhenSpans", "adds_information", "concept_span", "extract", "free_span", "new_span", "on_topic",
           "parse_line", "question_kind", "said_date", "said_dates", "said_span", "said_spans", "topic_stems",
           "typed_span"]

import re
from datetime import date, datetime
from typing import NamedTuple

from dmem.decisions.offline import newwords
from dmem.decisions.offline.pronouns import rewrite_person
from dmem.decisions.offline.spoken_days import spoken_months, told_days
from dmem.decisions.offline.topics import class_stems, in_class_sense, related, shares, topic_stems, topic_terms
from dmem.grounding.deixis import MONTHS, WEEKDAYS, absolute_dates, format_day, ground_time
from dmem.state.verdicts import NO_INFO
from dmem.text.lexical import STOPWORDS, content_stems, first_word, stem, tokenize
from dmem.text.words import ONES, TEENS, TENS, alternation

PLACE_NEAR_TOKENS = 4  # a place this close after a topic word ("job at Atlas Robotics") answers 'where'
ANSWER_NAME_NEAR_TOKENS = 4  # a name this close to a topic word answers 'who' before the line's first name
CONCEPT_SPAN_MAX_TOKENS = 6  # longest run from first to last class member kept whole ("two cats and a dog")

_TAG = re.compile(r"^\s*\[(?P<date>\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?\]\s*")
# A Full Deliberation fact: "On 17 March 2024, Maya said: I drove a Jeep ..."
_SAID = re.compile(r"^\s*(?:On\s+(?P<day>[^,]+),\s+)?(?P<speaker>[A-Z][\w' -]{0,40}?) said:\s*")
_KINDS = [
    ("when", re.compile(r"^\s*(?:when|what\s+(?:date|day|time|year|month)|which\s+(?:date|day|year|month)|"
                        r"how\s+long\s+ago|in\s+what\s+year)\b|\bwhen\b", re.I)),
    # "Which cities ...", "What countries ...": a list of places is still a 'where' question.
    ("where", re.compile(r"^\s*(?:where|(?:in\s+)?(?:which|what)\s+(?:other\s+)?(?:cit(?:y|ies)|countr(?:y|ies)|"
                         r"places?|towns?|states?))\b|\bwhere\b", re.I)),
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
_NOUN = r"(?:\s+(?!\w+ly\b|(?:with|and|or|for|to|on|in|at|when|while|because|but|once|again|too)\b)[a-z]+)"
_PLACE = re.compile(r"\b(?:in|at|to|from|near|visited)\s+(?P<place>(?:the\s+)?[A-Z][\w'-]*(?:\s+(?:of\s+)?"
                    rf"[A-Z][\w'-]*)*(?:(?<='s){_NOUN}{{1,2}})?)")
_PLACE_PHRASE = re.compile(r"\b(?:in|at|to|from|near)\s+(?P<place>(?:the|a|an|my|his|her|their|our|[A-Z]\w*'s)"
                           rf"{_NOUN}{{1,2}})")
_ONES, _TEENS, _TENS = (alternation(w) for w in (ONES, TEENS, TENS))
# A spelled number up to ninety-nine, whole: "sixty-three" is one number, not "three" after a hyphen.
_SPELLED = rf"(?:(?:{_TENS})(?:[\s-](?:{_ONES}))?|{_TEENS}|{_ONES})"
_NUMBER = re.compile(rf"(?<![\w-])(?P<n>\d+(?:[.,]\d+)?|{_SPELLED})\b(?P<unit>\s+[a-z]+)?", re.I)
_NAMED = re.compile(r"\b(?:named|called|name\s+is|name\s+was|name's)\s+(?P<n>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_TOKEN = re.compile(r"[\w'\u2019-]+|[^\w\s]")


def parse_line(line: str) -> tuple[str, date | None]:
    """A context line's text and date, from a [YYYY-MM-DD] tag, an "On <day>, <speaker> said:" prefix, or both.

    A deliberation fact's first person is rewritten to its speaker, as memories are.
    """
    if m := _TAG.match(line):
        rest, tag = line[m.end() :].strip(), date.fromisoformat(m["date"])
        said = _SAID.match(rest)  # a deliberation fact dated by the ledger
        return (rewrite_person(rest[said.end() :].strip(), said["speaker"]) if said else rest), tag
    if m := _SAID.match(line):
        days = absolute_dates(m["day"] or "")
        return rewrite_person(line[m.end() :].strip(), m["speaker"]), days[0][1] if days else None
    return line.strip(), None


def line_subject(line: str) -> str | None:
    """Who a context line is about: a deliberation fact's speaker, else its first word if capitalized."""
    text = _TAG.sub("", line).strip()
    if m := _SAID.match(text):
        return m["speaker"]
    first = first_word(text).removesuffix("'s")
    return first if first[:1].isupper() else None


def adds_information(question: str, text: str, tag: date | None = None) -> bool:
    """True if the text has a content word the question lacks, or a date for a when-question."""
    if question_kind(question) == "when" and (tag or _DATE_PHRASE.search(text)):
        return True
    known = set(content_stems(question)) | {"other"}
    return bool(set(content_stems(text)) - known)


def on_topic(question: str, text: str, standout: bool) -> bool:
    """A line can answer if it shares a topic word (or a member of its class, in that sense), or stands out."""
    return (shares(topic_stems(question), content_stems(text))
            or shares(topic_terms(question), class_stems(text)) or standout)


def question_kind(question: str) -> str:
    """'when', 'where', 'who', 'count', 'duration' or 'other'."""
    return next((kind for kind, pattern in _KINDS if pattern.search(question)), "other")


def said_date(text: str, tag: date | None) -> str | None:
    """The first date the text says, a day with its month before a bare one; None when it says none.

    The tag itself is not said. "the 17th, no it's the 10th, the 10th of October" says the 10th of October.

    Absolute, relative grounded on the tag, a day without its year ("the 21st of August", "the 30th",
    "saturday", placed by the tag: ``spoken_days``) or, when no day is said, a month alone ("in november":
    ``spoken_months``).
    """
    day, month = said_dates(text, tag)
    return day or month  # a month alone only when the text says no day


def said_dates(text: str, tag: date | None) -> tuple[str | None, str | None]:
    """The first day the text says (``said_date``) and the first month it says alone, from one grounding."""
    return _dates(_grounded(text, tag), tag)


def _grounded(text: str, tag: date | None) -> str:
    """The text with its relative dates written out from the tag (as it is without a tag)."""
    return ground_time(text, datetime(tag.year, tag.month, tag.day)).text if tag else text


def _dates(grounded: str, tag: date | None) -> tuple[str | None, str | None]:
    """``said_dates`` of a text already grounded on the tag."""
    m = _DATE_PHRASE.search(grounded)
    # A bare day ("the 17th", "saturday") after any date said with its month; at one place, a full date first.
    said = [(False, m.start(), 0, m.group(0))] if m else []
    said += [(bare, at, 1, format_day(day)) for bare, at, day in told_days(grounded, tag)[:1]]
    month = next((day.strftime("%B %Y") for _, day in spoken_months(grounded, tag)), None)
    return min(said)[3] if said else None, month


def date_span(text: str, tag: date | None, *, year_only: bool = False) -> str | None:
    """The first date the text says (``said_date``), else the tag."""
    return _when_form(said_date(text, tag) or (format_day(tag) if tag else None), year_only)


def _when_form(found: str | None, year_only: bool) -> str | None:
    """A date as a when-question takes it: its year alone when the question asks for a year."""
    if found and year_only:
        year = re.search(r"\d{4}", found)
        return year.group(0) if year else found
    return found


class WhenSpans(NamedTuple):
    """A when-question's spans from one text, grounded once (``said_spans``)."""

    day: str | None
    """From the day the text says ('how long ago': the time since it), else None."""
    month: str | None
    """From the first month the text says alone ('how long ago': the time since it, only when no day is said)."""
    typed: str | None
    """What ``typed_span`` gives: the day, else the month, else the day the text was said on (the tag); for 'how
    long ago', the time since an absolute date the text says."""


def said_span(question: str, text: str, tag: date | None) -> str | None:
    """A when-question's span from a date the text says (a month alone when no day); None when it says none."""
    day, month, _ = said_spans(question, text, tag)
    return day or month


def said_spans(question: str, text: str, tag: date | None) -> WhenSpans:
    """A when-question's spans of the text (``WhenSpans``), all from one grounding.

    The day and month said are ``said_dates``'; each span is the time since the date for 'how long ago', its year
    for 'what year'.
    """
    grounded = _grounded(text, tag)
    day, month = _dates(grounded, tag)
    if _AGO.search(question):
        since = _since(grounded, tag)
        return WhenSpans(since if day else None, since if month and not day else None, since)
    year_only = bool(re.search(_YEAR, question, re.I))
    typed = day or month or (format_day(tag) if tag else None)
    return WhenSpans(_when_form(day, year_only), _when_form(month, year_only), _when_form(typed, year_only))


def _places(text: str, question: str) -> list[tuple[tuple[bool, bool], str]]:
    """(rank, place) of each capitalized place after in/at/to/from, in order; a lower rank answers first."""
    asked = set(tokenize(question))
    topic = topic_terms(question)
    places = []
    for m in _PLACE.finditer(text):
        place = m["place"]
        last = place.split()[-1].lower()
        if last in _NOT_NAMES or _DATE_PHRASE.match(place) or last.removesuffix("'s") in asked and "'" not in last:
            continue
        before = {stem(t) for t in tokenize(text[: m.start()])[-PLACE_NEAR_TOKENS:]}
        rank = (m.group(0).split()[0].lower() not in asked, not before & topic)
        places.append((rank, place.removeprefix("the ").removeprefix("The ")))
    return places


def place_span(text: str, question: str = "") -> str | None:
    """A capitalized place after in/at/to/from, else a phrase like 'the beach'.

    The question's preposition ranks first, then a place right after a topic word ("a new job at
    Atlas Robotics" for 'where ... work'), then the first one.
    """
    if places := _places(text, question):
        return min(places, key=lambda p: p[0])[1]
    phrase = _PLACE_PHRASE.search(text)
    return phrase["place"] if phrase else None


def place_spans(text: str, question: str = "") -> list[str]:
    """Every place of the line in order (for 'Which cities...'), else its phrase like 'the beach'."""
    places = [place for _, place in _places(text, question)]
    return places or [p for p in [place_span(text, question)] if p]


def person_names(text: str, question: str) -> list[tuple[int, str]]:
    """(character offset, name) of each run of capitalized words that the question does not already name."""
    asked = {t.removesuffix("'s") for t in tokenize(question)}
    found = []
    for m in re.finditer(r"\b[A-Z][\w-]*(?:'s)?(?:\s+[A-Z][\w-]*)*", text):
        # A capitalized function word ("That's", "YOUR") opens a sentence or shouts; it names no one.
        words = [w for w in m.group(0).split() if w.lower().removesuffix("'s") not in asked | _NOT_NAMES | STOPWORDS]
        if words:
            found.append((m.start(), " ".join(w.removesuffix("'s") for w in words)))
    return found


def person_span(text: str, question: str) -> str | None:
    """The name nearest a topic word of the question ("Theo's *coach* is Ines"), else the first name.

    A name counts as near within ANSWER_NAME_NEAR_TOKENS tokens: a line about the question's person
    names others too, and the one asked for stands by the word that says how ('coach', 'married').
    """
    names = person_names(text, question)
    topic = topic_terms(question)
    spots = [i for i, t in enumerate(tokenize(text)) if stem(t.removesuffix("'s")) in topic]
    gaps = []
    for k, (at, name) in enumerate(names):
        first = len(tokenize(text[:at]))
        last = first + len(tokenize(name)) - 1
        gap = min((max(first - spot, spot - last, 0) for spot in spots), default=ANSWER_NAME_NEAR_TOKENS + 1)
        gaps.append((gap, k))
    close = [g for g in gaps if g[0] <= ANSWER_NAME_NEAR_TOKENS]
    if close:
        return names[min(close)[1]][1]
    return names[0][1] if names else None


def number_span(text: str, *, with_unit: bool) -> str | None:
    """A number outside any date; with its unit word for 'how long'."""
    cleaned = _DATE_PHRASE.sub(" ", text)
    m = _NUMBER.search(cleaned)
    if not m:
        return None
    return (m.group(0) if with_unit and m["unit"] else m["n"]).strip()


def free_span(question: str, text: str) -> str:
    """The new information in the line: the run of words next to the question's words (dates masked)."""
    return newwords.free_span(question, text, _DATE_PHRASE)


def new_span(question: str, text: str) -> str | None:
    """The line's new information, or None when it only restates the question (its words, fillers, dates)."""
    return newwords.new_words(question, text, _DATE_PHRASE) or None


_ASKED = re.compile(r"^\s*(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:(?:is|are|was|were)\s+"
                    r"(?:(?:[A-Z][\w-]*'s|his|her|their|the)\s+)?)?(?:favou?rite\s+)?(?P<noun>[a-z]+)\b", re.I)


def concept_span(question: str, text: str) -> str | None:
    """For 'what <class>' ('What vehicle', "What is Maya's diet"), the class members the line names.

    Members the question already says are skipped; a run from the first to the last member is kept
    whole when short ("two cats and a dog"), and a capitalized name grows to its full run ("Jeep Wrangler").
    """
    m = _ASKED.match(question)
    members = related(stem(m["noun"].lower()), instances_only=True) if m else frozenset()
    if len(members) < 2:
        return None
    members -= set(content_stems(question))
    tokens = _TOKEN.findall(in_class_sense(text))
    hits = [i for i, t in enumerate(tokens) if t[0].isalnum() and stem(t.lower()) in members]
    if not hits:
        return None
    first, last = hits[0], hits[-1]
    if last - first >= CONCEPT_SPAN_MAX_TOKENS:
        return ", ".join(dict.fromkeys(tokens[i] for i in hits))
    if first > 0 and stem(tokens[first - 1].lower()).isdigit():
        first -= 1
    while last + 1 < len(tokens) and tokens[last][:1].isupper() and tokens[last + 1][:1].isupper():
        last += 1
    return " ".join(tokens[first : last + 1])


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"\+?\d[\d ().-]{5,}\d")
_ASKS_EMAIL = re.compile(r"\be-?mail", re.I)
_ASKS_PHONE = re.compile(r"\b(?:phone|call|ring|text|mobile|cell|dial)\b", re.I)
_ASKS_CONTACT = re.compile(r"\b(?:reach|contact|get\s+in\s+touch)\b", re.I)


def contact_span(question: str, text: str) -> str | None:
    """The e-mail address or phone number a contact question ('How can I email Maya?') asks for."""
    email, phone = _EMAIL.search(text), _PHONE.search(_DATE_PHRASE.sub(" ", text))
    if _ASKS_EMAIL.search(question):
        return email.group(0) if email else None
    if _ASKS_PHONE.search(question):
        return phone.group(0).strip() if phone else None
    found = email or phone if _ASKS_CONTACT.search(question) else None
    return found.group(0).strip() if found else None


def name_span(text: str) -> str | None:
    """The capitalized name after 'named', 'called' or 'name is'."""
    m = _NAMED.search(text)
    return m["n"] if m else None


_AGO = re.compile(r"\bhow\s+long\s+ago\b", re.I)
_YEAR = r"\byear\b"  # a when-question that asks for a year ("what year", "which year") takes the year alone


def _since(grounded: str, tag: date | None) -> str | None:
    """'10 years ago': from a date said in the text (grounded on the tag) to the day it was said."""
    said = absolute_dates(grounded)
    if not tag or not said:
        return None
    when = said[0][1]
    days = (tag - when).days
    for unit, size in (("year", 365), ("month", 30), ("week", 7), ("day", 1)):
        if days >= size:
            n = max(1, tag.year - when.year) if unit == "year" else round(days / size)  # calendar years
            return f"{n} {unit}{'s' if n > 1 else ''} ago"
    return None


def typed_span(question: str, text: str, tag: date | None) -> str | None:
    """The span a when/where/who/how-many/name question asks for, if this line has one."""
    kind = question_kind(question)
    if kind in ("other", "where") and (contact := contact_span(question, text)):
        return contact
    if kind == "when":
        return said_spans(question, text, tag).typed
    if kind == "where":
        return place_span(text, question)
    if kind == "who":
        return person_span(text, question)
    if kind in ("count", "duration"):
        return number_span(text, with_unit=kind == "duration")
    if re.search(r"\bname\b|\bcalled\b", question, re.I):
        return name_span(text)
    return concept_span(question, text)


def extract(question: str, text: str, tag: date | None) -> str:
    """The answer span of one context line for this question."""
    return typed_span(question, text, tag) or free_span(question, text)
